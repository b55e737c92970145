#include "app/cli/process_group.h"

#include <stdexcept>
#include <string>

#include "core/params/invalid_parameter.h"

namespace rfscope::cli {
namespace {

// Rank 0's backend in a group of one: the local backend, with the note of its choice.
class NotedBackend final : public MonteCarloBackend {
 public:
  NotedBackend(std::unique_ptr<MonteCarloBackend> local, std::string note)
      : local_(std::move(local)), note_(std::move(note)) {}
  std::string_view id() const override { return local_->id(); }
  std::string description() const override { return local_->description(); }
  std::string selectionNote() const override { return note_; }
  int concurrency() const override { return local_->concurrency(); }
  std::int64_t maxLeavesPerCall() const override { return local_->maxLeavesPerCall(); }
  bool computesOffHost() const override { return local_->computesOffHost(); }
  Status supports(const SamplingPlan& plan) const override { return local_->supports(plan); }
  void runLeaves(const SamplingPlan& plan, const LeafRange& range, std::span<LeafResult> out,
                 const std::function<bool()>& stop) override {
    local_->runLeaves(plan, range, out, stop);
  }

 private:
  std::unique_ptr<MonteCarloBackend> local_;
  std::string note_;
};

const ProcessGroup* current = nullptr;

}  // namespace

std::unique_ptr<MonteCarloBackend> ProcessGroup::monteCarloBackend(
    std::unique_ptr<MonteCarloBackend> local, std::string note) const {
  return std::make_unique<NotedBackend>(std::move(local), std::move(note));
}

void ProcessGroup::agreeOnWork(const std::string& settings) const {
  std::uint64_t hash = 14695981039346656037ULL;  // FNV-1a: the same on every rank and build
  for (const unsigned char c : settings)
    hash = (hash ^ c) * 1099511628211ULL;
  std::exception_ptr failure;
  if (rootValue(hash) != hash)
    failure = std::make_exception_ptr(InvalidParameter(
        "rank", "rank " + std::to_string(rank()) +
                    " was started with other settings than rank 0: every rank of the job must "
                    "run the same command (same experiment, parameters and data)"));
  agree(failure);
}

void ProcessGroup::serveLeaves(MonteCarloBackend&, const SamplingPlan&) const {
  throw std::logic_error("serveLeaves: a group of one has no other ranks");
}

const ProcessGroup& processGroup() {
  static const ProcessGroup alone;
  return current ? *current : alone;
}

namespace detail {
void setCurrentProcessGroup(const ProcessGroup* group) {
  current = group;
}
}  // namespace detail

}  // namespace rfscope::cli
