#include "core/experiments/cell_runner.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <stdexcept>

namespace rfscope {
namespace {

// Prepares, computes and commits rows [first, last); false if cancelled before the commit.
bool runChunk(RunContext& context, const CellGrid& grid, const CellWork& work, std::size_t first,
              std::size_t last) {
  if (work.prepareRow) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(first, last), [&](const auto& rows) {
      for (std::size_t row = rows.begin(); row != rows.end(); ++row)
        work.prepareRow(row);
    });
    if (context.cancelled()) return false;
  }
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(first * grid.cellsPerRow, last * grid.cellsPerRow, 1),
      [&](const auto& cells) {
        if (context.cancelled()) return;
        work.computeCells(cells.begin(), cells.end());
      });
  if (context.cancelled()) return false;  // the chunk may be incomplete
  work.commitRows(first, last);
  return true;
}

// What commitRows appended to the columns and added to the tallies since the snapshot was taken.
struct CommitSnapshot {
  std::vector<std::size_t> columnSizes;
  std::vector<std::int64_t> tallies;

  CommitSnapshot(const GridRows& rows, const std::vector<std::int64_t>* talliesNow) {
    for (const std::vector<double>* column : rows.columns)
      columnSizes.push_back(column->size());
    if (talliesNow) tallies = *talliesNow;
  }

  ChunkRows appended(const GridRows& rows, const std::vector<std::int64_t>* talliesNow) const {
    ChunkRows chunk;
    for (std::size_t c = 0; c < rows.columns.size(); ++c) {
      const auto& values = *rows.columns[c];
      chunk.columns.emplace_back(values.begin() + static_cast<std::ptrdiff_t>(columnSizes[c]),
                                 values.end());
    }
    if (talliesNow)
      for (std::size_t i = 0; i < talliesNow->size(); ++i)
        chunk.tallies.push_back((*talliesNow)[i] - tallies[i]);
    return chunk;
  }
};

void commitReceived(const ChunkRows& chunk, const GridRows& rows,
                    std::vector<std::int64_t>* tallies) {
  if (chunk.columns.size() != rows.columns.size() ||
      chunk.tallies.size() != (tallies ? tallies->size() : 0))
    throw std::runtime_error("rows from another process do not fit this table");
  for (std::size_t c = 0; c < chunk.columns.size(); ++c)
    rows.columns[c]->insert(rows.columns[c]->end(), chunk.columns[c].begin(),
                            chunk.columns[c].end());
  for (std::size_t i = 0; i < chunk.tallies.size(); ++i)
    (*tallies)[i] += chunk.tallies[i];
}

}  // namespace

RunStatus runCellGrid(RunContext& context, const CellGrid& grid, const CellWork& work,
                      const GridRows& rows) {
  const std::size_t chunk = std::max<std::size_t>(1, grid.rowsPerChunk);
  RowDistribution* distribution = grid.distributable ? context.rowDistribution() : nullptr;
  const int size = distribution ? distribution->size() : 1;
  const int rank = distribution ? distribution->rank() : 0;
  for (std::size_t first = 0, index = 0; first < grid.rows; first += chunk, ++index) {
    if (context.cancelled()) return RunStatus::Cancelled;
    const std::size_t last = std::min(grid.rows, first + chunk);
    const int owner = static_cast<int>(index % static_cast<std::size_t>(size));
    if (owner == rank) {
      const CommitSnapshot before(rows, work.tallies);
      if (!runChunk(context, grid, work, first, last)) return RunStatus::Cancelled;
      if (rank != 0) distribution->sendRows(index, before.appended(rows, work.tallies));
    } else if (rank == 0) {
      commitReceived(distribution->receiveRows(index, owner), rows, work.tallies);
    }
    if (rank != 0) continue;  // only rank 0 reports
    context.reportProgress(static_cast<double>(last) / static_cast<double>(grid.rows));
    if (last < grid.rows && rows.publishPartial) rows.publishPartial();
  }
  return RunStatus::Completed;
}

RunStatus runCellGrid(RunContext& context, const CellGrid& grid, const CellWork& work,
                      Table& table) {
  GridRows rows;  // commitRows only appends to the columns there are (cell_runner.h)
  for (Column& column : table.columns)
    rows.columns.push_back(&column.values);
  rows.publishPartial = [&] { context.publishPartial(table); };
  return runCellGrid(context, grid, work, rows);
}

bool parallelCells(RunContext& context, std::size_t count,
                   const std::function<void(std::size_t)>& body) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, count), [&](const auto& range) {
    if (context.cancelled()) return;
    for (std::size_t i = range.begin(); i != range.end(); ++i)
      body(i);
  });
  return !context.cancelled();
}

}  // namespace rfscope
