#include "core/experiments/estimator_series.h"

#include "core/mechanisms/mechanism.h"

namespace rfscope {

std::vector<EstimatorSeries> estimatorSeries(const std::vector<const Mechanism*>& mechanisms,
                                             const std::vector<Coupling>& couplings) {
  std::vector<EstimatorSeries> all;
  for (std::size_t m = 0; m < mechanisms.size(); ++m)
    for (std::size_t c = 0; c < couplings.size(); ++c) {
      const MechanismInfo& mechanism = mechanisms[m]->info();
      const Coupling coupling = couplings[c];
      EstimatorSeries s;
      s.mechanism = mechanisms[m];
      s.coupling = coupling;
      s.mechanismIndex = m;
      s.couplingIndex = c;
      s.key = mechanism.id + "-" + couplingId(coupling);
      s.name = mechanism.name + ", " + couplingName(coupling);
      const bool oneCoupling = couplings.size() == 1, oneMechanism = mechanisms.size() == 1;
      s.label = oneCoupling ? mechanism.name : oneMechanism ? couplingName(coupling) : s.name;
      s.colorKey = oneCoupling ? mechanism.id : oneMechanism ? couplingId(coupling) : s.key;
      all.push_back(std::move(s));
    }
  return all;
}

std::string estimatorsInCommon(const std::vector<const Mechanism*>& mechanisms,
                               const std::vector<Coupling>& couplings) {
  std::vector<std::string> parts;
  if (mechanisms.size() == 1) parts.push_back(mechanisms.front()->info().name);
  if (couplings.size() == 1) parts.push_back(couplingName(couplings.front()));
  return parts.empty() ? "" : parts.size() == 1 ? parts[0] : parts[0] + ", " + parts[1];
}

}  // namespace rfscope
