#pragma once
// The output formats RFScope writes, registered once: every format's id (the command-line option
// --ID, the name Python takes), file extension, label (the save dialogs' filter name) and
// description, and what it writes. Table formats (CSV, JSON) write a run's table here in core;
// figure formats (PNG, PDF, SVG) render the plot and have their writers in ui/figure_writer.h. The
// CLI's options, usage and output checks, the app's save dialogs and the Python module all read
// this registry, so a format added here is offered by all of them.

#include <string>
#include <string_view>
#include <vector>

#include "core/io/table_writer.h"

namespace rfscope {

enum class OutputKind { Table, Figure };

struct OutputFormat {
  std::string id;         // "csv": the option --csv, lower case
  std::string extension;  // "csv", without the dot
  std::string label;      // "CSV": a save dialog's filter name
  std::string description;
  OutputKind kind = OutputKind::Table;
  const TableWriter* tableWriter = nullptr;  // for table formats: what writes it
  // A figure format of pixels (PNG): sized with --dpi, at most kMaxPngPixels
  // (core/data/input_limits.h); vector formats are drawn at the size on screen by default.
  bool raster = false;
};

// Every format, in registration order (the order of the CLI's options and the dialogs' filters).
const std::vector<const OutputFormat*>& allOutputFormats();
// The formats of one kind, in registration order.
std::vector<const OutputFormat*> outputFormats(OutputKind kind);
const OutputFormat* findOutputFormat(std::string_view id);  // nullptr if unknown
// The format of a kind whose extension a file name has (any letter case), or nullptr.
const OutputFormat* outputFormatForPath(std::string_view path, OutputKind kind);

// The table writer of a table format's id (nullptr if there is none).
const TableWriter* findTableWriter(std::string_view id);

// Appends a format defined outside the registry (it must outlive every use, its id be new and a
// table format carry its writer). Call it before anything reads the registry concurrently, e.g.
// at static initialisation, as registerMechanism.
void registerOutputFormat(const OutputFormat& format);

}  // namespace rfscope
