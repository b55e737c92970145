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

BackendSelection selectBackend(BackendChoice choice, const SamplingPlan& plan, double work,
                               int threads) {
  BackendSelection selection;
  if (choice == BackendChoice::Cpu) {
    selection.backend = makeCpuBackend(threads);
    return selection;
  }
  if (choice == BackendChoice::Auto && work < kAutoGpuMinimumWork) {
    selection.backend = makeCpuBackend(threads);
    selection.note = "auto: a run this small is faster on the CPU";
    return selection;
  }
  std::string reason;
  auto gpu = makeCudaBackend(&reason);
  if (gpu && !gpu->supports(plan, &reason)) gpu.reset();
  if (gpu) {
    selection.backend = std::move(gpu);
    return selection;
  }
  if (choice == BackendChoice::Cuda) {
    selection.note = "CUDA backend unavailable: " + reason;
    return selection;
  }
  selection.backend = makeCpuBackend(threads);
  selection.note = "auto: " + reason;
  return selection;
}

}  // namespace rfscope
