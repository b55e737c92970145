// joinProcessGroup in a build with MPI, and the group's set-up, agreement and abort.
#include "app/cli/mpi_process_group.h"

#include <cstdlib>
#include <stdexcept>

#include "core/params/invalid_parameter.h"

namespace rfscope::cli {
namespace {

// Whether an MPI launcher started this process: then MPI_Init joins its job. A plain start stays
// a group of one without initialising MPI (which can be slow, or fail, outside a launch).
bool launchedByMpi() {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(variable)) return true;
  return false;
}

// The exit status a failure leads to (main's rule: bad input 2, anything else 1).
int statusOf(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const InvalidParameter&) {
    return 2;
  } catch (const QuietExit& quiet) {
    return quiet.status;
  } catch (...) {
    return 1;
  }
}

}  // namespace

MpiProcessGroup::MpiProcessGroup(int& argc, char**& argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  serialized_ = provided >= MPI_THREAD_SERIALIZED;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  detail::setCurrentProcessGroup(this);
}

MpiProcessGroup::~MpiProcessGroup() {
  for (PendingSend& send : sends_)
    MPI_Wait(&send.request, MPI_STATUS_IGNORE);
  detail::setCurrentProcessGroup(nullptr);
  MPI_Finalize();
}

void MpiProcessGroup::agree(std::exception_ptr failure) const {
  const int mine = failure ? statusOf(failure) : 0;
  std::vector<int> statuses(static_cast<std::size_t>(size_));
  MPI_Allgather(&mine, 1, MPI_INT, statuses.data(), 1, MPI_INT, MPI_COMM_WORLD);
  int worst = 0;
  for (int status : statuses)
    worst = std::max(worst, status);
  if (worst == 0) return;
  settle();
  if (mine != 0 && (rank_ == 0 || statuses[0] == 0)) std::rethrow_exception(failure);
  throw QuietExit{worst};
}

std::uint64_t MpiProcessGroup::rootValue(std::uint64_t value) const {
  MPI_Bcast(&value, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  return value;
}

void MpiProcessGroup::abortJob(int status) const {
  if (size_ > 1) MPI_Abort(MPI_COMM_WORLD, status);
}

std::unique_ptr<ProcessGroup> joinProcessGroup(int& argc, char**& argv) {
  if (!launchedByMpi()) return std::make_unique<ProcessGroup>();
  return std::make_unique<MpiProcessGroup>(argc, argv);
}

}  // namespace rfscope::cli
