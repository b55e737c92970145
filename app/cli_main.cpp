// rfscope-cli: the headless shell over RFScope's experiments and formulas.

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "app/cli/cli_arguments.h"
#include "app/cli/commands.h"
#include "app/cli/process_group.h"
#include "core/experiments/memory_budget.h"
#include "core/io/output_format.h"
#include "core/io/temporary_files.h"
#include "core/math/failure_text.h"
#include "core/math/large_allocations.h"
#include "core/montecarlo/simd_target.h"
#include "core/params/invalid_parameter.h"

namespace {

constexpr const char* kUsageTemplate = R"(usage: rfscope-cli COMMAND [OPTIONS]

commands:
  list [--compact]
      JSON catalogue: experiments with their parameter specs, mechanisms, couplings, regimes.
  run [EXPERIMENT] [--preset ID [--check]] [--set KEY=VALUE]... {table-options}
      {figure-options} [--width PX --height PX] [--dpi DPI]
      [--figure-width LENGTH [--figure-height LENGTH] [--font-size PT]]
      [--title keep|drop] [--legend auto|inside|right|below|none] [--legend-columns N]
      Run an experiment (or a preset, whose values --set overrides); writes the table as {table-names}
      and the plot the app shows as {figure-names}. With no output file the CSV goes to stdout.
      --figure-width sizes the plot as a paper figure (8.5cm, 3.35in, one-column, two-column)
      with text of --font-size points, instead of --width/--height pixels: no title (--title keep
      keeps it), the axes' short labels, and the legend placed so that the axes keep at least
      half of the figure. --legend puts the legend inside the axes (where it covers no data, else
      above the data), right of or below them, or leaves it out; auto (the default) chooses.
      --legend-columns sets its columns (default: as many as fit below, one elsewhere).
      --check prints the preset's claim and, per assertion, "holds" or "does not hold" with its
      numbers (the table then goes only to the files named); exit 4 when it does not hold.
  analytic --mechanism ID [--kernel gaussian|softmax] [--coupling iid|orf|simrf|orf-fixed-norm]
           [--m M] [--param KEY=VALUE]... --x "x1,x2,..." --y "y1,y2,..."
      Exact variance of the M-feature estimator at (x, y), as one JSON object; under
      orf-fixed-norm (trig, pos), whose mean is a Bessel kernel, also its bias and MSE.
  mc (the options of analytic) [--trials T] [--seed S] [--threads N] [--path fast|full]
     [--quantiles "q1,q2,..."] [--backend cpu|cuda|auto]
      Monte Carlo variance of the same estimator: mean, variance with standard error and 95%
      interval, quantiles, histogram, heavy-tail verdict, throughput, and the analytic value
      when one exists, as one JSON object. Couplings also include simrf-plus, orf-fast,
      simrf-fast, orf-fixed-norm, orf-norm-coupled and the quasi-Monte Carlo qmc-sobol,
      qmc-halton and qmc-sobol-owen.
      --backend auto (the default) runs large fast-path runs on a CUDA GPU when this build has
      the CUDA backend and a device is present; "backend" and "backend_note" in the output say what ran.
  export-presets FOLDER [--formats LIST] [--preset ID]... [--check] (the size options of run)
      Runs every preset (or those named) at its values and writes FOLDER/ID.EXT in each format
      of LIST (default csv,pdf), creating FOLDER; a line per preset on stderr. --check checks
      each preset's claim too, prints those that do not hold, and exits 4 if any does not.
  --version, --help

environment: RFSCOPE_SIMD=scalar|sse4|avx2|avx512 caps the instruction set of the Monte Carlo
  kernels (the numbers are the same on every set; the speed is not); mc reports "simd_target".

output formats (run --ID FILE):
{formats}
exit codes: 0 success; 1 failure while running (an unwritable output, no usable CUDA device for
  --backend cuda); 2 bad input (unknown or out-of-range option, malformed data file); 3 no
  closed-form value (none exists, or it cannot be evaluated at that input); 4 run --check: the
  preset's claim does not hold on the result (export-presets --check: a preset's claim)
)";

// The usage, its output options and formats from the registry (core/io/output_format.h).
std::string usage() {
  using rfscope::OutputFormat;
  using rfscope::OutputKind;
  auto join = [](OutputKind kind, const std::string& separator, auto text) {
    std::string out;
    for (const OutputFormat* format : rfscope::outputFormats(kind))
      out += (out.empty() ? "" : separator) + text(*format);
    return out;
  };
  auto option = [](const OutputFormat& format) { return "[--" + format.id + " FILE]"; };
  auto name = [](const OutputFormat& format) {
    std::string id = format.id;
    std::transform(id.begin(), id.end(), id.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return id;
  };
  std::string formats;
  for (const OutputFormat* format : rfscope::allOutputFormats())
    formats += "  " + format->id +
               std::string(std::max<std::size_t>(1, 6 - format->id.size()), ' ') + "." +
               format->extension + ": " + format->description + "\n";
  std::string text = kUsageTemplate;
  for (const auto& [key, value] : {std::pair<std::string, std::string>{
                                       "{table-options}", join(OutputKind::Table, " ", option)},
                                   {"{figure-options}", join(OutputKind::Figure, " ", option)},
                                   {"{table-names}", join(OutputKind::Table, "/", name)},
                                   {"{figure-names}", join(OutputKind::Figure, "/", name)},
                                   {"{formats}", formats}})
    text.replace(text.find(key), key.size(), value);
  return text;
}

}  // namespace

namespace {

int runCommand(const std::string& command, const std::vector<std::string>& args) {
  if (command == "list") return rfscope::cli::listCommand(args);
  if (command == "run") return rfscope::cli::runCommand(args);
  if (command == "analytic") return rfscope::cli::analyticCommand(args);
  if (command == "mc") return rfscope::cli::mcCommand(args);
  if (command == "export-presets") return rfscope::cli::exportPresetsCommand(args);
  throw rfscope::cli::UsageError("unknown command '" + command + "' (see rfscope-cli --help)");
}

// A failure's message, then its exit status. In an MPI job a rank that fails ends the whole job:
// the other ranks may be waiting for it.
int fail(const std::string& message, int status) {
  const auto& group = rfscope::cli::processGroup();
  const std::string who = group.isRoot()
                              ? std::string("rfscope-cli: ")
                              : "rfscope-cli (rank " + std::to_string(group.rank()) + "): ";
  std::cerr << who << message << std::endl;
  if (!group.settled()) group.abortJob(status);
  return status;
}

}  // namespace

// Standard output is where the CSV or JSON goes: a write that failed (a full disk, a reader that
// went away) is a failed run, never exit 0 with the output cut short.
int checkedStandardOutput(int status) {
  std::cout.flush();
  if (std::cout && std::fflush(stdout) == 0 && !std::ferror(stdout)) return status;
  const int error = errno;
  return fail(std::string("error: could not write standard output") +
                  (error ? std::string(": ") + std::strerror(error) : std::string()),
              1);
}

int main(int argc, char** argv) {
  // A reader that goes away (| head, a closed FIFO) shows as a failed write, reported with exit
  // status 1, instead of SIGPIPE ending the program silently.
  std::signal(SIGPIPE, SIG_IGN);
  rfscope::keepLargeAllocations();
  rfscope::removeTemporariesOnTerminationSignals();  // Ctrl+C leaves no half-written temporary
  const auto group = rfscope::cli::joinProcessGroup(argc, argv);  // an MPI job's rank, or alone
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {  // bad input: nothing on standard output (README, exit codes)
    std::cerr << usage();
    return 2;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << usage();
    return checkedStandardOutput(0);
  }
  if (args[0] == "--version") {
    std::cout << "rfscope-cli " << RFSCOPE_VERSION << "\n";
    return checkedStandardOutput(0);
  }
  const std::string command = args[0];
  args.erase(args.begin());
  // `rfscope-cli COMMAND --help` (or -h) anywhere among its options: the usage, as --help gives.
  if (std::find_if(args.begin(), args.end(),
                   [](const std::string& a) { return a == "--help" || a == "-h"; }) != args.end()) {
    std::cout << usage();
    return checkedStandardOutput(0);
  }
  // RFSCOPE_SIMD names an instruction set this CPU lacks, or none: refused before any work.
  if (const std::string& simd = rfscope::simdCapFromEnvironment(); !simd.empty())
    return fail(simd, 2);
  // So is a memory budget that is not a size.
  std::string budgetProblem;
  rfscope::memoryBudget(&budgetProblem);
  if (!budgetProblem.empty()) return fail(budgetProblem, 2);
  try {
    return checkedStandardOutput(runCommand(command, args));
  } catch (const rfscope::cli::QuietExit& quiet) {  // another rank reported the failure
    return quiet.status;
  } catch (const rfscope::InvalidParameter& e) {  // bad input (UsageError included): exit 2
    return fail(e.what(), 2);
  } catch (const std::exception& e) {
    return fail("error: " + rfscope::failureText(e), 1);
  }
}
