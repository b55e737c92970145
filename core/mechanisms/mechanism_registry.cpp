#include "core/mechanisms/mechanism_registry.h"

#include "core/mechanisms/geom_plus_rf.h"
#include "core/mechanisms/geom_rf.h"
#include "core/mechanisms/gerf.h"
#include "core/mechanisms/hybrid_angular_rf.h"
#include "core/mechanisms/hybrid_gaussian_rf.h"
#include "core/mechanisms/oprf.h"
#include "core/mechanisms/pois_plus_rf.h"
#include "core/mechanisms/pois_rf.h"
#include "core/mechanisms/pos_hyp_rf.h"
#include "core/mechanisms/pos_rf.h"
#include "core/mechanisms/trig_phase_rf.h"
#include "core/mechanisms/trig_rf.h"

namespace rfscope {

const std::vector<const Mechanism*>& allMechanisms() {
  static const TrigRf trig;
  static const TrigPhaseRf trigPhase;
  static const PosRf pos;
  static const PosHypRf posHyp;
  static const Gerf gerf;
  static const Oprf oprf;
  static const PoisRf pois;
  static const GeomRf geom;
  static const PoisPlusRf poisPlus;
  static const GeomPlusRf geomPlus;
  static const HybridAngularRf hybridAngular;
  static const HybridGaussianRf hybridGaussian;
  static const std::vector<const Mechanism*> mechanisms{
      &trig, &trigPhase, &pos,      &posHyp,   &gerf,          &oprf,
      &pois, &geom,      &poisPlus, &geomPlus, &hybridAngular, &hybridGaussian};
  return mechanisms;
}

const Mechanism* findMechanism(std::string_view id) {
  for (const Mechanism* mechanism : allMechanisms())
    if (mechanism->info().id == id) return mechanism;
  return nullptr;
}

}  // namespace rfscope
