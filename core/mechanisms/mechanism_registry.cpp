#include "core/mechanisms/mechanism_registry.h"

#include <cassert>

#include "core/mechanisms/aderf.h"
#include "core/mechanisms/geom_plus_rf.h"
#include "core/mechanisms/geom_rf.h"
#include "core/mechanisms/gerf.h"
#include "core/mechanisms/hybrid_angular_rf.h"
#include "core/mechanisms/hybrid_gaussian_rf.h"
#include "core/mechanisms/maclaurin_rf.h"
#include "core/mechanisms/oprf.h"
#include "core/mechanisms/pois_plus_rf.h"
#include "core/mechanisms/pois_rf.h"
#include "core/mechanisms/pos_hyp_rf.h"
#include "core/mechanisms/pos_rf.h"
#include "core/mechanisms/saderf.h"
#include "core/mechanisms/sderf.h"
#include "core/mechanisms/trig_phase_rf.h"
#include "core/mechanisms/trig_rf.h"

namespace rfscope {

namespace {

std::vector<const Mechanism*>& registry() {
  static const TrigRf trig;
  static const TrigPhaseRf trigPhase;
  static const PosRf pos;
  static const PosHypRf posHyp;
  static const Gerf gerf;
  static const Oprf oprf;
  static const Sderf sderf;
  static const Aderf aderf;
  static const Saderf saderf;
  static const PoisRf pois;
  static const GeomRf geom;
  static const PoisPlusRf poisPlus;
  static const GeomPlusRf geomPlus;
  static const HybridAngularRf hybridAngular;
  static const HybridGaussianRf hybridGaussian;
  static const MaclaurinRf maclaurin;
  // New mechanisms go last: the order of every list and of the golden files stays.
  static std::vector<const Mechanism*> mechanisms{
      &trig,     &trigPhase, &pos,           &posHyp,         &gerf,  &oprf,  &pois,   &geom,
      &poisPlus, &geomPlus,  &hybridAngular, &hybridGaussian, &sderf, &aderf, &saderf, &maclaurin};
  return mechanisms;
}

}  // namespace

const std::vector<const Mechanism*>& allMechanisms() {
  return registry();
}

void registerMechanism(const Mechanism& mechanism) {
  assert(findMechanism(mechanism.info().id) == nullptr);
  registry().push_back(&mechanism);
}

const Mechanism* findMechanism(std::string_view id) {
  for (const Mechanism* mechanism : allMechanisms())
    if (mechanism->info().id == id) return mechanism;
  return nullptr;
}

}  // namespace rfscope
