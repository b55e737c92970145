#include "app/python/interruptible.h"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace rfscope::python {

void runInterruptibly(const std::function<void()>& work, std::atomic<bool>& cancel) {
  std::exception_ptr failure;
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  bool interrupted = false;
  {
    py::gil_scoped_release release;
    std::thread worker([&] {
      try {
        work();
      } catch (...) {
        failure = std::current_exception();
      }
      std::lock_guard lock(mutex);
      done = true;
      finished.notify_all();
    });
    for (;;) {
      {
        std::unique_lock lock(mutex);
        if (finished.wait_for(lock, std::chrono::milliseconds(20), [&] { return done; })) break;
      }
      py::gil_scoped_acquire acquire;
      if (PyErr_CheckSignals() != 0) {  // the handler raised (KeyboardInterrupt): stop the work
        interrupted = true;
        cancel = true;
        break;
      }
    }
    worker.join();
  }
  if (interrupted) throw py::error_already_set();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace rfscope::python
