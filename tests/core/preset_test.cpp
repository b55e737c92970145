#include "core/experiments/preset.h"

#include <gtest/gtest.h>

#include <set>

#include "core/experiments/experiment_registry.h"
#include "core/io/parameter_set_json.h"

namespace rfscope {
namespace {

TEST(Presets, EveryPresetNamesAnExperimentAndValidates) {
  ASSERT_FALSE(allPresets().empty());
  std::set<std::string> ids;
  for (const auto& preset : allPresets()) {
    EXPECT_TRUE(ids.insert(preset.id).second) << "duplicate id " << preset.id;
    const Experiment* experiment = findExperiment(preset.experimentId);
    ASSERT_NE(experiment, nullptr) << preset.id;
    std::vector<ParameterError> errors;
    presetParameters(preset, *experiment, errors);
    for (const auto& e : errors)
      ADD_FAILURE() << e.message;
  }
}

TEST(Presets, ValuesOverrideDefaults) {
  const Preset& preset = *findPreset("teach-positive-features-blow-up");
  std::vector<ParameterError> errors;
  const ParameterSet set = presetParameters(preset, *findExperiment(preset.experimentId), errors);
  EXPECT_TRUE(errors.empty());
  EXPECT_EQ(set.integer("d"), 16);
  EXPECT_EQ(set.choice("sigma-spacing"), "log");
  EXPECT_EQ(set.choices("mechanisms"), (std::vector<std::string>{"pos", "oprf"}));
  EXPECT_EQ(set.integer("seed"), 1);  // not in the preset: the default
}

TEST(ParameterSetJson, ReadsBackWhatItWrote) {
  const Experiment& experiment = *findExperiment("variance-vs-sigma");
  const auto specs = experiment.parameters();
  ParameterSet set = ParameterSet::defaults(specs);
  set.set("d", std::int64_t{17});
  set.set("sigma-max", 0.7);
  set.set("mechanisms", std::vector<std::string>{"oprf"});
  const nlohmann::json json{{"d", 17}, {"sigma-max", 0.7}, {"mechanisms", {"oprf"}}};
  std::vector<ParameterError> errors;
  EXPECT_EQ(parameterSetFromJson(specs, json, errors), set);
  EXPECT_TRUE(errors.empty());
}

TEST(ParameterSetJson, ReportsEveryBadEntry) {
  const auto specs = findExperiment("variance-vs-sigma")->parameters();
  const nlohmann::json json{
      {"d", 6.5}, {"bogus", 1}, {"kernel", "cosine"}, {"pairs", -3}, {"mechanisms", {1, 2}}};
  std::vector<ParameterError> errors;
  parameterSetFromJson(specs, json, errors);
  std::set<std::string> keys;
  for (const auto& e : errors)
    keys.insert(e.key);
  EXPECT_EQ(keys, (std::set<std::string>{"d", "bogus", "kernel", "pairs", "mechanisms"}));
  errors.clear();
  parameterSetFromJson(specs, nlohmann::json::array(), errors);
  EXPECT_EQ(errors.size(), 1u);
}

}  // namespace
}  // namespace rfscope
