#include "core/math/kernel.h"

namespace rfscope {

std::string_view kernelId(Kernel kernel) {
  return kernel == Kernel::Gaussian ? "gaussian" : "softmax";
}

std::optional<Kernel> kernelFromId(std::string_view id) {
  if (id == "gaussian") return Kernel::Gaussian;
  if (id == "softmax") return Kernel::Softmax;
  return std::nullopt;
}

double logKernelValue(Kernel kernel, const PairGeometry& pair) {
  return kernel == Kernel::Gaussian ? -0.5 * pair.diffNormSquared : pair.dot;
}

double logVarianceScale(Kernel kernel, const PairGeometry& pair) {
  return kernel == Kernel::Gaussian ? 0.0 : pair.xNormSquared + pair.yNormSquared;
}

}  // namespace rfscope
