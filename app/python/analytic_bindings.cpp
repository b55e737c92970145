// Closed forms over arrays of pairs: the analytic command's values, pair by pair.
#include <atomic>
#include <cmath>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "app/cli/analytic_report.h"
#include "app/python/bindings.h"
#include "app/python/interruptible.h"
#include "app/python/numpy_input.h"

namespace py = pybind11;

namespace rfscope::python {
namespace {

double plain(double logValue) {
  return logValue == kNegativeInfinity ? 0.0 : std::exp(logValue);
}

// Columns: log variance, variance, log kernel value, kernel value, bias E K̂ - K (0 for unbiased
// estimators), log MSE (log(Var + bias²)), and with `conformity` also log conformity, conformity.
py::tuple analyticArrays(const std::vector<std::string>& arguments, const DoubleArray& xArray,
                         const DoubleArray& yArray, bool conformity) {
  const EstimatorSpec estimator = estimatorFromArguments(arguments);
  const auto xs = pointsOf(xArray);
  const auto ys = pointsOf(yArray);
  checkPoints("x", xs);
  checkPoints("y", ys);
  const py::ssize_t pairs = xs.rows();
  const int columnCount = conformity ? 8 : 6;
  std::vector<py::array_t<double>> columns;
  std::vector<double*> out;
  for (int c = 0; c < columnCount; ++c) {
    columns.emplace_back(pairs);
    out.push_back(columns.back().mutable_data());
  }
  std::atomic<bool> cancel{false};
  runInterruptibly(
      [&] {
        Eigen::VectorXd x(xs.cols()), y(ys.cols());
        for (py::ssize_t i = 0; i < pairs && !cancel; ++i) {
          x = xs.row(i).transpose();
          y = ys.row(i).transpose();
          const auto answer = cli::availableAnalytic(estimator, PairInput(x, y));
          const auto where = [&] { return pairs > 1 ? " (pair " + std::to_string(i) + ")" : ""; };
          if (!answer) throw NoClosedForm("not available: " + answer.reason() + where());
          const AnalyticVariance& variance = *answer->variance;
          out[0][i] = variance.logVariance;
          out[1][i] = plain(variance.logVariance);
          out[2][i] = answer->logKernelValue;
          out[3][i] = plain(answer->logKernelValue);
          out[4][i] = variance.logAbsBias ? variance.biasSign * plain(*variance.logAbsBias) : 0.0;
          out[5][i] = variance.logMeanSquaredError();
          if (conformity) {
            if (!variance.logConformity)
              throw NoClosedForm(
                  "not available: no closed-form RF-conformity for mechanism '" +
                  estimator.mechanism->info().id + "' under coupling '" +
                  couplingId(estimator.coupling) +
                  "' (the theory has one for positive features under iid, orf and simrf)" +
                  where());
            out[6][i] = *variance.logConformity;
            out[7][i] = plain(*variance.logConformity);
          }
        }
      },
      cancel);
  py::tuple result(columnCount);
  for (int c = 0; c < columnCount; ++c)
    result[c] = columns[c];
  return result;
}

}  // namespace

void bindAnalytic(py::module_& module) {
  module.def("_analytic", &analyticArrays, py::arg("arguments"), py::arg("x"), py::arg("y"),
             py::arg("conformity"),
             "Closed forms at the pairs (x[i], y[i]): (log_variance, variance, log_kernel_value, "
             "kernel_value, bias, log_mse[, log_conformity, conformity]).");
}

}  // namespace rfscope::python
