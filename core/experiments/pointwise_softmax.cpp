#include "core/experiments/pointwise_softmax.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "core/analytic/analytic_variance.h"
#include "core/experiments/cell_runner.h"
#include "core/experiments/common_parameters.h"
#include "core/experiments/experiment_support.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/montecarlo/monte_carlo_engine.h"

namespace rfscope {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

const ExperimentInfo& PointwiseSoftmax::info() const {
  static const ExperimentInfo info{
      "pointwise-softmax", "Pointwise softmax estimates vs angle", "HRF (Choromanski et al. 2022)",
      "HRF Fig. 2: estimates of SM(x, y) for ‖x‖ = ‖y‖ = r against θ — true value, 5th–95th "
      "percentiles and relative error of TrigRF, FAVOR+ and the angular (or Gaussian) hybrid"};
  return info;
}

std::vector<ParameterSpec> PointwiseSoftmax::parameters() const {
  std::vector<ParameterSpec> specs{dimensionParameter(64)};
  specs.front().minimum = 2;
  auto r = realParameter("r", "Radius r", 1.0, 1e-3, 10, "‖x‖ = ‖y‖ = r");
  auto angles = integerParameter("theta-steps", "θ steps", 13, 2, 1000, "angles in [0, π]");
  r.group = angles.group = "Data";
  auto mechanisms = multiChoiceParameter("mechanisms", "Estimators",
                                         {{"trig", "TrigRF"},
                                          {"pos-hyp", "FAVOR+ (hyperbolic PosRF)"},
                                          {"hybrid-angular", "HRF (angular)"},
                                          {"hybrid-gaussian", "HRF (Gaussian)"}},
                                         {"trig", "pos-hyp", "hybrid-angular"},
                                         "estimators of the softmax kernel");
  auto m = integerParameter("features", "Features m", 128, 1, 100000,
                            "random features of TrigRF and FAVOR+");
  auto hm = integerParameter("hybrid-features", "Hybrid features", 64, 1, 100000,
                             "random features of each of the hybrid's two base estimators");
  auto n = integerParameter("n", "Hybrid n", 8, 1, 100000, "Gaussian τ's of the hybrid's λ̂");
  auto bandwidth =
      realParameter("bandwidth", "Gaussian hybrid b", 1.0, 1e-3, 1e3,
                    "bandwidth of the Gaussian hybrid's λ = 1 - exp(-‖x-y‖²/(2b²))", true);
  mechanisms.group = m.group = hm.group = n.group = bandwidth.group = "Estimator";
  auto trials = integerParameter("trials", "Estimates per θ", 10000, 64, 100000000,
                                 "softmax estimates per angle and estimator (the paper: 10000)");
  trials.group = "Sampling";
  specs.insert(specs.end(), {r, angles, mechanisms, m, hm, n, bandwidth, trials, seedParameter()});
  return specs;
}

PointwiseSoftmaxSettings PointwiseSoftmax::parse(const ParameterSet& params) const {
  PointwiseSoftmaxSettings s;
  s.dimension = static_cast<int>(params.integer("d"));
  s.r = params.real("r");
  s.seed = static_cast<std::uint64_t>(params.integer("seed"));
  s.trials = params.integer("trials");
  s.thetas = valueGrid(0, std::numbers::pi, params.integer("theta-steps"), false);
  // The hybrids are the estimators with a number n of τ's; the Gaussian one also takes a bandwidth.
  for (const auto& id : params.choices("mechanisms")) {
    PointwiseSoftmaxSettings::Estimator estimator;
    estimator.mechanism = findMechanism(id);
    const auto takes = [&](const char* key) {
      return findSpec(estimator.mechanism->parameters(), key) != nullptr;
    };
    const bool hybrid = takes("n");
    estimator.features = params.integer(hybrid ? "hybrid-features" : "features");
    if (hybrid) estimator.parameters.set("n", params.integer("n"));
    if (takes("bandwidth")) estimator.parameters.set("bandwidth", params.real("bandwidth"));
    s.estimators.push_back(std::move(estimator));
  }
  return s;
}

ParameterSet PointwiseSoftmax::testParameters(TestLoad load) const {
  if (load == TestLoad::Light)
    return defaultsWith({{"d", std::int64_t{8}},
                         {"theta-steps", std::int64_t{3}},
                         {"features", std::int64_t{32}},
                         {"hybrid-features", std::int64_t{16}},
                         {"trials", std::int64_t{1000}}});
  return defaultsWith({{"trials", std::int64_t{100000000}}});
}

RunResult PointwiseSoftmax::runWith(const PointwiseSoftmaxSettings& settings,
                                    RunContext& context) const {
  const int d = settings.dimension;
  const double r = settings.r;
  const std::vector<double>& thetas = settings.thetas;
  const auto& estimators = settings.estimators;

  RunResult result;
  Table& table = result.table;
  table.hints.title = "Pointwise estimation of SM(x, y), ‖x‖ = ‖y‖ = " + formatParameterValue(r) +
                      ", d = " + std::to_string(d);
  table.hints.xColumn = "theta";
  table.hints.xLabel = "angle θ between x and y";
  // Estimates on the left axis, relative errors (another scale) on the right one. Linear: the
  // exact errors fall to 0 (TrigRF at θ = 0, FAVOR+ at θ = π), which a log axis would stretch
  // over thirty decades.
  table.hints.yLabel = "SM(x, y): median estimate, 5th–95th percentile band";
  table.hints.y2Label = "relative error √MSE / SM: exact (lines), Monte Carlo (markers)";
  table.hints.y2Log = false;
  const std::size_t rows = thetas.size();
  const ColumnHandle thetaColumn = table.addColumn("theta", "θ");
  const ColumnHandle truthColumn = table.addColumn("sm", "true SM(x, y) = exp(r² cos θ)");
  table.hints.series.push_back(
      {"true SM(x, y)", "sm", "", "", "exact", SeriesStyle::LineAndPoints, "", false});
  struct EstimatorColumns {
    ColumnHandle median, q05, q95, errorMc, error;
    std::size_t mcSeries;  // the Monte Carlo error's series (for heavy-tail warnings)
  };
  std::vector<EstimatorColumns> columns;
  for (const auto& estimator : estimators) {
    const std::string& id = estimator.mechanism->info().id;
    const std::string& name = estimator.mechanism->info().name;
    EstimatorColumns c;
    c.median = table.addColumn(id + "-median", name + " median estimate");
    c.q05 = table.addColumn(id + "-q05", name + " 5th percentile");
    c.q95 = table.addColumn(id + "-q95", name + " 95th percentile");
    c.errorMc = table.addColumn(id + "-error-mc", name + " relative error (Monte Carlo)");
    c.error = table.addColumn(id + "-error", name + " relative error (exact)");
    table.hints.series.push_back({name + " median, 5–95%", id + "-median", id + "-q05", id + "-q95",
                                  id, SeriesStyle::LineAndPoints, "", false});
    table.hints.series.push_back(
        {name + " error", id + "-error", "", "", id, SeriesStyle::Line, "", true});
    c.mcSeries = table.hints.series.size();
    table.hints.series.push_back(
        {name + " error (MC)", id + "-error-mc", "", "", id, SeriesStyle::Points, "", true});
    columns.push_back(c);
  }

  // One row per θ; one cell per row: each estimator's exact relative error and Monte Carlo run
  // (itself parallel), estimator after estimator.
  struct Cell {
    double exactError;
    Outcome<MonteCarloResult> mc;
  };
  std::vector<std::vector<Cell>> cells(rows);
  CellWork work;
  work.computeCells = [&](std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k != end; ++k) {
      MonteCarloRequest request;
      request.kernel = Kernel::Softmax;
      request.trials = settings.trials;
      request.quantileLevels = {0.05, 0.5, 0.95};
      request.storedSamples = std::min<std::int64_t>(request.trials, 100000);
      request.histogramBins = 0;
      request.x = Eigen::VectorXd::Zero(d);
      request.y = Eigen::VectorXd::Zero(d);
      request.x[0] = r;
      request.y[0] = r * std::cos(thetas[k]);
      request.y[1] = r * std::sin(thetas[k]);
      for (std::size_t i = 0; i < estimators.size(); ++i) {
        request.mechanism = estimators[i].mechanism;
        request.features = estimators[i].features;
        request.parameters = estimators[i].parameters;
        const AnalyticAnswer answer = evaluateAnalytic(request, request.x, request.y);
        const double exactError =
            answer.variance ? std::exp(0.5 * answer.variance->logVariance - answer.logKernelValue)
                            : kNaN;
        request.seed = deriveSeed(settings.seed, k, i);
        cells[k].push_back({exactError, runMonteCarloFor(request, context)});
        if (context.cancelled()) return;
      }
    }
  };
  std::size_t heavy = 0;
  work.commitRows = [&](std::size_t first, std::size_t last) {
    for (std::size_t k = first; k < last; ++k) {
      table.append(thetaColumn, thetas[k]);
      table.append(truthColumn, std::exp(r * r * std::cos(thetas[k])));
      for (std::size_t i = 0; i < estimators.size(); ++i) {
        const Cell& cell = cells[k][i];
        const EstimatorColumns& c = columns[i];
        double median = kNaN, q05 = kNaN, q95 = kNaN, errorMc = kNaN;
        if (!cell.mc) {
          result.warnings.push_back(estimators[i].mechanism->info().id + ": " + cell.mc.reason());
        } else {
          median = cell.mc->quantiles[1].value.value();
          q05 = cell.mc->quantiles[0].value.value();
          q95 = cell.mc->quantiles[2].value.value();
          errorMc = std::exp(0.5 * cell.mc->logVariance - cell.mc->logKernelValue);
          if (cell.mc->heavyTail) {
            ++heavy;
            table.hints.series[c.mcSeries].warning = "heavy tails at some angles";
          }
        }
        table.append(c.median, median);
        table.append(c.q05, q05);
        table.append(c.q95, q95);
        table.append(c.errorMc, errorMc);
        table.append(c.error, cell.exactError);
      }
      cells[k].clear();
    }
  };
  CellGrid grid;
  grid.rows = rows;
  result.status = runCellGrid(context, grid, work, table);
  if (result.status == RunStatus::Cancelled) return result;
  if (heavy > 0)
    result.warnings.push_back(std::to_string(heavy) +
                              " (θ, estimator) runs showed heavy tails; their relative errors are "
                              "unreliable");
  return result;
}

}  // namespace rfscope
