#pragma once
// What one drawn feature map computes, in a form another implementation can reproduce exactly:
// its drawn randomness (the frequencies Ω, the phases) and the constants of its closed form. The
// Python module's PyTorch maps are built from it, so that they compute the very features of the
// C++ map of the same seed — in any precision, on any device, differentiably.
//
// Three forms cover the continuous mechanisms (the discrete, hybrid and Maclaurin maps have none:
// a Maclaurin feature multiplies a random number of projections):
//   GeneralizedExponential (exponential_features.h): TrigRF, PosRF and its hyperbolic variant,
//     OPRF, GERF — f⁽¹⁾(ω, x) = D exp(A|ω|² + Bωᵀx + C|x|²), keys with sB, for the given A, s.
//   DenseExponential (dense_exponential_features.h): SDERF, ADERF — the canonical parameters
//     a, T1, T2, padded to the frequency dimension.
//   RandomPhase (trig_phase_rf.h): √2 cos(ωᵀx + b_k).
// Every form scales by 1/√M and, for the softmax kernel, by e^{|x|²/2} per side.

#include <complex>

#include <Eigen/Core>

#include "core/math/kernel.h"
#include "core/mechanisms/dense_exponential.h"

namespace rfscope {

struct FeatureMapRecipe {
  enum class Form { GeneralizedExponential, DenseExponential, RandomPhase };
  Form form = Form::GeneralizedExponential;
  Kernel kernel = Kernel::Gaussian;
  Eigen::MatrixXd omega;  // M × n (n ≥ d: inputs are padded with zeros)
  // GeneralizedExponential
  std::complex<double> a{0.0, 0.0};
  int s = 1;
  bool antithetic = false;
  // DenseExponential
  DerfParameters derf;
  // RandomPhase
  Eigen::VectorXd phases;  // M
};

}  // namespace rfscope
