// joinProcessGroup in a build without MPI: always a group of one.
#include "app/cli/process_group.h"

namespace rfscope::cli {

std::unique_ptr<ProcessGroup> joinProcessGroup(int&, char**&) {
  return std::make_unique<ProcessGroup>();
}

}  // namespace rfscope::cli
