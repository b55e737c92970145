#pragma once
// csv: pairs from the user's own vectors (text files, one vector per row; see vector_file.h). With
// one file, x and y are two different random rows of it; with two, x is a random row of the first
// and y of the second. The rows are the base pair (σ = 1); experiments scale them by σ. Every row
// must have d values.

#include "core/data/regime.h"

namespace rfscope {

class CsvRegime final : public Regime {
 public:
  static constexpr const char* kXFileKey = "csv-x";
  static constexpr const char* kYFileKey = "csv-y";

  const RegimeInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::shared_ptr<const PairSampler> prepare(int dimension,
                                             const ParameterSet& params) const override;
};

}  // namespace rfscope
