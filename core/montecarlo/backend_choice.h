#pragma once
// Which backend runs a Monte Carlo request: the CPU, a CUDA GPU, or automatically by run size.
// Auto takes the GPU when one is usable, the plan is one it samples, and the run is large enough
// to repay the device set-up; otherwise the CPU — and says why in the result's backend note.
// selectBackend (monte_carlo_backend.h) applies the choice.

#include <optional>
#include <string_view>

namespace rfscope {

enum class BackendChoice { Cpu, Cuda, Auto };

std::optional<BackendChoice> parseBackendChoice(std::string_view id);  // "cpu", "cuda", "auto"
std::string_view backendChoiceId(BackendChoice choice);

// Feature evaluations (trials × M) from which Auto prefers the GPU: about two seconds of one CPU
// core, well above a CUDA context's set-up time (a few hundred milliseconds at first use).
inline constexpr double kAutoGpuMinimumWork = 2e8;

}  // namespace rfscope
