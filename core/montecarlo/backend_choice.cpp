#include "core/montecarlo/backend_choice.h"

#include "core/montecarlo/device_backend.h"
#include "core/montecarlo/monte_carlo_backend.h"

namespace rfscope {

std::optional<BackendChoice> parseBackendChoice(std::string_view id) {
  if (id == "cpu") return BackendChoice::Cpu;
  if (id == "cuda") return BackendChoice::Cuda;
  if (id == "auto") return BackendChoice::Auto;
  return std::nullopt;
}

std::string_view backendChoiceId(BackendChoice choice) {
  switch (choice) {
    case BackendChoice::Cpu:
      return "cpu";
    case BackendChoice::Cuda:
      return "cuda";
    case BackendChoice::Auto:
      return "auto";
  }
  return "cpu";
}

Outcome<BackendSelection> selectBackend(BackendChoice choice, const SamplingPlan& plan, double work,
                                        int threads) {
  if (choice == BackendChoice::Cpu) return BackendSelection{makeCpuBackend(threads), ""};
  if (choice == BackendChoice::Auto && work < kAutoGpuMinimumWork)
    return BackendSelection{makeCpuBackend(threads), "auto: a run this small is faster on the CPU"};
  auto gpu = makeCudaBackend();
  std::string reason = gpu ? std::string() : gpu.reason();
  if (gpu) {
    if (const Status supported = (*gpu)->supports(plan); supported)
      return BackendSelection{std::move(*gpu), ""};
    else
      reason = supported.reason();
  }
  if (choice == BackendChoice::Cuda)
    return Outcome<BackendSelection>::unavailable("CUDA backend unavailable: " + reason);
  return BackendSelection{makeCpuBackend(threads), "auto: " + reason};
}

}  // namespace rfscope
