// Monte Carlo leaves over the ranks of an MPI job. Rank 0 runs the engine on a backend whose every
// call (a round of leaves) is split into one contiguous share per rank: it broadcasts the round,
// computes its own share, and collects the others' leaf results. The engine merges them in leaf
// order as always, so the result is the one process's, bit for bit.
#include <mpi.h>

#include <algorithm>
#include <stdexcept>

#include "app/cli/mpi_byte_buffer.h"
#include "app/cli/mpi_process_group.h"

namespace rfscope::cli {
namespace {

// What rank 0 broadcasts before each round (count 0: the run is over).
struct RoundHeader {
  std::int64_t firstLeaf = 0;
  std::int64_t count = 0;
  std::int64_t totalTrials = 0;
  std::uint64_t selectionThreshold = 0;
};

// Leaves [begin, end) of a round of `count` leaves: rank r's contiguous share.
std::pair<std::int64_t, std::int64_t> share(std::int64_t count, int rank, int size) {
  return {count * rank / size, count * (rank + 1) / size};
}

void writeLeaves(ByteWriter& out, std::span<const LeafResult> leaves) {
  out.put<std::uint8_t>(1);
  out.put<std::uint64_t>(leaves.size());
  for (const LeafResult& leaf : leaves) {
    out.put(leaf.moments);
    out.put<std::uint8_t>(leaf.complete ? 1 : 0);
    out.putVector(leaf.samples);
  }
}

void readLeaves(const std::vector<char>& bytes, int from, std::span<LeafResult> leaves) {
  ByteReader in(bytes);
  if (in.get<std::uint8_t>() == 0)
    throw std::runtime_error("rank " + std::to_string(from) + ": " + in.getString());
  if (in.get<std::uint64_t>() != leaves.size())
    throw std::runtime_error("rank " + std::to_string(from) + " computed another share");
  for (LeafResult& leaf : leaves) {
    leaf.moments = in.get<MomentAccumulator>();
    leaf.complete = in.get<std::uint8_t>() != 0;
    leaf.samples = in.getVector<StoredSample>();
  }
}

std::vector<char> receiveFrom(int source, int tag) {
  MPI_Status status;
  MPI_Probe(source, tag, MPI_COMM_WORLD, &status);
  int size = 0;
  MPI_Get_count(&status, MPI_BYTE, &size);
  std::vector<char> bytes(static_cast<std::size_t>(size));
  MPI_Recv(bytes.data(), size, MPI_BYTE, source, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return bytes;
}

int totalConcurrency(const MonteCarloBackend& local) {
  const int mine = std::max(1, local.concurrency());
  int total = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

class MpiLeafBackend final : public MonteCarloBackend {
 public:
  MpiLeafBackend(std::unique_ptr<MonteCarloBackend> local, std::string note, int size, bool overlap)
      : local_(std::move(local)), note_(std::move(note)), size_(size), overlap_(overlap) {
    concurrency_ = totalConcurrency(*local_);
  }
  ~MpiLeafBackend() override {
    RoundHeader done;  // count 0: the other ranks stop serving
    MPI_Bcast(&done, sizeof done, MPI_BYTE, 0, MPI_COMM_WORLD);
  }

  // The local backend's id: the output names what computed the trials, as one process does.
  std::string_view id() const override { return local_->id(); }
  std::string description() const override {
    return local_->description() + " on each of " + std::to_string(size_) + " MPI ranks";
  }
  std::string selectionNote() const override { return note_; }
  int concurrency() const override { return concurrency_; }
  std::int64_t maxLeavesPerCall() const override { return local_->maxLeavesPerCall() * size_; }
  Status supports(const SamplingPlan& plan) const override { return local_->supports(plan); }
  // The other ranks compute off this host: the engine merges one round while they compute the
  // next, else rank 0's merge (every leaf, in order) would leave them idle.
  bool computesOffHost() const override { return overlap_; }

  void runLeaves(const SamplingPlan& plan, const LeafRange& range, std::span<LeafResult> out,
                 const std::function<bool()>& stop) override {
    RoundHeader header{range.firstLeaf, static_cast<std::int64_t>(out.size()), range.totalTrials,
                       range.selectionThreshold};
    MPI_Bcast(&header, sizeof header, MPI_BYTE, 0, MPI_COMM_WORLD);
    const auto [begin, end] = share(header.count, 0, size_);
    LeafRange mine = range;
    mine.firstLeaf = range.firstLeaf + begin;
    local_->runLeaves(plan, mine, out.subspan(begin, end - begin), stop);
    for (int rank = 1; rank < size_; ++rank) {
      const auto [first, last] = share(header.count, rank, size_);
      readLeaves(receiveFrom(rank, kLeavesTag), rank, out.subspan(first, last - first));
    }
  }

 private:
  std::unique_ptr<MonteCarloBackend> local_;
  std::string note_;
  int size_ = 1;
  bool overlap_ = false;
  int concurrency_ = 1;
};

}  // namespace

std::unique_ptr<MonteCarloBackend> MpiProcessGroup::monteCarloBackend(
    std::unique_ptr<MonteCarloBackend> local, std::string note) const {
  if (size_ == 1) return ProcessGroup::monteCarloBackend(std::move(local), std::move(note));
  return std::make_unique<MpiLeafBackend>(std::move(local), std::move(note), size_, serialized_);
}

void MpiProcessGroup::serveLeaves(MonteCarloBackend& local, const SamplingPlan& plan) const {
  totalConcurrency(local);
  std::vector<LeafResult> leaves;
  for (;;) {
    RoundHeader header;
    MPI_Bcast(&header, sizeof header, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (header.count == 0) return;
    const auto [begin, end] = share(header.count, rank_, size_);
    LeafRange range{header.firstLeaf + begin, header.totalTrials, header.selectionThreshold};
    leaves.assign(static_cast<std::size_t>(end - begin), LeafResult{});
    ByteWriter reply;
    try {
      local.runLeaves(plan, range, leaves, {});
      writeLeaves(reply, leaves);
    } catch (const std::exception& e) {  // a device failure: rank 0 fails the run with it
      reply = ByteWriter();
      reply.put<std::uint8_t>(0);
      reply.putString(e.what());
    }
    MPI_Send(reply.bytes().data(), static_cast<int>(reply.bytes().size()), MPI_BYTE, 0, kLeavesTag,
             MPI_COMM_WORLD);
  }
}

}  // namespace rfscope::cli
