// The CUDA entry points of a build without CUDA (RFSCOPE_CUDA=OFF, or AUTO without nvcc).
#include "core/montecarlo/cuda_throughput_bound.h"
#include "core/montecarlo/leaf_kernel.h"

namespace rfscope {

namespace {
constexpr const char* kNotBuilt = "this build of RFScope has no CUDA backend (built without CUDA)";
}

std::unique_ptr<LeafKernel> makeCudaLeafKernel(std::string* reason) {
  if (reason) *reason = kNotBuilt;
  return nullptr;
}

std::optional<ThroughputBound> measureCudaThroughputBound(const FastTrialPlan&, std::int64_t,
                                                          std::string* reason) {
  if (reason) *reason = kNotBuilt;
  return std::nullopt;
}

}  // namespace rfscope
