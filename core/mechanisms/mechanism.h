#pragma once
// A random-feature mechanism: how one random feature estimates the Gaussian kernel, and (where a
// closed form exists) the exact variance of that one-feature estimator, in the log domain.
// Kernel conversion (softmax), M features and couplings are applied on top by evaluateAnalytic().

#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/analytic/log_math.h"
#include "core/analytic/pair_geometry.h"
#include "core/params/parameter_set.h"

namespace rfscope {

struct MechanismInfo {
  std::string id;           // kebab-case: "trig", "pos", "oprf", ...
  std::string name;         // display name: "TrigRF"
  std::string description;  // one line
  std::string reference;    // where the estimator and its variance come from
  bool positive = false;    // features are always > 0
  bool bounded = false;     // features are bounded in ω
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

struct VarianceResult {
  bool available = false;                  // false: no closed form for this case
  double logVariance = kNegativeInfinity;  // log Var of ONE feature, Gaussian kernel
  ParameterSet parametersUsed;             // every parameter the formula used, autos resolved
  std::string unavailableReason;           // why available == false
};

class Mechanism {
 public:
  virtual ~Mechanism() = default;
  virtual const MechanismInfo& info() const = 0;
  // Free parameters (validated by the caller with validateParameters before use).
  virtual std::vector<ParameterSpec> parameters() const { return {}; }
  virtual VarianceResult logVariance(const PairInput& pair, const ParameterSet& params) const = 0;
};

}  // namespace rfscope
