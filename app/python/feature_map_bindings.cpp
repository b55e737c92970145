// Feature maps: one draw of a mechanism's randomness (Philox stream `trial` under `seed`, as the
// Monte Carlo engine's trial of that number draws it) applied to NumPy data.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>

#include <pybind11/complex.h>
#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "app/cli/cli_arguments.h"
#include "app/cli/estimator_arguments.h"
#include "app/python/bindings.h"
#include "app/python/interruptible.h"
#include "app/python/numpy_input.h"
#include "core/couplings/coupling.h"
#include "core/io/json_export.h"
#include "core/mechanisms/data_driven_parameters.h"
#include "core/mechanisms/feature_map_recipe.h"
#include "core/mechanisms/mechanism.h"
#include "core/random/trial_stream.h"

namespace py = pybind11;

namespace rfscope::python {
namespace {

constexpr int kMaxBlockDimension = 4096;        // a 4096 × 4096 block: 128 MiB
constexpr Eigen::Index kStatisticsRows = 2000;  // rows of X the data-driven parameters average
constexpr Eigen::Index kRowsPerBlock = 1024;    // rows mapped between two looks at Ctrl-C
constexpr Eigen::Index kTileRows = 512;         // query and key rows of a tile of kernel()

class PyFeatureMap {
 public:
  PyFeatureMap(const std::vector<std::string>& arguments, int d, std::uint64_t seed,
               std::uint64_t trial, std::optional<DoubleArray> xArray,
               std::optional<DoubleArray> yArray, std::optional<DoubleArray> dataArray,
               std::optional<std::vector<double>> shift) {
    const EstimatorSpec estimator = estimatorFromArguments(arguments);
    if (d < 1) throw cli::UsageError("d: the dimension must be at least 1");
    if (d > 100000) throw cli::UsageError("d: at most 100000");
    // Orthogonal, simplex and structured blocks are drawn as d × d matrices (8 d² bytes each).
    if (estimator.coupling != Coupling::Iid && !isQuasiMonteCarlo(estimator.coupling) &&
        d > kMaxBlockDimension)
      throw cli::UsageError("d: " + couplingId(estimator.coupling) +
                            " draws d × d blocks: at most " + std::to_string(kMaxBlockDimension) +
                            " dimensions (iid: 100000)");
    if (const std::string problem =
            cli::mechanismDimensionProblem(*estimator.mechanism, static_cast<std::size_t>(d));
        !problem.empty())
      throw cli::UsageError("d: " + problem);
    // Automatic parameters (OPRF's A*, λ*, p*, GERF's optimum) are resolved at the pair (x, y),
    // by default the origin.
    Eigen::VectorXd x = Eigen::VectorXd::Zero(d), y = Eigen::VectorXd::Zero(d);
    if (xArray) {
      const auto points = pointsOf(*xArray);
      checkPoints("x", points);
      x = points.row(0).transpose();
    }
    if (yArray) {
      const auto points = pointsOf(*yArray);
      checkPoints("y", points);
      y = points.row(0).transpose();
    }
    if (x.size() != d || y.size() != d)
      throw cli::UsageError("x and y must have d = " + std::to_string(d) + " entries");
    spec_.kernel = estimator.kernel;
    spec_.coupling = estimator.coupling;
    spec_.features = estimator.features;
    spec_.dimension = d;
    if (dataArray) {
      // Fitted to a data set: the parameters every pair of it shares (CRT §3), from the
      // statistics of consecutive rows as the classifiers choose them; given ones take precedence.
      const auto data = pointsOf(*dataArray);
      checkPoints("X", data);
      if (data.cols() != d)
        throw cli::UsageError("X has " + std::to_string(data.cols()) +
                              " columns, not d = " + std::to_string(d));
      const Eigen::Index n = std::min<Eigen::Index>(data.rows(), kStatisticsRows);
      std::vector<Eigen::VectorXd> xs, ys;
      for (Eigen::Index i = 0; i < n; ++i) {
        xs.push_back(data.row(i).transpose());
        ys.push_back(data.row((i + 1) % n).transpose());
      }
      ParameterSet chosen;
      {
        py::gil_scoped_release release;
        chosen = dataDrivenParameters(*estimator.mechanism, xs, ys);
      }
      for (const auto& [key, value] : estimator.parameters.values())
        chosen.set(key, value);
      spec_.parameters = resolveParameters(*estimator.mechanism, PairInput(xs[0], ys[0]), chosen);
      if (spec_.parameters.contains("epsilon"))  // PoisRF+, GeomRF+: one shift, from X
        spec_.shift = positiveShift(data, data, spec_.parameters.real("epsilon"));
    } else {
      spec_.parameters =
          resolveParameters(*estimator.mechanism, PairInput(x, y), estimator.parameters);
      if (spec_.parameters.contains("epsilon"))  // PoisRF+, GeomRF+: one shift, from (x, y)
        spec_.shift = positiveShift(x.transpose(), y.transpose(), spec_.parameters.real("epsilon"));
    }
    if (shift && spec_.parameters.contains("epsilon")) {  // as a fitted map recorded it
      if (static_cast<int>(shift->size()) != d)
        throw cli::UsageError("shift must have d = " + std::to_string(d) + " entries");
      spec_.shift = Eigen::Map<const Eigen::VectorXd>(shift->data(), d);
    }
    TrialStream stream(seed, trial);
    auto map = estimator.mechanism->drawFeatureMap(spec_, stream);
    if (!map) throw NotAvailable("not available: " + map.reason());
    map_ = std::move(*map);
    mechanism_ = estimator.mechanism->info().id;
  }

  // values · exp(logScale) (±inf where the dtype cannot hold a feature), or (values, logScale),
  // as float64 or float32 (`single`: computed in single precision, feature_map.h).
  py::object features(const DoubleArray& array, bool keys, bool scaled, bool single) const {
    return single ? featureRows<float>(array, keys, scaled)
                  : featureRows<double>(array, keys, scaled);
  }

  Eigen::MatrixXd kernel(const DoubleArray& xArray, const DoubleArray& yArray) const {
    const FeatureMatrix queries = mapped(xArray, false);
    const FeatureMatrix keys = mapped(yArray, true);
    // By tiles of kTileRows query and key rows, interruptible like the features: a tile is at
    // most kTileRows² · width products (a fraction of a second for thousands of features).
    const Eigen::Index queryRows = queries.values.rows(), keyRows = keys.values.rows();
    Eigen::MatrixXd estimates(queryRows, keyRows);
    std::atomic<bool> cancel{false};
    runInterruptibly(
        [&] {
          for (Eigen::Index first = 0; first < queryRows && !cancel; first += kTileRows) {
            const Eigen::Index rows = std::min(kTileRows, queryRows - first);
            const FeatureMatrix block{queries.values.middleRows(first, rows),
                                      queries.logScale.segment(first, rows)};
            for (Eigen::Index key = 0; key < keyRows && !cancel; key += kTileRows) {
              const Eigen::Index columns = std::min(kTileRows, keyRows - key);
              const FeatureMatrix keyBlock{keys.values.middleRows(key, columns),
                                           keys.logScale.segment(key, columns)};
              estimates.block(first, key, rows, columns) = kernelEstimates(block, keyBlock);
            }
          }
        },
        cancel);
    return estimates;
  }

  int dimension() const { return map_->dimension(); }
  std::int64_t featureCount() const { return map_->features(); }
  Eigen::Index width() const { return map_->width(); }
  bool symmetric() const { return map_->symmetric(); }
  const std::string& mechanism() const { return mechanism_; }
  std::string parametersJson() const { return parameterSetToJson(spec_.parameters).dump(); }
  std::vector<double> shift() const { return {spec_.shift.begin(), spec_.shift.end()}; }

  // The drawn randomness and closed-form constants (feature_map_recipe.h) as NumPy arrays, or
  // None for maps without such a form; the PyTorch maps compute their features from it.
  py::object recipe() const {
    FeatureMapRecipe recipe;
    if (!map_->describe(recipe)) return py::none();
    py::dict out;
    out["kernel"] = std::string(kernelId(recipe.kernel));
    out["omega"] = py::cast(recipe.omega);
    switch (recipe.form) {
      case FeatureMapRecipe::Form::GeneralizedExponential:
        out["form"] = "exponential";
        out["a"] = recipe.a;
        out["s"] = recipe.s;
        out["antithetic"] = recipe.antithetic;
        break;
      case FeatureMapRecipe::Form::DenseExponential:
        out["form"] = "dense-exponential";
        out["a"] = py::cast(recipe.derf.a);
        out["t1"] = py::cast(recipe.derf.t1);
        out["t2"] = py::cast(recipe.derf.t2);
        break;
      case FeatureMapRecipe::Form::RandomPhase:
        out["form"] = "random-phase";
        out["phases"] = py::cast(recipe.phases);
        break;
    }
    return out;
  }

 private:
  Eigen::Map<const RowMajorMatrix> checkedPoints(const DoubleArray& array, bool keys) const {
    const auto points = pointsOf(array);
    const std::string name = keys ? "Y" : "X";
    checkPoints(name, points);
    if (points.cols() != map_->dimension())
      throw cli::UsageError(
          name + " has " + std::to_string(points.cols()) +
          " columns but the feature map has d = " + std::to_string(map_->dimension()));
    return points;
  }

  // The features straight into a new C-ordered NumPy array, by blocks of rows on a worker thread
  // (Ctrl-C stops between two blocks).
  template <class T>
  py::object featureRows(const DoubleArray& array, bool keys, bool scaled) const {
    const auto points = checkedPoints(array, keys);
    const Eigen::Index rows = points.rows(), width = map_->width();
    py::array_t<T> values({rows, width});
    Eigen::VectorXd logScale(rows);
    T* data = values.mutable_data();
    std::atomic<bool> cancel{false};
    runInterruptibly(
        [&] {
          for (Eigen::Index first = 0; first < rows && !cancel; first += kRowsPerBlock) {
            const Eigen::Index count = std::min(kRowsPerBlock, rows - first);
            const InputRows block(points.middleRows(first, count));
            const FeatureRows<T> out{data + first * width, width, logScale.data() + first, !scaled};
            if (keys)
              map_->keyRows(block, out);
            else
              map_->queryRows(block, out);
          }
        },
        cancel);
    if (scaled) return py::make_tuple(std::move(values), py::cast(logScale));
    return values;
  }

  FeatureMatrix mapped(const DoubleArray& array, bool keys) const {
    const auto points = checkedPoints(array, keys);
    // Blocks of rows on a worker thread: Ctrl-C stops a long transform between two blocks (the
    // features of a row do not depend on the other rows, so the blocks give the same numbers).
    FeatureMatrix out;
    out.values.resize(points.rows(), map_->width());
    out.logScale.resize(points.rows());
    std::atomic<bool> cancel{false};
    runInterruptibly(
        [&] {
          for (Eigen::Index first = 0; first < points.rows() && !cancel; first += kRowsPerBlock) {
            const Eigen::Index rows = std::min(kRowsPerBlock, points.rows() - first);
            const auto block = points.middleRows(first, rows);
            FeatureMatrix part = keys ? map_->keys(block) : map_->queries(block);
            out.values.middleRows(first, rows) = part.values;
            out.logScale.segment(first, rows) = part.logScale;
          }
        },
        cancel);
    return out;
  }

  FeatureMapSpec spec_;
  std::unique_ptr<FeatureMap> map_;
  std::string mechanism_;
};

}  // namespace

void bindFeatureMap(py::module_& module) {
  py::class_<PyFeatureMap>(module, "_FeatureMap")
      .def(py::init<const std::vector<std::string>&, int, std::uint64_t, std::uint64_t,
                    std::optional<DoubleArray>, std::optional<DoubleArray>,
                    std::optional<DoubleArray>, std::optional<std::vector<double>>>(),
           py::arg("arguments"), py::arg("d"), py::arg("seed"), py::arg("trial"), py::arg("x"),
           py::arg("y"), py::arg("data") = py::none(), py::arg("shift") = py::none())
      .def("features", &PyFeatureMap::features, py::arg("points"), py::arg("keys"),
           py::arg("scaled"), py::arg("single") = false)
      .def("kernel", &PyFeatureMap::kernel, py::arg("x"), py::arg("y"))
      .def_property_readonly("d", &PyFeatureMap::dimension)
      .def_property_readonly("m", &PyFeatureMap::featureCount)
      .def_property_readonly("width", &PyFeatureMap::width)
      .def_property_readonly("symmetric", &PyFeatureMap::symmetric)
      .def_property_readonly("mechanism", &PyFeatureMap::mechanism)
      .def("_parameters_json", &PyFeatureMap::parametersJson)
      .def_property_readonly("_shift", &PyFeatureMap::shift)
      .def("_recipe", &PyFeatureMap::recipe);
}

}  // namespace rfscope::python
