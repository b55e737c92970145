#pragma once
// The ranks of an MPI launch as a ProcessGroup (builds with MPI only). MPI is called from the
// thread that runs main alone (MPI_THREAD_FUNNELED): the engine calls runLeaves there, and the
// experiments' grids send and receive between chunks, on that thread too.

#include <mpi.h>

#include <deque>
#include <vector>

#include "app/cli/process_group.h"

namespace rfscope::cli {

class MpiProcessGroup final : public ProcessGroup, private RowDistribution {
 public:
  MpiProcessGroup(int& argc, char**& argv);
  ~MpiProcessGroup() override;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void agree(std::exception_ptr failure) const override;
  std::unique_ptr<MonteCarloBackend> monteCarloBackend(std::unique_ptr<MonteCarloBackend> local,
                                                       std::string note) const override;
  void serveLeaves(MonteCarloBackend& local, const SamplingPlan& plan) const override;
  RowDistribution* rowDistribution() const override {
    return const_cast<MpiProcessGroup*>(this);  // sending keeps its buffers until delivered
  }
  void abortJob(int status) const override;

 private:
  // RowDistribution (rank() and size() above serve both bases)
  void sendRows(std::size_t chunk, const ChunkRows& rows) override;
  ChunkRows receiveRows(std::size_t chunk, int owner) override;

  int rank_ = 0, size_ = 1;
  struct PendingSend {
    std::vector<char> bytes;
    MPI_Request request = MPI_REQUEST_NULL;
  };
  std::deque<PendingSend> sends_;  // rows on their way to rank 0
};

// Message tags.
inline constexpr int kLeavesTag = 1;
inline constexpr int kRowsTag = 2;

}  // namespace rfscope::cli
