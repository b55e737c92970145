#include "core/mechanisms/mechanism_registry.h"

#include "core/mechanisms/oprf.h"
#include "core/mechanisms/pos_rf.h"
#include "core/mechanisms/trig_rf.h"

namespace rfscope {

const std::vector<const Mechanism*>& allMechanisms() {
  static const TrigRf trig;
  static const PosRf pos;
  static const Oprf oprf;
  static const std::vector<const Mechanism*> mechanisms{&trig, &pos, &oprf};
  return mechanisms;
}

const Mechanism* findMechanism(std::string_view id) {
  for (const Mechanism* mechanism : allMechanisms())
    if (mechanism->info().id == id) return mechanism;
  return nullptr;
}

}  // namespace rfscope
