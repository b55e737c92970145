#pragma once
// Named parameter sets: one per paper figure, plus teaching demos. Values are written as the CLI
// writes them (--set KEY=VALUE) and parsed against the experiment's spec, so a preset can never
// smuggle in a value the spec would reject.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/experiments/claim.h"
#include "core/experiments/experiment.h"

namespace rfscope {

struct Preset {
  std::string id;                                           // kebab-case: "crt-fig2-normal"
  std::string title;                                        // "CRT Fig. 2 — normal regime"
  std::string experimentId;                                 // the experiment it configures
  std::string description;                                  // one line: what to look at
  std::vector<std::pair<std::string, std::string>> values;  // key, value text; others default
  bool teaching = false;  // a teaching demo rather than a paper figure
  // Axis scales that show the preset's claim at first sight (e.g. heavy tails on a log y axis);
  // unset: the plot's own choice from the table's hints and grid.
  std::optional<bool> xLog = std::nullopt;
  std::optional<bool> yLog = std::nullopt;
  // What the figure shows, checkable on its table (preset_claims.cpp).
  Claim claim = {};
};

const std::vector<Preset>& allPresets();
const Preset* findPreset(std::string_view id);  // nullptr if unknown

// The experiment's defaults overridden by the preset's values; errors name any value that does not
// fit the spec.
ParameterSet presetParameters(const Preset& preset, const Experiment& experiment,
                              std::vector<ParameterError>& errors);

}  // namespace rfscope
