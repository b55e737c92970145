#pragma once
// CSV: the table under '#' comment lines naming the experiment, the app version and every
// parameter (core/io/table_csv.h).

#include "core/io/table_writer.h"

namespace rfscope {

class CsvTableWriter final : public TableWriter {
 public:
  std::string write(const TableDocument& document) const override;
};

}  // namespace rfscope
