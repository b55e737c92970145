#pragma once
// The random numbers of one Monte Carlo trial: Philox stream `trial` under the run's seed, with
// ziggurat normals. Everything a trial draws depends only on (seed, trial).

#include <cstdint>

#include "core/random/philox_stream.h"
#include "core/random/ziggurat_normal.h"

namespace rfscope {

class TrialStream {
 public:
  RFSCOPE_HOST_DEVICE TrialStream(std::uint64_t seed, std::uint64_t trial,
                                  const ZigguratTables& tables)
      : philox_(seed, trial), tables_(&tables) {}

  RFSCOPE_HOST_DEVICE std::uint64_t bits() { return philox_.bits(); }
  RFSCOPE_HOST_DEVICE double uniform() { return philox_.uniform(); }
  RFSCOPE_HOST_DEVICE RFSCOPE_FORCE_INLINE double normal() {
    return zigguratNormal(philox_, *tables_);
  }

 private:
  PhiloxStream philox_;
  const ZigguratTables* tables_;
};

}  // namespace rfscope
