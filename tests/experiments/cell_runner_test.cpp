// The shared cell runner: rows committed in order with the same numbers for any thread count,
// progress and a partial table per chunk, and cancellation that keeps complete rows only.

#include "core/experiments/cell_runner.h"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <atomic>
#include <cmath>
#include <vector>

#include "core/experiments/experiment_support.h"

namespace rfscope {
namespace {

class RecordingContext final : public RunContext {
 public:
  explicit RecordingContext(int cancelAfterPartials = -1) : cancelAfter_(cancelAfterPartials) {}
  bool cancelled() const override { return cancelAfter_ >= 0 && partials.load() >= cancelAfter_; }
  void reportProgress(double fraction) override { progress.push_back(fraction); }
  void publishPartial(const Table& table) override {
    partialRows.push_back(table.rowCount());
    ++partials;
  }
  std::vector<double> progress;
  std::vector<std::size_t> partialRows;
  std::atomic<int> partials{0};

 private:
  int cancelAfter_;
};

// A grid of 10 rows × 7 cells; each row's value sums its cells' seeded numbers.
Table runGrid(RunContext& context, RunStatus* status, std::size_t rowsPerChunk = 1) {
  Table table;
  const ColumnHandle row = table.addColumn("row", "row");
  const ColumnHandle sum = table.addColumn("sum", "sum of the cells");
  const std::size_t rows = 10, cells = 7;
  std::vector<double> values(rows * cells, std::nan(""));
  CellWork work;
  work.computeCells = [&](std::size_t begin, std::size_t end) {
    for (std::size_t cell = begin; cell != end; ++cell)
      values[cell] = std::sin(static_cast<double>(deriveSeed(3, cell) % 1000));
  };
  work.commitRows = [&](std::size_t first, std::size_t last) {
    for (std::size_t r = first; r < last; ++r) {
      double total = 0;
      for (std::size_t c = 0; c < cells; ++c)
        total += values[r * cells + c];
      table.append(row, static_cast<double>(r));
      table.append(sum, total);
    }
  };
  *status = runCellGrid(context, {rows, cells, rowsPerChunk}, work, table);
  return table;
}

TEST(CellRunner, SameRowsForAnyThreadCountWithProgressAndPartials) {
  RunStatus status;
  Table one, two;
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    RecordingContext context;
    one = runGrid(context, &status);
  }
  RecordingContext context;
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
    two = runGrid(context, &status, 3);
  }
  EXPECT_EQ(status, RunStatus::Completed);
  ASSERT_EQ(one.rowCount(), 10u);
  EXPECT_EQ(one.columns[1].values, two.columns[1].values);
  for (std::size_t r = 0; r < 10; ++r)
    EXPECT_EQ(one.columns[0].values[r], static_cast<double>(r));
  // Chunks of 3 rows: 3, 6, 9, 10 committed; partials after all but the last.
  EXPECT_EQ(context.progress, (std::vector<double>{0.3, 0.6, 0.9, 1.0}));
  EXPECT_EQ(context.partialRows, (std::vector<std::size_t>{3, 6, 9}));
}

TEST(CellRunner, CancellationKeepsCompleteRowsOnly) {
  RecordingContext context(2);  // cancelled once two partial tables are out
  RunStatus status;
  const Table table = runGrid(context, &status);
  EXPECT_EQ(status, RunStatus::Cancelled);
  EXPECT_EQ(table.rowCount(), 2u);
  for (const Column& column : table.columns)
    EXPECT_EQ(column.values.size(), 2u);
}

TEST(CellRunner, TablesAreBuiltThroughHandles) {
  Table table;
  const ColumnHandle x = table.addColumn("x", "x");
  const BandColumns band = addBandSeries(table, "pos", "PosRF", {" mean", " std", " low", " high"},
                                         "pos", SeriesStyle::Points);
  table.append(x, 1.0);
  band.append(table, 2, 0.5, 1.5, 2.5);
  ASSERT_NE(table.column("pos-high"), nullptr);
  EXPECT_EQ(table[band.high].values, std::vector<double>{2.5});
  EXPECT_EQ(table.column("pos-std")->label, "PosRF std");
  EXPECT_EQ(table.hints.series[band.series].lowColumn, "pos-low");
  EXPECT_EQ(table.rowCount(), 1u);
}

}  // namespace
}  // namespace rfscope
