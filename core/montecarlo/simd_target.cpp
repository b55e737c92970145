#include "core/montecarlo/simd_target.h"

#include <hwy/targets.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>

#include "core/montecarlo/simd_fast_trials.h"

namespace rfscope {
namespace {

struct SimdLevel {
  const char* id;
  std::int64_t target;   // Highway's bit for the set itself
  std::int64_t allowed;  // the sets the cap leaves (this one and the lesser ones)
};

constexpr std::int64_t kFallbacks = HWY_EMU128 | HWY_SCALAR;
constexpr std::array<SimdLevel, 4> kLevels{{
    {"scalar", kFallbacks, kFallbacks},
    {"sse4", HWY_SSE4, HWY_SSE4 | HWY_SSSE3 | kFallbacks},
    {"avx2", HWY_AVX2, HWY_AVX2 | HWY_SSE4 | HWY_SSSE3 | kFallbacks},
    {"avx512", HWY_AVX3, HWY_AVX3 | HWY_AVX3_DL | HWY_AVX2 | HWY_SSE4 | HWY_SSSE3 | kFallbacks},
}};

std::string levelList() {
  std::string out;
  for (const SimdLevel& level : kLevels)
    out += (out.empty() ? "" : ", ") + std::string(level.id);
  return out;
}

}  // namespace

std::string capSimdTarget(const std::string& name) {
  for (const SimdLevel& level : kLevels) {
    if (name != level.id) continue;
    // Whatever an earlier cap left: a cap can only be lowered, never raised past the CPU.
    if ((hwy::SupportedTargets() & level.target) == 0)
      return std::string(kSimdEnvironmentVariable) + "=" + name + ": this CPU cannot run " + name +
             " (it runs " + simdTargetId() + " at most)";
    hwy::DisableTargets(~level.allowed);
    return {};
  }
  return std::string(kSimdEnvironmentVariable) + "='" + name + "' is not an instruction set (" +
         levelList() + ")";
}

const std::string& simdCapFromEnvironment() {
  static const std::string error = [] {
    const char* value = std::getenv(kSimdEnvironmentVariable);
    if (!value || !*value) return std::string();
    return capSimdTarget(value);
  }();
  return error;
}

void requireSimdCap() {
  if (const std::string& error = simdCapFromEnvironment(); !error.empty())
    throw std::runtime_error(error);
}

std::string simdTargetId() {
  const std::int64_t target = simdTargetBits();
  for (const SimdLevel& level : kLevels)
    if (target & level.target) return level.id;
  return hwy::TargetName(target);  // none of the sets above (not an x86-64 build)
}

}  // namespace rfscope
