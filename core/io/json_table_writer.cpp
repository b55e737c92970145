#include "core/io/json_table_writer.h"

#include <nlohmann/json.hpp>

#include "core/io/json_export.h"

namespace rfscope {

std::string JsonTableWriter::write(const TableDocument& document) const {
  nlohmann::json j{{"experiment", document.experimentId},
                   {"version", RFSCOPE_VERSION},
                   {"parameters", parameterSetToJson(document.parameters)},
                   {"warnings", document.warnings},
                   {"table", tableToJson(document.table)}};
  if (document.seconds) j["seconds"] = *document.seconds;
  // File names in the parameters need not be UTF-8: replace what JSON cannot hold.
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace rfscope
