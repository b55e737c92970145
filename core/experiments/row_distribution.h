#pragma once
// How an experiment's grid of rows is shared by the processes of one job (the ranks of an MPI
// launch): chunk c of a grid is computed by process c mod size, and process 0 receives the rows
// of the other processes' chunks and commits them in chunk order, so its table is the table a
// single process builds, bit for bit. The core knows only this interface; the transport (MPI)
// lives in the executable that launches the job.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rfscope {

// The rows of one chunk as computed on one process: what commitRows appended to each column, and
// how much it added to each of the grid's tallies.
struct ChunkRows {
  std::vector<std::vector<double>> columns;  // one per table column, in table order
  std::vector<std::int64_t> tallies;
};

class RowDistribution {
 public:
  virtual ~RowDistribution() = default;
  virtual int rank() const = 0;  // 0 .. size-1; rank 0 builds the result
  virtual int size() const = 0;
  // On a rank other than 0: hands the rows of `chunk` to rank 0 without waiting for it.
  virtual void sendRows(std::size_t chunk, const ChunkRows& rows) = 0;
  // On rank 0: the rows of `chunk`, computed by rank `owner` (waits for them). Throws
  // std::runtime_error when the owner failed.
  virtual ChunkRows receiveRows(std::size_t chunk, int owner) = 0;
};

}  // namespace rfscope
