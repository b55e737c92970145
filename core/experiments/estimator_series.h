#pragma once
// The one rule that keys, names and colours the series of an experiment that compares
// estimators — mechanisms × couplings — so that every experiment labels "PosRF, ORF" alike and a
// series keeps its colour from one experiment to the next.

#include <cstddef>
#include <string>
#include <vector>

#include "core/couplings/coupling.h"

namespace rfscope {

class Mechanism;

struct EstimatorSeries {
  const Mechanism* mechanism = nullptr;
  Coupling coupling = Coupling::Iid;
  std::size_t mechanismIndex = 0, couplingIndex = 0;  // positions in the user's lists (seeds)
  std::string key;   // column keys: "<mechanism>-<coupling>", "pos-orf"
  std::string name;  // "PosRF, ORF"
  // The legend entry: only what differs between the series (the mechanism when all share a
  // coupling, the coupling when all share a mechanism, else the name); the shared part goes into
  // the title (estimatorsInCommon).
  std::string label;
  // The mechanism's colour when all series share a coupling, the coupling's when they share a
  // mechanism, else a colour of the key.
  std::string colorKey;
};

// Every mechanism under every coupling, mechanisms outermost (the order of the table's columns).
std::vector<EstimatorSeries> estimatorSeries(const std::vector<const Mechanism*>& mechanisms,
                                             const std::vector<Coupling>& couplings);

// What all series share, for the title: "PosRF, IID", "PosRF", "IID" or "".
std::string estimatorsInCommon(const std::vector<const Mechanism*>& mechanisms,
                               const std::vector<Coupling>& couplings);

}  // namespace rfscope
