#include "core/experiments/memory_budget.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include <tbb/global_control.h>

#include "core/mechanisms/mechanism.h"

namespace rfscope {
namespace {

double physicalMemory() {
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0) return 16.0 * (1ull << 30);  // unknown: assume 16 GiB
  return static_cast<double>(pages) * static_cast<double>(pageSize);
}

// "6GiB", "512 MiB", "1e9": bytes, or nothing when the text is not a positive size.
std::optional<double> parseSize(std::string_view text) {
  const std::string value(text);
  char* end = nullptr;
  const double number = std::strtod(value.c_str(), &end);
  if (end == value.c_str() || !(number > 0) || !std::isfinite(number)) return std::nullopt;
  std::string unit(end);
  unit.erase(0, unit.find_first_not_of(' '));
  constexpr std::pair<const char*, double> units[] = {
      {"", 1.0}, {"B", 1.0}, {"KiB", 0x1p10}, {"MiB", 0x1p20}, {"GiB", 0x1p30}, {"TiB", 0x1p40}};
  for (const auto& [name, factor] : units)
    if (unit == name) return number * factor;
  return std::nullopt;
}

}  // namespace

MemoryBudget memoryBudget(std::string* problem) {
  if (const char* text = std::getenv("RFSCOPE_MEMORY_BUDGET"); text && *text) {
    if (const auto bytes = parseSize(text)) return {*bytes, "set by RFSCOPE_MEMORY_BUDGET"};
    if (problem)
      *problem = std::string("RFSCOPE_MEMORY_BUDGET '") + text +
                 "' is not a size (bytes, or a number with KiB, MiB, GiB or TiB)";
  }
  return {0.75 * physicalMemory(), "3/4 of this machine's memory; RFSCOPE_MEMORY_BUDGET sets it"};
}

std::string memorySizeText(double bytes) {
  constexpr const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 5) {
    bytes /= 1024;
    ++unit;
  }
  char text[48];
  if (unit == 0)
    std::snprintf(text, sizeof text, "%.0f bytes", bytes);
  else
    std::snprintf(text, sizeof text,
                  bytes < 10    ? "%.2f %s"
                  : bytes < 100 ? "%.1f %s"
                                : "%.0f %s",
                  bytes, units[unit]);
  return text;
}

double featureColumns(const Mechanism& mechanism) {
  const std::string& id = mechanism.info().id;
  if (id == "hybrid-angular") return 4 + 4 * 8;
  if (id == "hybrid-gaussian") return 2 + 8 * 8;
  if (id == "trig" || id == "gerf" || id == "pos-hyp") return 2;
  return 1;
}

std::string wholeNumberText(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", value);
  return text;
}

int concurrentCells(std::size_t cells) {
  const auto allowed =
      tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
  return static_cast<int>(std::max<std::size_t>(1, std::min<std::size_t>(allowed, cells)));
}

MemoryEstimate featureMatricesEstimate(std::size_t cells, double matrices, double rows,
                                       const std::string& rowNoun, double features,
                                       const std::vector<const Mechanism*>& mechanisms,
                                       const std::string& parameter) {
  double columns = 0;
  for (const Mechanism* mechanism : mechanisms)
    columns = std::max(columns, featureColumns(*mechanism));
  const double width = columns * features;
  const int atOnce = concurrentCells(cells);
  MemoryEstimate estimate;
  estimate.bytes = atOnce * matrices * rows * width * sizeof(double);
  estimate.parameter = parameter;
  char factor[16];
  std::snprintf(factor, sizeof factor, "%g", matrices);
  estimate.breakdown = std::to_string(atOnce) + " cells at once × " + factor + " matrices of " +
                       wholeNumberText(rows) + " " + rowNoun + " × " + wholeNumberText(width) +
                       " feature columns";
  return estimate;
}

std::optional<ParameterError> memoryProblem(const MemoryEstimate& estimate,
                                            const MemoryBudget& budget) {
  if (!(estimate.bytes > budget.bytes)) return std::nullopt;
  return ParameterError{estimate.parameter,
                        "parameter '" + estimate.parameter + "': this run needs about " +
                            memorySizeText(estimate.bytes) + " of memory (" + estimate.breakdown +
                            "), more than the memory budget of " + memorySizeText(budget.bytes) +
                            " (" + budget.source + "): lower '" + estimate.parameter + "'"};
}

}  // namespace rfscope
