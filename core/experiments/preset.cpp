#include "core/experiments/preset.h"

namespace rfscope {

const std::vector<Preset>& allPresets() {
  static const std::vector<Preset> presets{
      {"crt-fig2-normal",
       "CRT Fig. 2 — normal regime",
       "variance-vs-sigma",
       "Log-variance of TrigRF, PosRF and OPRF for x, y ~ N(0, σ²I), d = 64, 0.1 ≤ σ ≤ 1",
       {{"d", "64"}, {"regime", "normal"}, {"sigma-min", "0.1"}, {"sigma-max", "1"},
        {"sigma-steps", "50"}, {"pairs", "100"}, {"mechanisms", "trig,pos,oprf"}},
       false},
      {"crt-fig1-right",
       "CRT Fig. 1 (right) — OPRF vs PosRF variance ratio",
       "variance-ratio-vs-norm",
       "μ = log(Var OPRF / Var PosRF) vs ‖x+y‖²: below -60 at d = 64, ‖x+y‖² = 100",
       {{"dimensions", "16,32,64,128,256"}, {"u-min", "0.01"}, {"u-max", "200"}, {"u-steps", "200"}},
       false},
      {"teach-positive-features-blow-up",
       "Teaching — why FAVOR+ needed FAVOR++",
       "variance-vs-sigma",
       "As inputs grow, PosRF's variance explodes while OPRF's optimal A keeps it bounded",
       {{"d", "16"}, {"sigma-min", "0.01"}, {"sigma-max", "2"}, {"sigma-steps", "200"},
        {"sigma-spacing", "log"}, {"pairs", "200"}, {"mechanisms", "pos,oprf"}},
       true},
      {"teach-trig-small-inputs",
       "Teaching — TrigRF shines for close points",
       "variance-vs-sigma",
       "For small σ the points are close, K ≈ 1 and TrigRF's variance ½(1-K²)² vanishes",
       {{"d", "64"}, {"sigma-min", "0.001"}, {"sigma-max", "1"}, {"sigma-steps", "100"},
        {"sigma-spacing", "log"}, {"mechanisms", "trig,pos,oprf"}},
       true},
  };
  return presets;
}

const Preset* findPreset(std::string_view id) {
  for (const auto& preset : allPresets())
    if (preset.id == id) return &preset;
  return nullptr;
}

ParameterSet presetParameters(const Preset& preset, const Experiment& experiment,
                              std::vector<ParameterError>& errors) {
  const auto specs = experiment.parameters();
  ParameterSet set = ParameterSet::defaults(specs);
  for (const auto& [key, text] : preset.values) {
    const ParameterSpec* spec = findSpec(specs, key);
    if (!spec) {
      errors.push_back({key, "preset '" + preset.id + "': unknown parameter '" + key + "'"});
      continue;
    }
    std::string error;
    if (const auto value = parseParameterValue(*spec, text, &error)) set.set(key, *value);
    else errors.push_back({key, "preset '" + preset.id + "': " + error});
  }
  for (auto& e : experiment.validate(set)) errors.push_back(std::move(e));
  return set;
}

}  // namespace rfscope
