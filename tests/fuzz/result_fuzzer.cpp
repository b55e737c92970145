// libFuzzer harness: saved results (core/io/json_result_reader.cpp), the JSON tables that
// Compare → Load Result reads and sessions keep. A std::runtime_error with a message is the
// expected answer to bad input; a crash, a leak, an exception of another type (nlohmann-json's
// own), a message carrying nlohmann-json's tag or a hang is a bug, and so is a result accepted
// that does not read back the same once written again.

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "core/io/json_result_reader.h"
#include "core/io/json_table_writer.h"

namespace {

bool sameValue(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || a == b;
}

bool sameTable(const rfscope::Table& a, const rfscope::Table& b) {
  if (a.columns.size() != b.columns.size() || a.hints.series.size() != b.hints.series.size() ||
      a.hints.xColumn != b.hints.xColumn || a.hints.kind != b.hints.kind)
    return false;
  for (std::size_t c = 0; c < a.columns.size(); ++c) {
    if (a.columns[c].key != b.columns[c].key ||
        a.columns[c].values.size() != b.columns[c].values.size())
      return false;
    for (std::size_t r = 0; r < a.columns[c].values.size(); ++r)
      if (!sameValue(a.columns[c].values[r], b.columns[c].values[r])) return false;
  }
  for (std::size_t s = 0; s < a.hints.series.size(); ++s)
    if (a.hints.series[s].yColumn != b.hints.series[s].yColumn ||
        a.hints.series[s].style != b.hints.series[s].style)
      return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const rfscope::SavedRun run = rfscope::savedRunFromText(text);
    const std::string written = rfscope::JsonTableWriter().write(
        {run.experimentId, run.parameters, run.table, run.warnings, run.seconds});
    const rfscope::SavedRun again = rfscope::savedRunFromText(written);
    if (!(again.parameters == run.parameters) || again.experimentId != run.experimentId ||
        again.warnings != run.warnings || !sameTable(again.table, run.table))
      std::abort();
  } catch (const std::runtime_error& e) {
    // nlohmann-json's tag never leads a message (the input itself may be quoted inside one).
    const std::string_view message = e.what();
    if (message.rfind("[json.exception", 0) == 0 ||
        message.rfind("not valid JSON: [json.exception", 0) == 0)
      std::abort();
  }
  return 0;
}
