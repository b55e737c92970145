#pragma once
// Temporary files that must not outlive an interrupted process. An atomic write registers its
// temporary before creating it; if SIGINT, SIGTERM or SIGHUP ends the process meanwhile, the
// handler installed by removeTemporariesOnTerminationSignals() deletes every registered temporary
// (unlink is async-signal-safe) and re-raises the signal, so the exit status still says "killed by
// signal". Without the handler the registry does nothing.

#include <string>

namespace rfscope {

// Installs the handler for SIGINT, SIGTERM and SIGHUP, except where the process ignores or already
// handles the signal. Called once by each executable.
void removeTemporariesOnTerminationSignals();

// Registers a path for removal on a termination signal while this object lives. Registration is
// best effort: with more than a few dozen writes at once, or a path over PATH_MAX, a temporary
// goes unregistered (and could then be left behind by a signal).
class RegisteredTemporary {
 public:
  explicit RegisteredTemporary(const std::string& path);
  ~RegisteredTemporary();
  RegisteredTemporary(const RegisteredTemporary&) = delete;
  RegisteredTemporary& operator=(const RegisteredTemporary&) = delete;

 private:
  int slot_ = -1;
};

}  // namespace rfscope
