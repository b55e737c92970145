#include "core/io/output_format.h"

#include <cassert>
#include <cctype>

#include "core/io/csv_table_writer.h"
#include "core/io/json_table_writer.h"

namespace rfscope {
namespace {

std::vector<const OutputFormat*>& registry() {
  static const CsvTableWriter csv;
  static const JsonTableWriter json;
  // New formats go last of their kind: the CLI's usage lists them in this order. A figure format
  // also needs its writer in ui/figure_writer.cpp.
  static const OutputFormat formats[] = {
      {"csv", "csv", "CSV", "the table, with comment lines naming the experiment and parameters",
       OutputKind::Table, &csv},
      {"json", "json", "JSON", "the table with its plot hints, the parameters and the warnings",
       OutputKind::Table, &json},
      {"png", "png", "PNG image", "the plot as an image (--dpi)", OutputKind::Figure, nullptr,
       true},
      {"pdf", "pdf", "PDF document", "the plot as a vector page", OutputKind::Figure},
      {"svg", "svg", "SVG image", "the plot as a vector image", OutputKind::Figure},
  };
  static std::vector<const OutputFormat*> all = [] {
    std::vector<const OutputFormat*> out;
    for (const OutputFormat& format : formats)
      out.push_back(&format);
    return out;
  }();
  return all;
}

std::string lowerCase(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

const std::vector<const OutputFormat*>& allOutputFormats() {
  return registry();
}

std::vector<const OutputFormat*> outputFormats(OutputKind kind) {
  std::vector<const OutputFormat*> out;
  for (const OutputFormat* format : allOutputFormats())
    if (format->kind == kind) out.push_back(format);
  return out;
}

const OutputFormat* findOutputFormat(std::string_view id) {
  for (const OutputFormat* format : allOutputFormats())
    if (format->id == id) return format;
  return nullptr;
}

const OutputFormat* outputFormatForPath(std::string_view path, OutputKind kind) {
  const std::size_t dot = path.rfind('.');
  const std::size_t slash = path.find_last_of("/\\");
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash))
    return nullptr;
  const std::string extension = lowerCase(path.substr(dot + 1));
  for (const OutputFormat* format : outputFormats(kind))
    if (format->extension == extension) return format;
  return nullptr;
}

const TableWriter* findTableWriter(std::string_view id) {
  const OutputFormat* format = findOutputFormat(id);
  return format && format->kind == OutputKind::Table ? format->tableWriter : nullptr;
}

void registerOutputFormat(const OutputFormat& format) {
  assert(findOutputFormat(format.id) == nullptr);
  assert(format.kind == OutputKind::Figure || format.tableWriter != nullptr);
  registry().push_back(&format);
}

}  // namespace rfscope
