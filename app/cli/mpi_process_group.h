#pragma once
// The ranks of an MPI launch as a ProcessGroup (builds with MPI only). MPI is called by one
// thread at a time (MPI_THREAD_SERIALIZED): rank 0's engine may run the next round of leaves
// (runLeaves, with its MPI calls) on a helper thread while it merges the last one on the main
// thread, which then makes no MPI call; the experiments' grids call MPI from the main thread.

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
  std::uint64_t rootValue(std::uint64_t value) const override;

 private:
  // RowDistribution (rank() and size() above serve both bases)
  void sendRows(std::size_t chunk, const ChunkRows& rows) override;
  ChunkRows receiveRows(std::size_t chunk, int owner) override;

  int rank_ = 0, size_ = 1;
  bool serialized_ = false;  // MPI_THREAD_SERIALIZED provided: rounds may overlap merging
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
