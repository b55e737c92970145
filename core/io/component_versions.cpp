#include "core/io/component_versions.h"

#include <oneapi/tbb/version.h>

#include <Eigen/Core>
#include <boost/version.hpp>
#include <nlohmann/json.hpp>

#include "core/montecarlo/simd_fast_trials.h"
#include "core/montecarlo/simd_target.h"

namespace rfscope {

std::vector<ComponentVersion> coreComponentVersions() {
  const std::string tbbBuilt = TBB_VERSION_STRING;
  const std::string tbbLoaded = TBB_runtime_version();
  const std::string boost = std::to_string(BOOST_VERSION / 100000) + "." +
                            std::to_string(BOOST_VERSION / 100 % 1000) + "." +
                            std::to_string(BOOST_VERSION % 100);
  return {
      {"Eigen", std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) +
                    "." + std::to_string(EIGEN_MINOR_VERSION)},
      {"oneTBB", tbbLoaded == tbbBuilt ? tbbBuilt : tbbLoaded + " (built with " + tbbBuilt + ")"},
      {"Boost", boost},
      {"nlohmann-json", std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
                            std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
                            std::to_string(NLOHMANN_JSON_VERSION_PATCH)},
  };
}

std::string simdTargetDescription() {
  const std::string id = simdTargetId();
  const std::string name = simdTargetName();
  return name.empty() || name == id ? id : id + " (" + name + ")";
}

}  // namespace rfscope
