#pragma once
// JSON: one object with the experiment, the app version, the parameters, the run's time (where it
// was measured) and warnings, and the table with its plot hints (core/io/json_export.h).

#include "core/io/table_writer.h"

namespace rfscope {

class JsonTableWriter final : public TableWriter {
 public:
  std::string write(const TableDocument& document) const override;
};

}  // namespace rfscope
