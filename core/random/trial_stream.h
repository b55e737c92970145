#pragma once
// The random numbers of one Monte Carlo trial: Philox stream `trial` under the run's seed, with
// Box–Muller normals (box_muller.h). Everything a trial draws depends only on (seed, trial).

#include <cstdint>

#include "core/random/box_muller.h"
#include "core/random/philox_stream.h"

namespace rfscope {

class TrialStream {
 public:
  RFSCOPE_HOST_DEVICE TrialStream(std::uint64_t seed, std::uint64_t trial) : philox_(seed, trial) {}

  RFSCOPE_HOST_DEVICE std::uint64_t bits() { return philox_.bits(); }
  RFSCOPE_HOST_DEVICE double uniform() { return philox_.uniform(); }

  // Two standard normals from the next two uniforms.
  RFSCOPE_HOST_DEVICE RFSCOPE_FORCE_INLINE void normalPair(double& first, double& second) {
    drawNormalPair(*this, first, second);
  }

  // One standard normal, the first of a pair (drawNormal). Loops that draw many normals use
  // PairedNormals instead.
  RFSCOPE_HOST_DEVICE RFSCOPE_FORCE_INLINE double normal() { return drawNormal(*this); }

 private:
  PhiloxStream philox_;
};

// Normals for a loop, two per pair: the second of a pair serves the next request. The stream's
// other draws (χ², phases) may come in between.
template <class Stream>
class PairedNormals {
 public:
  RFSCOPE_HOST_DEVICE explicit PairedNormals(Stream& stream) : stream_(&stream) {}

  RFSCOPE_HOST_DEVICE RFSCOPE_FORCE_INLINE double next() {
    if (hasSpare_) {
      hasSpare_ = false;
      return spare_;
    }
    double first = 0;
    stream_->normalPair(first, spare_);
    hasSpare_ = true;
    return first;
  }

 private:
  Stream* stream_;
  double spare_ = 0;
  bool hasSpare_ = false;
};

}  // namespace rfscope
