#pragma once
// Which instruction set the SIMD Monte Carlo kernels run with, and the cap a user puts on it.
// RFSCOPE_SIMD=scalar|sse4|avx2|avx512 makes a machine compute as a lesser one would (the results
// are the same on every set; the cap lets an AVX-512 machine check that, and measure an AVX2
// machine's speed). A value this CPU cannot run is refused, never silently lowered.

#include <string>

namespace rfscope {

inline constexpr const char* kSimdEnvironmentVariable = "RFSCOPE_SIMD";

// Applies RFSCOPE_SIMD once per process; every later call returns the first call's outcome: an
// empty string where the variable is unset or applied, otherwise why it was refused.
const std::string& simdCapFromEnvironment();

// Throws std::runtime_error where simdCapFromEnvironment() refused the variable. The kernels call
// it before they dispatch, so no run goes ahead on a set the user did not ask for.
void requireSimdCap();

// Caps the kernels at `name` (scalar, sse4, avx2, avx512) for the rest of the process: an empty
// string on success, otherwise why not (an unknown name, or a set this CPU or build lacks).
std::string capSimdTarget(const std::string& name);

// The instruction set the kernels run with now, as RFSCOPE_SIMD names it ("avx2"), after the cap.
std::string simdTargetId();

}  // namespace rfscope
