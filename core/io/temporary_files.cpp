#include "core/io/temporary_files.h"

#include <limits.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstring>

namespace rfscope {
namespace {

// A fixed table, so that the signal handler reads it without locks or allocation.
enum SlotState : int { kFree = 0, kFilling = 1, kRegistered = 2 };

struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};

std::array<Slot, 32> slots;

extern "C" void removeTemporariesAndReraise(int signal) {
  for (Slot& slot : slots)
    if (slot.state.load() == kRegistered) ::unlink(slot.path);
  // Default action now, so that the process ends as it would have without us.
  struct sigaction defaultAction {};
  defaultAction.sa_handler = SIG_DFL;
  sigemptyset(&defaultAction.sa_mask);
  ::sigaction(signal, &defaultAction, nullptr);
  ::raise(signal);
}

}  // namespace

void removeTemporariesOnTerminationSignals() {
  static_assert(std::atomic<int>::is_always_lock_free);
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction previous {};
    if (::sigaction(signal, nullptr, &previous) != 0) continue;
    const bool ours = previous.sa_handler == removeTemporariesAndReraise;
    if (ours || previous.sa_handler != SIG_DFL || (previous.sa_flags & SA_SIGINFO)) continue;
    struct sigaction action {};
    action.sa_handler = removeTemporariesAndReraise;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    ::sigaction(signal, &action, nullptr);
  }
}

RegisteredTemporary::RegisteredTemporary(const std::string& path) {
  if (path.size() >= PATH_MAX) return;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    int expected = kFree;
    if (!slots[i].state.compare_exchange_strong(expected, kFilling)) continue;
    std::memcpy(slots[i].path, path.c_str(), path.size() + 1);
    slots[i].state.store(kRegistered);
    slot_ = static_cast<int>(i);
    return;
  }
}

RegisteredTemporary::~RegisteredTemporary() {
  if (slot_ >= 0) slots[static_cast<std::size_t>(slot_)].state.store(kFree);
}

}  // namespace rfscope
