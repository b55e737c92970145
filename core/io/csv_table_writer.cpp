#include "core/io/csv_table_writer.h"

#include "core/io/table_csv.h"

namespace rfscope {

std::string CsvTableWriter::write(const TableDocument& document) const {
  return tableToCsv(document.table, runMetadata(document.experimentId, document.parameters));
}

}  // namespace rfscope
