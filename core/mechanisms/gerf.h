#pragma once
// GERF, generalised exponential random features (CRT Thm 3.1/3.2): for ω ~ N(0, I),
//   f⁽¹⁾(ω, x) = D exp(A|ω|² + Bωᵀx + C|x|²),  f⁽²⁾(ω, y) = D exp(A|ω|² + sBωᵀy + C|y|²),
// with free A ∈ ℂ, s = ±1 and B = √(s(1-4A)), C = -(s+1)/2, D = (1-4A)^{d/4}. TrigRF is A = 0,
// s = -1; PosRF is A = 0, s = +1; OPRF is the optimal real A with s = +1.
//
// The variance (eq. 6) is rewritten relative to K², which removes every |x|², |y|² term exactly:
//   Var = K² E,  E = ½(Re(α₁e^{β₁}) + α₃e^{β₃}) - 1,
//   w = |x+y|² (s = +1) or |x-y|² (s = -1),  β₁ = s w/(1-8A),  β₃ = (|1-4A| + 4s Re A) w/(1-8 Re
//   A), α₁ = ((1-4A)/√(1-8A))^d,  α₃ = (1 + 16|A|²/(1-8 Re A))^{d/2}.
// E is evaluated as ½(expm1(Re z₁)cos(Im z₁) - 2sin²(Im z₁/2) + expm1(log α₃ + β₃)), z₁ = log α₁ +
// β₁, in the log domain where that would overflow, and in 50-digit arithmetic where the terms
// cancel (e.g. A ≈ 0, s = -1, x ≈ y). Finite only for Re A < 1/8: beyond, the second moment
// diverges.

#include <complex>

#include "core/mechanisms/data_driven_parameters.h"
#include "core/mechanisms/gerf_optimizer.h"
#include "core/mechanisms/mechanism.h"

namespace rfscope {

inline constexpr double kGerfMaxRealA = 0.125;  // Re A must stay below 1/8

// log(Var/K²) of one GERF feature; +inf when Re A >= 1/8.
double gerfLogExcess(int dimension, double diffNormSquared, double sumNormSquared,
                     std::complex<double> a, int s);

// log Var of one GERF feature (Gaussian kernel).
double gerfLogVariance(const PairGeometry& pair, std::complex<double> a, int s);

// The Monte Carlo trial of the GERF with this A and s at the pair (x, y): one generalized
// exponential per feature product, f⁽¹⁾f⁽²⁾ = D² exp(2A|ω|² + B(ωᵀx + sωᵀy) + C(|x|² + |y|²)).
// Unavailable for Re(1 - 4A) <= 0.
Outcome<TrialModel> gerfTrialModel(std::complex<double> a, int s, const Eigen::VectorXd& x,
                                   const Eigen::VectorXd& y);

// GERF optimised over complex A and s (gerf_optimizer.h) at the averaged statistics.
GerfOptimum dataDrivenGerf(const SetStatistics& stats);

class Gerf final : public Mechanism {
 public:
  const MechanismInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  VarianceResult logVariance(const PairInput& pair, const ParameterSet& params) const override;
  ParameterSet dataDrivenParameters(SetStatisticsSource& statistics) const override;
  Outcome<TrialModel> trialModel(Coupling coupling, const Eigen::VectorXd& x,
                                 const Eigen::VectorXd& y,
                                 const ParameterSet& resolved) const override;
  Outcome<std::unique_ptr<FeatureMap>> drawFeatureMap(const FeatureMapSpec& spec,
                                                      TrialStream& stream) const override;
  Outcome<SameQueryCovariance> sameQueryCovariance(const ParameterSet& resolved) const override;
};

}  // namespace rfscope
