#pragma once
// A random-feature mechanism, in one place: how its random features estimate the Gaussian kernel
// (and, through the kernel's scale, the softmax kernel). A mechanism owns
//   - its identity: id, display name, traits, colour (info());
//   - its parameters (parameters()) and how they are chosen from the statistics of data sets
//     (dataDrivenParameters());
//   - its closed forms: the exact variance of one i.i.d. feature (logVariance()) and, where the
//     theory has one, of M features under a coupling (coupledLogVariance());
//   - how the Monte Carlo engine samples it: the coefficients of its trial on the engine's generic
//     samplers (trialModel());
//   - its feature map on whole data matrices (drawFeatureMap(), feature_map.h), and how two of its
//     estimates sharing ω covary for one query and two keys (sameQueryCovariance(), for attention).
// Kernel conversion, the division by M of i.i.d. features, and the engine's numerics live above
// (evaluateAnalytic, the Monte Carlo engine); everything specific to a mechanism lives here.
//
// Adding a mechanism = one file with a class deriving from Mechanism + one line in
// mechanism_registry.cpp.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/couplings/coupling.h"
#include "core/math/log_math.h"
#include "core/math/outcome.h"
#include "core/math/pair_geometry.h"
#include "core/math/rgb.h"
#include "core/mechanisms/feature_map.h"
#include "core/mechanisms/same_query_covariance.h"
#include "core/mechanisms/trial_model.h"
#include "core/params/parameter_set.h"

namespace rfscope {

struct MechanismInfo {
  std::string id;           // kebab-case: "trig", "pos", "oprf", ...
  std::string name;         // display name: "TrigRF"
  std::string description;  // one line
  std::string reference;    // where the estimator and its variance come from
  bool positive = false;    // features are always > 0
  bool bounded = false;     // features are bounded in ω
  Rgb colour;               // its series colour in every plot and export
};

// The pair an analytic formula is evaluated at. Most mechanisms need only the geometry.
struct PairInput {
  const Eigen::VectorXd& x;
  const Eigen::VectorXd& y;
  PairGeometry geometry;

  PairInput(const Eigen::VectorXd& xIn, const Eigen::VectorXd& yIn)
      : x(xIn), y(yIn), geometry(PairGeometry::fromVectors(xIn, yIn)) {}
  // With the geometry already known (e.g. scaled from another pair's).
  PairInput(const Eigen::VectorXd& xIn, const Eigen::VectorXd& yIn, const PairGeometry& known)
      : x(xIn), y(yIn), geometry(known) {}
};

// The closed form of ONE i.i.d. feature at a pair, Gaussian kernel.
struct VarianceResult {
  // log Var, or why there is no closed form (e.g. GERF's infinite variance for Re A >= 1/8).
  Outcome<double> logVariance = kNegativeInfinity;
  // Every parameter the formula used, automatic ones resolved — also without a closed form, so
  // that Monte Carlo and feature maps can use the resolved estimator all the same.
  ParameterSet parametersUsed;
};

// The closed form of M features under a coupling, Gaussian kernel.
struct CoupledVariance {
  // log Var of the M-feature estimator; absent for independent features, whose variance is the
  // one-feature variance divided by M.
  std::optional<double> logVariance;
  // RF-conformity ρ of the coupling (SimRF eq. 10), where the mechanism's theory has one.
  std::optional<double> logConformity;
  // The orthogonality gap Var_IID - Var_ORF (SimRF eqs. 25, 26): sign (+1 ORF better, -1 worse,
  // 0 equal) and log of its magnitude, where the theory has one.
  int orthogonalityGapSign = 0;
  std::optional<double> logAbsOrthogonalityGap;
  // The bias E K̂ - K where the coupling makes the estimator's mean differ from the kernel
  // (orf-fixed-norm): sign and log magnitude; absent for unbiased estimators. logVariance stays the
  // variance about the estimator's own mean.
  int biasSign = 0;
  std::optional<double> logAbsBias;
};

class SetStatisticsSource;

class Mechanism {
 public:
  virtual ~Mechanism() = default;
  virtual const MechanismInfo& info() const = 0;
  // Free parameters (validated by the caller with validateParameters before use).
  virtual std::vector<ParameterSpec> parameters() const { return {}; }
  // The largest input dimension d it evaluates at one pair (rfscope-cli analytic/mc refuse larger
  // --x): a mechanism that holds d × d matrices sets it lower, so that a run neither takes
  // gigabytes nor O(d³) minutes in silence.
  static constexpr int kMaxPairDimension = 65536;
  virtual int maxDimension() const { return kMaxPairDimension; }

  // ---- Closed forms (Gaussian kernel) ----
  // log Var of ONE i.i.d. feature at the pair, with every parameter it used (autos resolved).
  virtual VarianceResult logVariance(const PairInput& pair, const ParameterSet& params) const = 0;
  // Whether coupledLogVariance has a closed form under the coupling (iid: always).
  virtual bool hasClosedForm(Coupling coupling) const { return coupling == Coupling::Iid; }
  // M features under a coupling with a closed form, given the one-feature result `one` (with a
  // closed form) at the same pair. The default: i.i.d. features (nothing beyond the division by M).
  virtual Outcome<CoupledVariance> coupledLogVariance(Coupling coupling, std::int64_t features,
                                                      const PairInput& pair,
                                                      const VarianceResult& one) const;

  // ---- Parameters from data (CRT §3: one choice for all pairs of two sets) ----
  // The parameters to use for every pair of two sets, from their statistics; empty for mechanisms
  // without free parameters.
  virtual ParameterSet dataDrivenParameters(SetStatisticsSource& /*statistics*/) const {
    return {};
  }
  // Whether dataDrivenParameters asks for the sets' d×d second moments (O(Ld²) to gather).
  virtual bool usesSecondMoments() const { return false; }

  // ---- Monte Carlo ----
  // The coefficients of the engine's trial for the pair (x, y) (already padded to the frequency
  // dimension for structured couplings) with resolved parameters (resolveParameters), or why the
  // engine does not sample this mechanism under the coupling.
  virtual Outcome<TrialModel> trialModel(Coupling coupling, const Eigen::VectorXd& x,
                                         const Eigen::VectorXd& y,
                                         const ParameterSet& resolved) const = 0;

  // ---- Feature maps ----
  // One draw of the random features (ω from frequencies(), plus whatever else the mechanism
  // draws, in the order the full Monte Carlo path draws them) for resolved parameters, or why the
  // mechanism has no feature map for the spec (e.g. discrete ω under a coupling). Throws
  // InvalidParameter for a spec that cannot be right (e.g. a missing shift).
  virtual Outcome<std::unique_ptr<FeatureMap>> drawFeatureMap(const FeatureMapSpec& spec,
                                                              TrialStream& stream) const = 0;
  // Whether its feature maps take inputs of any sign (softmax attention's queries and keys); the
  // discrete mechanisms need non-negative data, or one shift for the whole data set.
  virtual bool mapsSignedInputs() const { return true; }
  // The covariance of two i.i.d. one-feature estimates sharing ω at (x, y_j) and (x, y_k), for
  // resolved parameters, or why none is derived (same_query_covariance.h).
  virtual Outcome<SameQueryCovariance> sameQueryCovariance(const ParameterSet& resolved) const;
};

// The parameters an estimator runs with at a pair: `params` completed by the values the mechanism
// resolves there (automatic optima such as OPRF's A*, λ*, p*, GERF's optimum) and by the defaults
// of the remaining non-optional specs — what Monte Carlo samples and feature maps draw.
ParameterSet resolveParameters(const Mechanism& mechanism, const PairInput& pair,
                               const ParameterSet& params);

}  // namespace rfscope
