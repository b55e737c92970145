#pragma once
// How the M random frequencies ω_1..ω_M of an estimator are drawn jointly.

#include <string>
#include <string_view>
#include <vector>

namespace rfscope {

struct CouplingInfo {
  std::string id;           // "iid", "orf", "simrf"
  std::string name;         // display name
  std::string description;  // one line
};

const std::vector<CouplingInfo>& allCouplings();
const CouplingInfo* findCoupling(std::string_view id);  // nullptr if unknown

}  // namespace rfscope
