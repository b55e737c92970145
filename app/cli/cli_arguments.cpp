#include "app/cli/cli_arguments.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace rfscope::cli {

Arguments::Arguments(const std::vector<std::string>& args,
                     const std::vector<std::string>& valueOptions,
                     const std::vector<std::string>& flags) {
  auto contains = [](const std::vector<std::string>& list, const std::string& s) {
    return std::find(list.begin(), list.end(), s) != list.end();
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    if (arg.rfind("--", 0) != 0 || arg == "--") {
      positionals_.push_back(arg);
      continue;
    }
    std::string value;
    bool inlineValue = false;
    if (const auto eq = arg.find('='); eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      inlineValue = true;
    }
    if (contains(flags, arg)) {
      if (inlineValue) throw UsageError("option " + arg + " takes no value");
      values_[arg].push_back("");
    } else if (contains(valueOptions, arg)) {
      if (!inlineValue) {
        if (i + 1 >= args.size()) throw UsageError("option " + arg + " needs a value");
        value = args[++i];
      }
      values_[arg].push_back(value);
    } else {
      throw UsageError("unknown option " + arg);
    }
  }
}

std::string Arguments::value(const std::string& option, const std::string& fallback) const {
  const auto it = values_.find(option);
  return it == values_.end() ? fallback : it->second.back();
}

std::vector<std::string> Arguments::all(const std::string& option) const {
  const auto it = values_.find(option);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

std::vector<double> parseNumberList(const std::string& option, const std::string& text) {
  if (text.find_first_not_of(" \t") == std::string::npos)
    throw UsageError(option + ": no numbers given");
  std::vector<double> numbers;
  // Split at every comma, so that an empty entry anywhere ("1,,2", "1,2,", ",1") is refused.
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? comma : comma - start);
    const auto begin = item.find_first_not_of(" \t");
    const auto end = item.find_last_not_of(" \t");
    if (begin == std::string::npos) throw UsageError(option + ": empty entry in '" + text + "'");
    item = item.substr(begin, end - begin + 1);
    double value = 0;
    const RealText kind = parseReal(item, value);
    // Text and inf/nan alike are "not a finite number" here; beyond a double says which way.
    if (kind == RealText::NotANumber || kind == RealText::NotFinite)
      throw UsageError(option + ": " + realTextProblem(RealText::NotFinite, item));
    if (kind != RealText::Finite) throw UsageError(option + ": " + realTextProblem(kind, item));
    numbers.push_back(value);
    if (comma == std::string::npos) return numbers;
    start = comma + 1;
  }
}

long long parseInteger(const std::string& option, const std::string& text) {
  long long value = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size() || text.empty())
    throw UsageError(option + ": '" + text + "' is not an integer");
  return value;
}

std::pair<std::string, std::string> splitAssignment(const std::string& option,
                                                    const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError(option + ": expected KEY=VALUE, got '" + text + "'");
  return {text.substr(0, eq), text.substr(eq + 1)};
}

void applyAssignments(const Arguments& arguments, const std::string& option,
                      const std::vector<ParameterSpec>& specs, const std::string& owner,
                      ParameterSet& params) {
  for (const auto& assignment : arguments.all(option)) {
    const auto [key, text] = splitAssignment(option, assignment);
    const ParameterSpec* spec = findSpec(specs, key);
    if (!spec) throw UsageError(owner + " has no parameter '" + key + "'");
    params.set(key, parseParameterValue(*spec, text));  // InvalidParameter: exit status 2
  }
}

}  // namespace rfscope::cli
