#pragma once
// The two kernels RFScope estimates, and the conversion between them.
//   Gaussian: K(x, y) = exp(-|x - y|² / 2)
//   softmax:  SM(x, y) = exp(xᵀy) = e^{|x|²/2} K(x, y) e^{|y|²/2}
// Any Gaussian-kernel estimator K̂ gives the softmax estimator e^{(|x|²+|y|²)/2} K̂, whose variance
// is e^{|x|²+|y|²} Var K̂ — so every mechanism only implements the Gaussian case.

#include <optional>
#include <string_view>

#include "core/math/pair_geometry.h"

namespace rfscope {

enum class Kernel { Gaussian, Softmax };

std::string_view kernelId(Kernel kernel);
std::optional<Kernel> kernelFromId(std::string_view id);

double logKernelValue(Kernel kernel, const PairGeometry& pair);

// log of the factor by which a Gaussian-kernel variance is multiplied to get the kernel's variance.
double logVarianceScale(Kernel kernel, const PairGeometry& pair);

}  // namespace rfscope
