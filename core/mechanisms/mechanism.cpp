#include "core/mechanisms/mechanism.h"

namespace rfscope {

Outcome<CoupledVariance> Mechanism::coupledLogVariance(Coupling, std::int64_t, const PairInput&,
                                                       const VarianceResult&) const {
  return CoupledVariance{};  // i.i.d.: the one-feature variance divided by M
}

ParameterSet resolveParameters(const Mechanism& mechanism, const PairInput& pair,
                               const ParameterSet& params) {
  ParameterSet resolved = params;
  const VarianceResult automatic = mechanism.logVariance(pair, params);
  for (const auto& [key, value] : automatic.parametersUsed.values())
    if (!resolved.contains(key)) resolved.set(key, value);
  if (!resolved.attachment()) resolved.attach(automatic.parametersUsed.attachment());
  for (const auto& spec : mechanism.parameters())
    if (!resolved.contains(spec.key) && !spec.optional) resolved.set(spec.key, spec.defaultValue);
  return resolved;
}

Outcome<SameQueryCovariance> Mechanism::sameQueryCovariance(const ParameterSet&) const {
  return Outcome<SameQueryCovariance>::unavailable(
      info().name + ": no same-query covariance implemented (Monte Carlo only)");
}

}  // namespace rfscope
