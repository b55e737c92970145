#pragma once
// The libraries the computation is built on, with their versions, and how the Monte Carlo runs on
// this machine: what the app's About dialog and the CLI's reports name. Plain C++ (no Qt).

#include <string>
#include <vector>

namespace rfscope {

struct ComponentVersion {
  std::string name;     // "Eigen"
  std::string version;  // "3.4.0"; oneTBB: the build's, and the loaded library's if it differs
};

// Eigen, oneTBB, Boost and nlohmann-json, in that order.
std::vector<ComponentVersion> coreComponentVersions();

// The instruction set of the SIMD Monte Carlo kernels, after RFSCOPE_SIMD's cap: its id as
// RFSCOPE_SIMD and mc's simd_target name it, and Highway's name in brackets ("avx2 (AVX2)").
std::string simdTargetDescription();

}  // namespace rfscope
