#pragma once
// The sub-commands of rfscope-cli. Each takes the arguments after its name and returns the exit
// code: 0 success, 1 failure while running (e.g. unwritable file), 2 bad input, 3 not available.
// UsageError is thrown for bad input and reported by main.

#include <string>
#include <vector>

namespace rfscope::cli {

int listCommand(const std::vector<std::string>& args);
int runCommand(const std::vector<std::string>& args);
int analyticCommand(const std::vector<std::string>& args);
int mcCommand(const std::vector<std::string>& args);
int exportPresetsCommand(const std::vector<std::string>& args);

}  // namespace rfscope::cli
