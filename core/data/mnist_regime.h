#pragma once
// mnist (CRT §5.1): x and y are two different random MNIST images, resized to k×k by area averaging
// (k² = d; the paper uses 8×8, d = 64), pixel values in [0, 1], flattened row by row. The base pair
// is σ = 1; experiments scale it by σ. Images come from the IDX file in the parameter mnist-images,
// by default the 10,000 real digits shipped with RFScope (resources/mnist).

#include "core/data/regime.h"

namespace rfscope {

class MnistRegime final : public Regime {
 public:
  static constexpr const char* kImagesKey = "mnist-images";
  // The shipped digits, relative to a data folder (see data_directory.h).
  static constexpr const char* kShippedImages = "mnist/mnist-10k-images-idx3-ubyte.gz";

  const RegimeInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::string dimensionError(int dimension) const override;  // d = k², d <= 784
  std::shared_ptr<const PairSampler> prepare(int dimension,
                                             const ParameterSet& params) const override;
};

}  // namespace rfscope
