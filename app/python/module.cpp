// rfscope._core: RFScope's closed forms, Monte Carlo, feature maps and experiments for Python.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "app/cli/cli_arguments.h"
#include "app/cli/estimator_arguments.h"
#include "app/python/bindings.h"
#include "core/io/json_export.h"
#include "core/math/failure_text.h"

namespace py = pybind11;

namespace rfscope::python {

EstimatorSpec estimatorFromArguments(const std::vector<std::string>& arguments) {
  const cli::Arguments parsed(arguments, cli::estimatorValueOptions(), {});
  return cli::parseEstimatorSpec(parsed);
}

}  // namespace rfscope::python

PYBIND11_MODULE(_core, module) {
  using namespace rfscope::python;
  module.doc() = "RFScope's core (C++): use the package rfscope, which documents it.";
  module.attr("__version__") = RFSCOPE_VERSION;

  static py::exception<NotAvailable> notAvailable(module, "NotAvailableError", PyExc_RuntimeError);
  static py::exception<NoClosedForm> noClosedForm(module, "NoClosedFormError", notAvailable.ptr());
  // Bad input is a ValueError with the command line's message; other failures keep their text.
  py::register_exception_translator([](std::exception_ptr failure) {
    try {
      if (failure) std::rethrow_exception(failure);
    } catch (const NoClosedForm& e) {
      noClosedForm(e.what());
    } catch (const NotAvailable& e) {
      notAvailable(e.what());
    } catch (const rfscope::InvalidParameter& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });

  module.def(
      "_catalog", [] { return rfscope::catalogToJson().dump(); },
      "The catalogue `rfscope-cli list` prints, as JSON text.");
  bindAnalytic(module);
  bindMonteCarlo(module);
  bindFeatureMap(module);
  bindRun(module);
}
