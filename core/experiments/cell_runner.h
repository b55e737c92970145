#pragma once
// The one loop every experiment runs: a grid of table rows (σ values, feature counts, angles…),
// each of independent cells (pairs, repetitions, estimators), computed in parallel with oneTBB,
// stopped promptly on cancellation, with progress and partial tables after every chunk of rows.
//
//   rows:     0 .. rows-1, committed to the table in order;
//   cells:    row r owns cells r·cellsPerRow .. (r+1)·cellsPerRow - 1;
//   chunks:   rowsPerChunk rows at a time: prepare their rows (in parallel), compute their cells
//             (in parallel), then commit them (in order, on the calling thread), report progress
//             and publish a partial table unless they were the last.
//
// Deterministic for any thread count: a cell's numbers must depend only on the cell (seeds
// derived from its indices, never from thread or order), and rows are committed in order. A
// cancelled run stops after the chunk in progress, whose rows it drops: the table holds complete
// rows only. oneTBB stays in the .cpp.
//
// Distributed (the context has a RowDistribution of several processes, and the grid says it may
// be): chunk c runs on process c mod size; process 0 commits the others' rows from what their
// commitRows appended to the table and added to the tallies, in chunk order — the same table and
// tallies as one process. A grid may be distributed only if commitRows records everything it
// learns in the table's columns or in the tallies (warnings are derived from the tallies after
// the grid), and prepareRow feeds only its own row's cells.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/experiments/experiment.h"

namespace rfscope {

struct CellGrid {
  std::size_t rows = 0;
  std::size_t cellsPerRow = 1;
  std::size_t rowsPerChunk = 1;
  bool distributable = false;  // see above: everything commitRows learns is in the table/tallies
};

struct CellWork {
  // Once per row before its cells (optional; called concurrently for the rows of a chunk).
  std::function<void(std::size_t row)> prepareRow;
  // Cells [begin, end) on one thread (called concurrently for disjoint ranges): a loop that
  // allocates its scratch once and returns early when context.cancelled().
  std::function<void(std::size_t begin, std::size_t end)> computeCells;
  // Rows [begin, end), complete, in order, on the calling thread: append them to the table's
  // columns (or the result's per-row vectors), never adding a column.
  std::function<void(std::size_t begin, std::size_t end)> commitRows;
  // Counts commitRows keeps beside the table (e.g. cells with heavy tails), summed over chunks.
  std::vector<std::int64_t>* tallies = nullptr;
};

// Where commitRows appends a typed result's rows: every per-row vector of the result, in a fixed
// order (a distributed grid carries another process's rows as these numbers), and how a partial
// result is published after a chunk.
struct GridRows {
  std::vector<std::vector<double>*> columns;
  std::function<void()> publishPartial;
};

// Runs the grid. Completed or Cancelled.
RunStatus runCellGrid(RunContext& context, const CellGrid& grid, const CellWork& work,
                      const GridRows& rows);
// The same, committing into a table's columns and publishing the table as it grows.
RunStatus runCellGrid(RunContext& context, const CellGrid& grid, const CellWork& work,
                      Table& table);

// body(i) for i in [0, count) in parallel, for preparation outside a grid (e.g. drawing the data);
// false if the context was cancelled (then some i were skipped).
bool parallelCells(RunContext& context, std::size_t count,
                   const std::function<void(std::size_t)>& body);

}  // namespace rfscope
