#include "core/experiments/positive_coupling_theory.h"

#include <limits>

#include "core/couplings/positive_conformity.h"

namespace rfscope {
namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

bool hasPositiveCouplingTheory(std::string_view coupling) {
  PositiveCoupling kind;
  return couplingKindFromId(coupling, &kind);
}

double positiveCouplingLogMse(std::string_view coupling, int dimension, std::int64_t features,
                              double diffNormSquared, double u) {
  PositiveCoupling kind;
  if (!couplingKindFromId(coupling, &kind)) return kNaN;
  return coupledPositiveLogVariance(kind, dimension, features, diffNormSquared, u);
}

double positiveCouplingLogConformity(std::string_view coupling, int dimension, double u) {
  PositiveCoupling kind;
  if (!couplingKindFromId(coupling, &kind)) return kNaN;
  const ConformityValue result = positiveConformity(kind, dimension, u);
  return result.available ? result.logConformity : kNaN;
}

double positiveCouplingLogPairNormDensity(std::string_view coupling, int dimension, double w) {
  PositiveCoupling kind;
  if (!couplingKindFromId(coupling, &kind)) return kNaN;
  return logPairNormDensity(kind, dimension, w);
}

double positiveSimplexSmallVPrefactor(int dimension) {
  return simplexSmallVPrefactor(dimension);
}

}  // namespace rfscope
