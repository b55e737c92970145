#pragma once
// Shared by the experiment tests: running an experiment with overrides, a context that cancels,
// a context that keeps runs on the CPU, test names from ids, table comparison, and NumPy files to
// read.

#include <gtest/gtest.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "core/experiments/experiment.h"

namespace rfscope::test {

using Overrides = std::vector<std::pair<std::string, ParameterValue>>;

inline ParameterSet parametersWith(const Experiment& experiment, const Overrides& values) {
  ParameterSet params = ParameterSet::defaults(experiment.parameters());
  for (const auto& [key, value] : values)
    params.set(key, value);
  const auto errors = experiment.validate(params);
  for (const auto& e : errors)
    ADD_FAILURE() << e.message;
  return params;
}

// Never cancelled, progress ignored, Monte Carlo on the CPU whatever a GPU offers: the numbers
// the golden files and the claims were taken from.
class CpuRunContext final : public RunContext {
 public:
  bool cancelled() const override { return false; }
  void reportProgress(double) override {}
  void publishPartial(const Table&) override {}
  BackendChoice backendChoice() const override { return BackendChoice::Cpu; }
};

// An id as a GoogleTest parameter name: anything but letters and digits becomes '_'.
inline std::string testNameOf(std::string id) {
  for (char& c : id)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return id;
}

inline RunResult runWith(const Experiment& experiment, const Overrides& values) {
  SilentRunContext context;
  return experiment.run(parametersWith(experiment, values), context);
}

// Cancels once `partialsBeforeCancel` partial tables have been published, and records when.
class CancellingContext final : public RunContext {
 public:
  explicit CancellingContext(int partialsBeforeCancel) : left_(partialsBeforeCancel) {}
  bool cancelled() const override { return left_.load() <= 0; }
  void reportProgress(double) override {}
  void publishPartial(const Table&) override {
    ++partials;
    if (--left_ == 0) cancelledAt = std::chrono::steady_clock::now();
  }
  int partials = 0;
  std::chrono::steady_clock::time_point cancelledAt;

 private:
  std::atomic<int> left_;
};

// Cancelled from `seconds` after construction on; stopDelay() is how long past that moment
// the run went on.
class TimedCancelContext final : public RunContext {
 public:
  explicit TimedCancelContext(double seconds)
      : deadline_(std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double>(seconds))) {}
  bool cancelled() const override { return std::chrono::steady_clock::now() >= deadline_; }
  void reportProgress(double) override {}
  void publishPartial(const Table&) override {}
  double stopDelay() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - deadline_).count();
  }

 private:
  std::chrono::steady_clock::time_point deadline_;
};

// Two tables hold the same numbers bit for bit (NaN equal to NaN).
inline void expectSameTable(const Table& a, const Table& b) {
  ASSERT_EQ(a.columns.size(), b.columns.size());
  for (std::size_t c = 0; c < a.columns.size(); ++c) {
    EXPECT_EQ(a.columns[c].key, b.columns[c].key);
    ASSERT_EQ(a.columns[c].values.size(), b.columns[c].values.size()) << a.columns[c].key;
    for (std::size_t r = 0; r < a.columns[c].values.size(); ++r) {
      const double x = a.columns[c].values[r], y = b.columns[c].values[r];
      if (std::isnan(x) && std::isnan(y)) continue;
      EXPECT_EQ(x, y) << a.columns[c].key << " row " << r;
    }
  }
}

// Every series names existing columns of equal length.
inline void expectConsistentHints(const Table& table) {
  ASSERT_NE(table.column(table.hints.xColumn), nullptr);
  for (const auto& s : table.hints.series) {
    ASSERT_NE(table.column(s.yColumn), nullptr) << s.yColumn;
    EXPECT_EQ(table.column(s.yColumn)->values.size(), table.rowCount()) << s.yColumn;
    if (!s.lowColumn.empty()) {
      EXPECT_NE(table.column(s.lowColumn), nullptr) << s.lowColumn;
    }
    if (!s.highColumn.empty()) {
      EXPECT_NE(table.column(s.highColumn), nullptr) << s.highColumn;
    }
  }
}

// A little-endian float64 C-order .npy file (version 1.0, NumPy's layout) of `shape` ("(40, 3)",
// "(40,)") holding `values`.
inline std::string npyFloat64(const std::string& shape, const std::vector<double>& values) {
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64 != 0)
    header += ' ';
  header += '\n';
  std::string out = std::string("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  std::string data(values.size() * 8, '\0');
  for (std::size_t i = 0; i < values.size(); ++i)
    std::memcpy(data.data() + 8 * i, &values[i], 8);
  return out + data;
}

}  // namespace rfscope::test
