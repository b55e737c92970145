#pragma once
// Parameters are data: each experiment and mechanism declares its parameters once, and the GUI
// panel, the CLI's --set parser, presets and sessions are all driven by these declarations.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace rfscope {

enum class ParameterType { Integer, Real, Boolean, Choice, MultiChoice, Text };

// One value of any parameter type. Integers are int64, reals double, choices their ids.
using ParameterValue =
    std::variant<bool, std::int64_t, double, std::string, std::vector<std::string>>;

struct ParameterChoice {
  std::string id;     // kebab-case id used in files and on the command line
  std::string label;  // shown in the GUI
};

struct ParameterSpec {
  std::string key;    // kebab-case, unique within its owner
  std::string label;  // short human label
  std::string help;   // one line
  std::string unit;   // may be empty
  ParameterType type = ParameterType::Real;
  ParameterValue defaultValue;
  double minimum = 0;  // inclusive domain of Integer and Real parameters
  double maximum = 0;
  bool logScale = false;                 // a slider over this range should be logarithmic
  std::vector<ParameterChoice> choices;  // Choice and MultiChoice
  // Text parameters naming a file: a file-dialog filter such as "IDX files (*.idx *.gz)"; empty for
  // plain text.
  std::string fileFilter;
  std::string group;  // GUI grouping, e.g. "Sampling"
  // An optional parameter may be absent from a set: its value is then chosen automatically (e.g. an
  // optimum computed from the data), described by autoLabel.
  bool optional = false;
  std::string autoLabel;
  // Shown only while the Choice parameter `visibleWhenKey` has one of these values (e.g. the MNIST
  // file only for the mnist regime). Empty key: always shown. Hidden values are still validated.
  std::string visibleWhenKey;
  std::vector<std::string> visibleWhenValues;
};

std::string_view parameterTypeId(ParameterType type);

// Builders that keep declarations one line each.
ParameterSpec integerParameter(std::string key, std::string label, std::int64_t defaultValue,
                               std::int64_t minimum, std::int64_t maximum, std::string help);
ParameterSpec realParameter(std::string key, std::string label, double defaultValue, double minimum,
                            double maximum, std::string help, bool logScale = false);
ParameterSpec booleanParameter(std::string key, std::string label, bool defaultValue,
                               std::string help);
ParameterSpec choiceParameter(std::string key, std::string label,
                              std::vector<ParameterChoice> choices, std::string defaultId,
                              std::string help);
// Free text the experiment parses itself (lists, 'auto' or a number, a column name).
ParameterSpec textParameter(std::string key, std::string label, std::string defaultValue,
                            std::string help);
// A path to a file the user picks (may be empty when optional).
ParameterSpec fileParameter(std::string key, std::string label, std::string fileFilter,
                            std::string help);
ParameterSpec multiChoiceParameter(std::string key, std::string label,
                                   std::vector<ParameterChoice> choices,
                                   std::vector<std::string> defaultIds, std::string help);

}  // namespace rfscope
