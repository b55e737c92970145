#include <iostream>

#include "app/cli/cli_arguments.h"
#include "app/cli/commands.h"
#include "core/io/json_export.h"

namespace rfscope::cli {

int listCommand(const std::vector<std::string>& args) {
  const Arguments arguments(args, {}, {"--compact"});
  if (!arguments.positionals().empty())
    throw UsageError("list takes no arguments, got '" + arguments.positionals().front() + "'");
  std::cout << catalogToJson().dump(arguments.has("--compact") ? -1 : 2) << "\n";
  return 0;
}

}  // namespace rfscope::cli
