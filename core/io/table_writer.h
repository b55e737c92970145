#pragma once
// A table writer turns a finished run — its experiment, parameters, table, warnings and time —
// into the bytes of one file format (the way Google Benchmark's reporters print one result in
// several formats). The writers are registered with their format in core/io/output_format.h.

#include <optional>
#include <string>
#include <vector>

#include "core/experiments/table.h"
#include "core/params/parameter_set.h"

namespace rfscope {

// What a writer writes: one run, as the CLI, the app and the Python module hold it.
struct TableDocument {
  const std::string& experimentId;
  const ParameterSet& parameters;
  const Table& table;
  const std::vector<std::string>& warnings;
  std::optional<double> seconds;  // the run's wall-clock time, where it was measured
};

class TableWriter {
 public:
  virtual ~TableWriter() = default;
  // The file's whole content.
  virtual std::string write(const TableDocument& document) const = 0;
};

}  // namespace rfscope
