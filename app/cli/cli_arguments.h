#pragma once
// Minimal argument scanning for rfscope-cli: "--name value" options (repeatable) and positionals.

#include <map>
#include <string>
#include <vector>

#include "core/params/invalid_parameter.h"
#include "core/params/parameter_set.h"

namespace rfscope::cli {

// Thrown for malformed command lines: bad input like core's InvalidParameter (exit code 2, message
// on stderr), about the command line rather than one parameter.
struct UsageError : InvalidParameter {
  explicit UsageError(const std::string& message) : InvalidParameter("", message) {}
};

class Arguments {
 public:
  // valueOptions: options that take a value; flags: options that do not.
  Arguments(const std::vector<std::string>& args, const std::vector<std::string>& valueOptions,
            const std::vector<std::string>& flags);

  const std::vector<std::string>& positionals() const { return positionals_; }
  bool has(const std::string& option) const { return values_.count(option) != 0; }
  // The last value of an option, or fallback.
  std::string value(const std::string& option, const std::string& fallback = "") const;
  std::vector<std::string> all(const std::string& option) const;

 private:
  std::vector<std::string> positionals_;
  std::map<std::string, std::vector<std::string>> values_;
};

// "a,b,c" of numbers → doubles; names the option in the error.
std::vector<double> parseNumberList(const std::string& option, const std::string& text);
long long parseInteger(const std::string& option, const std::string& text);
// "key=value" → {key, value}.
std::pair<std::string, std::string> splitAssignment(const std::string& option,
                                                    const std::string& text);

// Parses every "option KEY=VALUE" against specs into params. An unknown key or a bad value throws
// UsageError naming the owner of the specs (e.g. "experiment 'variance-vs-sigma'").
void applyAssignments(const Arguments& arguments, const std::string& option,
                      const std::vector<ParameterSpec>& specs, const std::string& owner,
                      ParameterSet& params);

}  // namespace rfscope::cli
