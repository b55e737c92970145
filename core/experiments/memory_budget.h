#pragma once
// How much memory a run may take, and the check every experiment's validation makes against it:
// an experiment that holds matrices growing with its parameters (features × rows of data) states
// what a run will need (Experiment::memoryEstimate), and a run estimated above the budget is
// refused before it starts — the estimate and the budget named — rather than left to exhaust the
// machine. The budget is RFSCOPE_MEMORY_BUDGET (bytes, or a number with KiB, MiB, GiB or TiB) or,
// unset, three quarters of the machine's physical memory.

#include <optional>
#include <string>
#include <vector>

#include "core/params/parameter_set.h"

namespace rfscope {

struct MemoryEstimate {
  double bytes = 0;
  std::string parameter;  // the parameter whose value drives it (the error's key)
  std::string breakdown;  // how it arises: "2 cells at once × 4 matrices of 4096 rows × …"
};

struct MemoryBudget {
  double bytes = 0;
  std::string source;  // "set by RFSCOPE_MEMORY_BUDGET", or "3/4 of this machine's memory; ..."
};

// The budget from the environment (re-read on every call); an RFSCOPE_MEMORY_BUDGET that is not a
// positive size is reported in `problem` and the default applies.
MemoryBudget memoryBudget(std::string* problem = nullptr);

// "12.5 GiB", "640 MiB": binary units, three significant digits.
std::string memorySizeText(double bytes);

class Mechanism;

// Columns of a mechanism's feature matrix per feature (feature_map.h's width per frequency; the
// hybrids at their default n = 8).
double featureColumns(const Mechanism& mechanism);

// "100000": a count held in a double, without an exponent.
std::string wholeNumberText(double value);

// How many cells of a grid run at once: TBB's allowed parallelism, at most `cells`.
int concurrentCells(std::size_t cells);

// The estimate of a grid of `cells` cells of which each holds `matrices` feature matrices of
// `rows` rows (named `rowNoun`: "rows", "points") × `features` features of the widest of
// `mechanisms` (featureColumns), one cell per thread at a time; the error names `parameter`.
MemoryEstimate featureMatricesEstimate(std::size_t cells, double matrices, double rows,
                                       const std::string& rowNoun, double features,
                                       const std::vector<const Mechanism*>& mechanisms,
                                       const std::string& parameter);

// The error for an estimate above the budget; none within it.
std::optional<ParameterError> memoryProblem(const MemoryEstimate& estimate,
                                            const MemoryBudget& budget);

}  // namespace rfscope
