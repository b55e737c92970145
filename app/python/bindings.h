#pragma once
// The parts of the extension module rfscope._core, one file each; the public API with its
// documentation and type hints is the Python package around it (rfscope/__init__.py, .pyi).

#include <stdexcept>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>

#include "core/mechanisms/estimator_spec.h"

namespace rfscope::python {

// No value: no closed form (or not at this input), or a combination the core does not sample.
// Raised in Python as rfscope.NoClosedFormError / rfscope.NotAvailableError.
struct NoClosedForm : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct NotAvailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The estimator of command-line style arguments ("--mechanism", "oprf", "--param", "A=0.1", ...;
// no --x/--y), parsed by the command line's own code: the same messages (InvalidParameter).
EstimatorSpec estimatorFromArguments(const std::vector<std::string>& arguments);

void bindAnalytic(pybind11::module_& module);
void bindMonteCarlo(pybind11::module_& module);
void bindFeatureMap(pybind11::module_& module);
void bindRun(pybind11::module_& module);

}  // namespace rfscope::python
