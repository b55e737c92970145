#pragma once
// CSV of a table. The file opens with '#' comment lines recording the experiment, every parameter,
// and the app version, so that any figure can be regenerated from its CSV alone.

#include <string>
#include <utility>
#include <vector>

#include "core/experiments/table.h"
#include "core/params/parameter_set.h"

namespace rfscope {

using CsvMetadata = std::vector<std::pair<std::string, std::string>>;  // key, value

std::string tableToCsv(const Table& table, const CsvMetadata& metadata);

// The metadata every exported CSV carries: experiment id, app version, then every parameter.
CsvMetadata runMetadata(const std::string& experimentId, const ParameterSet& params);

}  // namespace rfscope
