// Experiments: `rfscope-cli run`'s table, columns as NumPy arrays, with its CSV metadata; its
// table files written by the registry's writers (core/io/output_format.h), as the CLI writes them.
#include <atomic>
#include <chrono>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "app/cli/run_arguments.h"
#include "app/python/bindings.h"
#include "app/python/interruptible.h"
#include "core/io/json_export.h"
#include "core/io/output_format.h"
#include "core/io/table_csv.h"

namespace py = pybind11;

namespace rfscope::python {
namespace {

// Never reports progress; cancelled by Ctrl-C through runInterruptibly.
class CancellableContext final : public RunContext {
 public:
  explicit CancellableContext(const std::atomic<bool>& cancel) : cancel_(cancel) {}
  bool cancelled() const override { return cancel_.load(std::memory_order_relaxed); }
  void reportProgress(double) override {}
  void publishPartial(const Table&) override {}

 private:
  const std::atomic<bool>& cancel_;
};

// run's arguments as the command line takes them (EXPERIMENT, --preset, --set KEY=VALUE) → a dict:
// columns (key → array), labels, metadata (the CSV's comment lines), parameters (JSON text),
// warnings, plot title and axis labels.
py::dict runExperiment(const std::vector<std::string>& arguments) {
  const cli::RunInvocation run = cli::parseRunInvocation(arguments);
  if (!run.plots.files.empty())
    throw cli::UsageError(cli::outputOption(*run.plots.files.front().format) +
                          ": figures are drawn by rfscope-cli and the app; the Python module "
                          "writes table formats only");
  std::atomic<bool> cancel{false};
  RunResult result;
  const auto start = std::chrono::steady_clock::now();
  runInterruptibly(
      [&] {
        CancellableContext context(cancel);
        result = run.experiment->run(run.parameters, context);
      },
      cancel);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const TableDocument document{run.experimentId, run.parameters, result.table, result.warnings,
                               seconds};
  cli::writeTables(run.tables, document);

  py::dict columns, labels;
  for (const Column& column : result.table.columns) {
    columns[py::str(column.key)] =
        py::array_t<double>(static_cast<py::ssize_t>(column.values.size()), column.values.data());
    labels[py::str(column.key)] = column.label;
  }
  py::list metadata;
  for (const auto& [key, value] : runMetadata(run.experimentId, run.parameters))
    metadata.append(py::make_tuple(key, value));
  py::dict out;
  out["experiment"] = run.experimentId;
  out["columns"] = columns;
  out["labels"] = labels;
  out["metadata"] = metadata;
  out["parameters"] = parameterSetToJson(run.parameters).dump();
  out["warnings"] = result.warnings;
  out["title"] = result.table.hints.title;
  out["x_column"] = result.table.hints.xColumn;
  out["x_label"] = result.table.hints.xLabel;
  out["y_label"] = result.table.hints.yLabel;
  if (run.preset) {  // the preset's claim, checked on this result (claim.h)
    const ClaimVerdict verdict = checkClaim(run.preset->claim, result.table);
    py::list assertions;
    for (std::size_t i = 0; i < verdict.assertions.size(); ++i) {
      py::dict assertion;
      assertion["text"] = run.preset->claim.assertions[i].text;
      assertion["holds"] = verdict.assertions[i].holds;
      assertion["detail"] = verdict.assertions[i].detail;
      assertions.append(assertion);
    }
    py::dict claim;
    claim["text"] = run.preset->claim.text;
    claim["holds"] = verdict.holds;
    claim["assertions"] = assertions;
    out["claim"] = claim;
  }
  return out;
}

// The output formats' registry: id, extension, label, description, kind ("table" or "figure").
py::list outputFormatList() {
  py::list out;
  for (const OutputFormat* format : allOutputFormats()) {
    py::dict entry;
    entry["id"] = format->id;
    entry["extension"] = format->extension;
    entry["label"] = format->label;
    entry["description"] = format->description;
    entry["kind"] = format->kind == OutputKind::Table ? "table" : "figure";
    out.append(entry);
  }
  return out;
}

}  // namespace

void bindRun(py::module_& module) {
  module.def("_run", &runExperiment, py::arg("arguments"),
             "The table of `rfscope-cli run ARGUMENTS...` as NumPy columns and metadata (and its "
             "table files written, for --csv FILE, --json FILE, ...).");
  module.def("_output_formats", &outputFormatList,
             "The output formats (id, extension, label, description, kind).");
}

}  // namespace rfscope::python
