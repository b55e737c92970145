#include "core/params/parameter_spec.h"

#include <utility>

namespace rfscope {

std::string_view parameterTypeId(ParameterType type) {
  switch (type) {
    case ParameterType::Integer:
      return "integer";
    case ParameterType::Real:
      return "real";
    case ParameterType::Boolean:
      return "boolean";
    case ParameterType::Choice:
      return "choice";
    case ParameterType::MultiChoice:
      return "multi-choice";
    case ParameterType::Text:
      return "text";
  }
  return "unknown";
}

ParameterSpec integerParameter(std::string key, std::string label, std::int64_t defaultValue,
                               std::int64_t minimum, std::int64_t maximum, std::string help) {
  ParameterSpec spec;
  spec.key = std::move(key);
  spec.label = std::move(label);
  spec.help = std::move(help);
  spec.type = ParameterType::Integer;
  spec.defaultValue = defaultValue;
  spec.minimum = static_cast<double>(minimum);
  spec.maximum = static_cast<double>(maximum);
  return spec;
}

ParameterSpec realParameter(std::string key, std::string label, double defaultValue, double minimum,
                            double maximum, std::string help, bool logScale) {
  ParameterSpec spec;
  spec.key = std::move(key);
  spec.label = std::move(label);
  spec.help = std::move(help);
  spec.type = ParameterType::Real;
  spec.defaultValue = defaultValue;
  spec.minimum = minimum;
  spec.maximum = maximum;
  spec.logScale = logScale;
  return spec;
}

ParameterSpec booleanParameter(std::string key, std::string label, bool defaultValue,
                               std::string help) {
  ParameterSpec spec;
  spec.key = std::move(key);
  spec.label = std::move(label);
  spec.help = std::move(help);
  spec.type = ParameterType::Boolean;
  spec.defaultValue = defaultValue;
  return spec;
}

ParameterSpec choiceParameter(std::string key, std::string label,
                              std::vector<ParameterChoice> choices, std::string defaultId,
                              std::string help) {
  ParameterSpec spec;
  spec.key = std::move(key);
  spec.label = std::move(label);
  spec.help = std::move(help);
  spec.type = ParameterType::Choice;
  spec.defaultValue = std::move(defaultId);
  spec.choices = std::move(choices);
  return spec;
}

ParameterSpec multiChoiceParameter(std::string key, std::string label,
                                   std::vector<ParameterChoice> choices,
                                   std::vector<std::string> defaultIds, std::string help) {
  ParameterSpec spec;
  spec.key = std::move(key);
  spec.label = std::move(label);
  spec.help = std::move(help);
  spec.type = ParameterType::MultiChoice;
  spec.defaultValue = std::move(defaultIds);
  spec.choices = std::move(choices);
  return spec;
}

ParameterSpec textParameter(std::string key, std::string label, std::string defaultValue,
                            std::string help) {
  ParameterSpec spec;
  spec.key = std::move(key);
  spec.label = std::move(label);
  spec.help = std::move(help);
  spec.type = ParameterType::Text;
  spec.defaultValue = std::move(defaultValue);
  return spec;
}

ParameterSpec fileParameter(std::string key, std::string label, std::string fileFilter,
                            std::string help) {
  ParameterSpec spec = textParameter(std::move(key), std::move(label), "", std::move(help));
  spec.fileFilter = std::move(fileFilter);
  return spec;
}

}  // namespace rfscope
