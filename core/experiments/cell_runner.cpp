#include "core/experiments/cell_runner.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>

namespace rfscope {

RunStatus runCellGrid(RunContext& context, const CellGrid& grid, const CellWork& work,
                      const Table& table) {
  const std::size_t chunk = std::max<std::size_t>(1, grid.rowsPerChunk);
  for (std::size_t first = 0; first < grid.rows; first += chunk) {
    if (context.cancelled()) return RunStatus::Cancelled;
    const std::size_t last = std::min(grid.rows, first + chunk);
    if (work.prepareRow) {
      tbb::parallel_for(tbb::blocked_range<std::size_t>(first, last), [&](const auto& rows) {
        for (std::size_t row = rows.begin(); row != rows.end(); ++row)
          work.prepareRow(row);
      });
      if (context.cancelled()) return RunStatus::Cancelled;
    }
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(first * grid.cellsPerRow, last * grid.cellsPerRow, 1),
        [&](const auto& cells) {
          if (context.cancelled()) return;
          work.computeCells(cells.begin(), cells.end());
        });
    if (context.cancelled()) return RunStatus::Cancelled;  // the chunk may be incomplete
    work.commitRows(first, last);
    context.reportProgress(static_cast<double>(last) / static_cast<double>(grid.rows));
    if (last < grid.rows) context.publishPartial(table);
  }
  return RunStatus::Completed;
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
