#include "core/io/parameter_set_json.h"
#include "core/params/invalid_parameter.h"

namespace rfscope {
namespace {

// JSON → text in the CLI's syntax, so that one parser (parseParameterValue) handles every source.
bool jsonToText(const nlohmann::json& value, std::string& text) {
  if (value.is_string()) {
    text = value.get<std::string>();
  } else if (value.is_boolean()) {
    text = value.get<bool>() ? "true" : "false";
  } else if (value.is_number_unsigned()) {  // above 2^63 - 1 too, never wrapped to a negative
    text = std::to_string(value.get<std::uint64_t>());
  } else if (value.is_number_integer()) {
    text = std::to_string(value.get<std::int64_t>());
  } else if (value.is_number()) {
    text = formatParameterValue(value.get<double>());
  } else if (value.is_array()) {
    text.clear();
    for (const auto& item : value) {
      if (!item.is_string()) return false;
      text += (text.empty() ? "" : ",") + item.get<std::string>();
    }
  } else {
    return false;
  }
  return true;
}

// A JSON value as shown in messages: short, and printable whatever bytes its strings hold.
std::string shown(const nlohmann::json& value) {
  std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (text.size() > 60) text = text.substr(0, 57) + "…";
  return text;
}

}  // namespace

ParameterSet parameterSetFromJson(const std::vector<ParameterSpec>& specs,
                                  const nlohmann::json& json, std::vector<ParameterError>& errors) {
  ParameterSet set = ParameterSet::defaults(specs);
  if (!json.is_object()) {
    errors.push_back({"", "parameters must be a JSON object"});
    return set;
  }
  for (const auto& [key, value] : json.items()) {
    const ParameterSpec* spec = findSpec(specs, key);
    if (!spec) {
      errors.push_back({key, "unknown parameter '" + key + "'"});
      continue;
    }
    std::string text;
    if (!jsonToText(value, text)) {
      errors.push_back({key, "parameter '" + key + "': unsupported JSON value " + shown(value)});
      continue;
    }
    if (spec->type == ParameterType::Integer && value.is_number_float()) {
      errors.push_back({key, "parameter '" + key + "': expected an integer, got " + shown(value)});
      continue;
    }
    try {
      set.set(key, parseParameterValue(*spec, text));
    } catch (const InvalidParameter& e) {
      errors.push_back({key, e.what()});
    }
  }
  for (auto& e : validateParameters(specs, set))
    errors.push_back(std::move(e));
  return set;
}

}  // namespace rfscope
