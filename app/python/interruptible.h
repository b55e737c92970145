#pragma once
// Running a computation with the GIL released, cancellable by Ctrl-C.
//
// Python handles SIGINT only in the main thread, between bytecodes: a C++ loop holding the GIL
// would ignore Ctrl-C until it ends. So the work runs on a worker thread without the GIL while the
// calling thread polls Python's signal handlers every 20 ms; a KeyboardInterrupt (or any exception
// a handler raises) sets `cancel`, which the work polls (the experiments' RunContext, the Monte
// Carlo engine's callbacks, the analytic loop), waits for the worker to stop and re-raises it.

#include <atomic>
#include <functional>

namespace rfscope::python {

// Runs work() to its end or to cancellation; rethrows its exception, or raises the signal
// handler's (pybind11::error_already_set). Call with the GIL held.
void runInterruptibly(const std::function<void()>& work, std::atomic<bool>& cancel);

}  // namespace rfscope::python
