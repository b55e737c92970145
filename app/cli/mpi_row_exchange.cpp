// An experiment's grid over the ranks of an MPI job (see RowDistribution): the other ranks send
// the rows of their chunks to rank 0 as soon as they are committed, without waiting for it.
#include <mpi.h>

#include <stdexcept>

#include "app/cli/mpi_byte_buffer.h"
#include "app/cli/mpi_process_group.h"

namespace rfscope::cli {

void MpiProcessGroup::sendRows(std::size_t chunk, const ChunkRows& rows) {
  ByteWriter out;
  out.put<std::uint64_t>(chunk);
  out.put<std::uint64_t>(rows.columns.size());
  for (const auto& column : rows.columns)
    out.putVector(column);
  out.putVector(rows.tallies);
  PendingSend& send = sends_.emplace_back();
  send.bytes = std::move(out.bytes());
  MPI_Isend(send.bytes.data(), static_cast<int>(send.bytes.size()), MPI_BYTE, 0, kRowsTag,
            MPI_COMM_WORLD, &send.request);
}

ChunkRows MpiProcessGroup::receiveRows(std::size_t chunk, int owner) {
  MPI_Status status;
  MPI_Probe(owner, kRowsTag, MPI_COMM_WORLD, &status);
  int size = 0;
  MPI_Get_count(&status, MPI_BYTE, &size);
  std::vector<char> bytes(static_cast<std::size_t>(size));
  MPI_Recv(bytes.data(), size, MPI_BYTE, owner, kRowsTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  ByteReader in(bytes);
  // Each rank sends its chunks in order and MPI keeps that order: another chunk is a bug.
  if (in.get<std::uint64_t>() != chunk)
    throw std::runtime_error("rank " + std::to_string(owner) + " sent the rows of another chunk");
  ChunkRows rows;
  rows.columns.resize(in.get<std::uint64_t>());
  for (auto& column : rows.columns)
    column = in.getVector<double>();
  rows.tallies = in.getVector<std::int64_t>();
  return rows;
}

}  // namespace rfscope::cli
