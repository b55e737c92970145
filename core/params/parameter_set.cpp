#include "core/params/parameter_set.h"

#include "core/params/invalid_parameter.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace rfscope {
namespace {

std::string trim(std::string_view text) {
  const auto begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return {};
  const auto end = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(begin, end - begin + 1));
}

std::string formatNumber(double value) {
  // Shortest text that reads back to the same double.
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string describeRange(const ParameterSpec& spec) {
  return "[" + formatNumber(spec.minimum) + ", " + formatNumber(spec.maximum) + "]";
}

bool isKnownChoice(const ParameterSpec& spec, const std::string& id) {
  return std::any_of(spec.choices.begin(), spec.choices.end(),
                     [&](const ParameterChoice& c) { return c.id == id; });
}

std::string choiceList(const ParameterSpec& spec) {
  std::string list;
  for (const auto& c : spec.choices)
    list += (list.empty() ? "" : ", ") + c.id;
  return list;
}

}  // namespace

ParameterSet ParameterSet::defaults(const std::vector<ParameterSpec>& specs) {
  ParameterSet set;
  for (const auto& spec : specs)
    set.set(spec.key, spec.defaultValue);
  return set;
}

const ParameterValue* ParameterSet::find(const std::string& key) const {
  const auto it = values_.find(key);
  return it == values_.end() ? nullptr : &it->second;
}

std::int64_t ParameterSet::integer(const std::string& key) const {
  return std::get<std::int64_t>(values_.at(key));
}

double ParameterSet::real(const std::string& key) const {
  const auto& value = values_.at(key);
  if (const auto* i = std::get_if<std::int64_t>(&value)) return static_cast<double>(*i);
  return std::get<double>(value);
}

bool ParameterSet::boolean(const std::string& key) const {
  return std::get<bool>(values_.at(key));
}

const std::string& ParameterSet::choice(const std::string& key) const {
  return std::get<std::string>(values_.at(key));
}

const std::vector<std::string>& ParameterSet::choices(const std::string& key) const {
  return std::get<std::vector<std::string>>(values_.at(key));
}

ParameterValue parseParameterValue(const ParameterSpec& spec, std::string_view rawText) {
  const std::string text = trim(rawText);
  auto fail = [&](const std::string& message) -> ParameterValue {
    throw InvalidParameter(spec.key, "parameter '" + spec.key + "': " + message);
  };
  switch (spec.type) {
    case ParameterType::Integer: {
      std::int64_t value = 0;
      const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
      if (result.ec != std::errc() || result.ptr != text.data() + text.size() || text.empty())
        return fail("'" + text + "' is not an integer");
      return ParameterValue(value);
    }
    case ParameterType::Real: {
      double value = 0;
      if (const RealText kind = parseReal(text, value); kind != RealText::Finite)
        return fail(realTextProblem(kind, text));
      return ParameterValue(value);
    }
    case ParameterType::Boolean:
      if (text == "true" || text == "1" || text == "yes" || text == "on")
        return ParameterValue(true);
      if (text == "false" || text == "0" || text == "no" || text == "off")
        return ParameterValue(false);
      return fail("'" + text + "' is not a boolean (use true or false)");
    case ParameterType::Choice:
      if (!isKnownChoice(spec, text))
        return fail("'" + text + "' is not one of: " + choiceList(spec));
      return ParameterValue(text);
    case ParameterType::MultiChoice: {
      std::vector<std::string> ids;
      std::stringstream stream(text);
      std::string item;
      while (std::getline(stream, item, ',')) {
        item = trim(item);
        if (item.empty()) continue;
        if (!isKnownChoice(spec, item))
          return fail("'" + item + "' is not one of: " + choiceList(spec));
        if (std::find(ids.begin(), ids.end(), item) == ids.end()) ids.push_back(item);
      }
      return ParameterValue(ids);
    }
    case ParameterType::Text:
      return ParameterValue(std::string(rawText));
  }
  return fail("unsupported parameter type");
}

std::string formatParameterValue(const ParameterValue& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          return std::to_string(v);
        } else if constexpr (std::is_same_v<T, double>) {
          return formatNumber(v);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return v;
        } else {
          std::string joined;
          for (const auto& id : v)
            joined += (joined.empty() ? "" : ",") + id;
          return joined;
        }
      },
      value);
}

const ParameterSpec* findSpec(const std::vector<ParameterSpec>& specs, std::string_view key) {
  for (const auto& spec : specs)
    if (spec.key == key) return &spec;
  return nullptr;
}

std::vector<ParameterError> validateParameters(const std::vector<ParameterSpec>& specs,
                                               const ParameterSet& set) {
  std::vector<ParameterError> errors;
  for (const auto& [key, value] : set.values())
    if (!findSpec(specs, key)) errors.push_back({key, "unknown parameter '" + key + "'"});

  for (const auto& spec : specs) {
    const ParameterValue* value = set.find(spec.key);
    auto error = [&](const std::string& message) {
      errors.push_back({spec.key, "parameter '" + spec.key + "': " + message});
    };
    if (!value) {
      if (!spec.optional) error("missing value");
      continue;
    }
    switch (spec.type) {
      case ParameterType::Integer: {
        const auto* v = std::get_if<std::int64_t>(value);
        if (!v)
          error("expected an integer");
        else if (*v < spec.minimum || *v > spec.maximum)
          error(std::to_string(*v) + " is outside " + describeRange(spec));
        break;
      }
      case ParameterType::Real: {
        double v = 0;
        if (const auto* d = std::get_if<double>(value))
          v = *d;
        else if (const auto* i = std::get_if<std::int64_t>(value))
          v = static_cast<double>(*i);
        else {
          error("expected a number");
          break;
        }
        if (!std::isfinite(v))
          error("expected a finite number");
        else if (v < spec.minimum || v > spec.maximum)
          error(formatNumber(v) + " is outside " + describeRange(spec));
        break;
      }
      case ParameterType::Boolean:
        if (!std::holds_alternative<bool>(*value)) error("expected true or false");
        break;
      case ParameterType::Choice: {
        const auto* v = std::get_if<std::string>(value);
        if (!v || !isKnownChoice(spec, *v)) error("expected one of: " + choiceList(spec));
        break;
      }
      case ParameterType::MultiChoice: {
        const auto* v = std::get_if<std::vector<std::string>>(value);
        if (!v) {
          error("expected a list of: " + choiceList(spec));
          break;
        }
        if (v->empty()) error("select at least one of: " + choiceList(spec));
        for (const auto& id : *v)
          if (!isKnownChoice(spec, id)) error("'" + id + "' is not one of: " + choiceList(spec));
        break;
      }
      case ParameterType::Text:
        if (!std::holds_alternative<std::string>(*value)) error("expected text");
        break;
    }
  }
  return errors;
}

RealText parseReal(const std::string& text, double& value) {
  double parsed = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), parsed);
  if (result.ptr != text.data() + text.size() || text.empty() ||
      (result.ec != std::errc() && result.ec != std::errc::result_out_of_range))
    return RealText::NotANumber;
  if (result.ec == std::errc::result_out_of_range)  // a number all the same: say which way
    return std::fabs(std::strtod(text.c_str(), nullptr)) >= 1 ? RealText::TooLarge
                                                              : RealText::TooSmall;
  if (!std::isfinite(parsed)) return RealText::NotFinite;
  value = parsed;
  return RealText::Finite;
}

std::string realTextProblem(RealText kind, const std::string& text) {
  const std::string quoted = "'" + text + "'";
  switch (kind) {
    case RealText::NotANumber:
      return quoted + " is not a number";
    case RealText::NotFinite:
      return quoted + " is not a finite number";
    case RealText::TooLarge:
      return quoted + " is too large for a double (magnitudes up to 1.8e308)";
    case RealText::TooSmall:
      return quoted +
             " is too small for a double: it underflows (magnitudes down to 2.2e-308; write 0 if "
             "0 is meant)";
    case RealText::Finite:
      break;
  }
  return {};
}

bool sameParameterValue(const ParameterValue& a, const ParameterValue& b) {
  const auto* x = std::get_if<std::vector<std::string>>(&a);
  const auto* y = std::get_if<std::vector<std::string>>(&b);
  if (!x || !y) return a == b;
  std::vector<std::string> sx = *x, sy = *y;
  std::sort(sx.begin(), sx.end());
  std::sort(sy.begin(), sy.end());
  return sx == sy;
}

}  // namespace rfscope
