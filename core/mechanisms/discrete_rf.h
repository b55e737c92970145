#pragma once
// Discretely-induced random features (CRT §3.2): ω_l i.i.d. on {0, 1, …} with P(ω_l = k) = p_k,
//   f(ω, x) = e^{-|x|²/2} Π_l x_l^{ω_l} (ω_l! p_{ω_l})^{-1/2}.
// With a_l = x_l y_l, both variances are written relative to K² so nothing cancels or overflows:
//   PoisRF (Thm 3.4):  Var = K² expm1(Σ_l (λ - a_l)²/λ)                     [= eq. 11 exactly]
//   GeomRF (Thm 3.5):  Var = K² expm1(-d log p - 2Σa_l + Σ_l log I₀(2|a_l|/√(1-p)))
// and the positive variants (§3.2.3) shift both inputs by c_l = min(x_l, y_l) - ε, which leaves K
// unchanged and makes every entry ≥ ε > 0.
//
// Feature maps (drawDiscreteFeatureMap): one draw of M integer frequencies ω (M × d, coordinates
// i.i.d. Poisson(λ) or Geometric(p), drawn row by row as the Monte Carlo trial draws them), and
//   log|f(ω, x)| = -|x|²/2 + Σ_l ω_l log|x_l| - ½ Σ_l log(ω_l! p_{ω_l}),
//   sign f(ω, x) = Π_l sign(x_l)^{ω_l},  f = 0 if some x_l = 0 with ω_l > 0,
// where ω_l! p_{ω_l} = e^{-λ} λ^{ω_l} (Poisson) or ω_l! p (1-p)^{ω_l} (geometric). The sums over l
// are matrix products of Ω with log|X| and with the indicator of negative entries. queries = keys.
// The positive variants map x - c with ONE shift c for all the data (FeatureMapSpec::shift), not a
// shift per pair: with x_l - c_l > 0 every feature is positive.

#include <memory>

#include <Eigen/Core>

#include "core/couplings/coupling.h"
#include "core/math/outcome.h"
#include "core/mechanisms/data_driven_parameters.h"
#include "core/mechanisms/feature_map.h"
#include "core/mechanisms/trial_model.h"
#include "core/params/parameter_set.h"

namespace rfscope {

class Mechanism;

// log I₀(z) for z ≥ 0, accurate for tiny z (≈ z²/4) and huge z (no overflow).
double logBesselI0(double z);

// Σ_l x_l² y_l² (the statistic of CRT eq. 11/12).
double poisStatistic(const Eigen::VectorXd& x, const Eigen::VectorXd& y);
// λ* = √(Σ x_l² y_l² / d), the minimiser of eq. (11).
double poisLambdaStar(int dimension, double statistic);
// log Var of one PoisRF feature (Gaussian kernel); diffNormSquared = |x - y|². With epsilon > 0,
// of the PoisRF+ feature: PoisRF at the pair shifted by positiveShift(x, y, epsilon).
double poisLogVariance(const Eigen::VectorXd& x, const Eigen::VectorXd& y, double diffNormSquared,
                       double lambda, double epsilon = 0);

// log Var at λ = λ*: λd + S/λ - 2Σa at λ* is 2(√(dS) - Σa) = 2dΣ(a_l - ā)²/(√(dS) + Σa), free of
// cancellation. Straight from the pair, without allocating: a_l = x_l y_l, or for PoisRF+ (epsilon
// > 0) a_l = ε(ε + |x_l - y_l|) with a_l - ā = ε(|x_l - y_l| - mean gap) exactly. Sets *lambda to
// λ*.
double poisOptimalLogVariance(const Eigen::VectorXd& x, const Eigen::VectorXd& y,
                              double diffNormSquared, double epsilon, double* lambda);

// p* minimising eq. (13): Brent (Boost.Math) over logit p ∈ [-40, 40].
double geomPStar(const Eigen::VectorXd& x, const Eigen::VectorXd& y);
// log Var of one GeomRF feature; with epsilon > 0 of GeomRF+ (as poisLogVariance).
double geomLogVariance(const Eigen::VectorXd& x, const Eigen::VectorXd& y, double diffNormSquared,
                       double p, double epsilon = 0);

// x - c and y - c for c_l = min(x_l, y_l) - ε (entries computed as |x_l - y_l| + ε or ε exactly).
void positiveShift(const Eigen::VectorXd& x, const Eigen::VectorXd& y, double epsilon,
                   Eigen::VectorXd& xShifted, Eigen::VectorXd& yShifted);

// λ* = √(mean S / d) of two sets (CRT eq. 12).
double dataDrivenPoisLambda(const SetStatistics& stats);
// p* minimising -d log p + Σ_l log I₀(2 mean|x_l y_l| / √(1-p)) (CRT eq. 14; Brent over logit p).
double dataDrivenGeomP(const SetStatistics& stats);

// Which of the four discrete mechanisms: the law of ω, and whether inputs are shifted to positive
// entries (the "+" variants, with parameter ε).
struct DiscreteKind {
  DiscreteDistribution distribution = DiscreteDistribution::Poisson;
  bool shifted = false;
};

// The Monte Carlo trial at the pair (x, y) with resolved parameters (λ or p, and ε when
// shifted), or why there is none (a coupling other than iid, λ <= 0, p outside (0, 1)).
Outcome<TrialModel> discreteTrialModel(const Mechanism& mechanism, DiscreteKind kind,
                                       Coupling coupling, const Eigen::VectorXd& x,
                                       const Eigen::VectorXd& y, const ParameterSet& resolved);

// One draw of the feature map (see above). Throws InvalidParameter when λ or p is missing, or when
// a shifted kind has no shift of dimension d.
Outcome<std::unique_ptr<FeatureMap>> drawDiscreteFeatureMap(const Mechanism& mechanism,
                                                            DiscreteKind kind,
                                                            const FeatureMapSpec& spec,
                                                            TrialStream& stream);

}  // namespace rfscope
