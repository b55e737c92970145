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
#include "core/math/log_math.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/montecarlo/monte_carlo_engine.h"

namespace rfscope {
namespace {}  // namespace

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

namespace {

// One θ and estimator: the exact relative error, and the Monte Carlo run.
struct PointwiseCell {
  double exactError;
  Outcome<MonteCarloResult> mc;
};

std::vector<PointwiseCell> runCells(const PointwiseSoftmaxSettings& settings, std::size_t k,
                                    RunContext& context) {
  const double r = settings.r;
  MonteCarloRequest request;
  request.kernel = Kernel::Softmax;
  request.trials = settings.trials;
  request.quantileLevels = {0.05, 0.5, 0.95};
  request.storedSamples = std::min<std::int64_t>(request.trials, 100000);
  request.histogramBins = 0;
  request.x = Eigen::VectorXd::Zero(settings.dimension);
  request.y = Eigen::VectorXd::Zero(settings.dimension);
  request.x[0] = r;
  request.y[0] = r * std::cos(settings.thetas[k]);
  request.y[1] = r * std::sin(settings.thetas[k]);
  std::vector<PointwiseCell> cells;
  for (std::size_t i = 0; i < settings.estimators.size(); ++i) {
    request.mechanism = settings.estimators[i].mechanism;
    request.features = settings.estimators[i].features;
    request.parameters = settings.estimators[i].parameters;
    const AnalyticAnswer answer = evaluateAnalytic(request, request.x, request.y);
    const double exactError =
        answer.variance ? std::exp(0.5 * answer.variance->logVariance - answer.logKernelValue)
                        : kNaN;
    request.seed = deriveSeed(settings.seed, k, i);
    cells.push_back({exactError, runMonteCarloFor(request, context)});
    if (context.cancelled()) break;
  }
  return cells;
}

void commitCell(const PointwiseCell& cell, std::size_t estimator, PointwiseSoftmaxResult& result) {
  double median = kNaN, q05 = kNaN, q95 = kNaN, errorMc = kNaN;
  bool heavy = false;
  if (!cell.mc) {
    result.failures.push_back({estimator, cell.mc.reason()});
  } else {
    median = cell.mc->quantiles[1].value.value();
    q05 = cell.mc->quantiles[0].value.value();
    q95 = cell.mc->quantiles[2].value.value();
    errorMc = std::exp(0.5 * cell.mc->logVariance - cell.mc->logKernelValue);
    heavy = cell.mc->heavyTail;
  }
  PointwiseEstimates& e = result.estimators[estimator];
  e.median.push_back(median);
  e.q05.push_back(q05);
  e.q95.push_back(q95);
  e.errorMc.push_back(errorMc);
  e.error.push_back(cell.exactError);
  e.heavyTail.push_back(heavy ? 1 : 0);
}

}  // namespace

Computed<PointwiseSoftmaxResult> PointwiseSoftmax::compute(
    const PointwiseSoftmaxSettings& settings,
    ResultContext<PointwiseSoftmaxResult>& context) const {
  Computed<PointwiseSoftmaxResult> computed;
  PointwiseSoftmaxResult& result = computed.result;
  result.estimators.resize(settings.estimators.size());
  // One row per θ; one cell per row: each estimator's exact relative error and Monte Carlo run
  // (itself parallel), estimator after estimator.
  std::vector<std::vector<PointwiseCell>> cells(settings.thetas.size());
  CellWork work;
  work.computeCells = [&](std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k != end && !context.cancelled(); ++k)
      cells[k] = runCells(settings, k, context);
  };
  work.commitRows = [&](std::size_t first, std::size_t last) {
    for (std::size_t k = first; k < last; ++k) {
      result.theta.push_back(settings.thetas[k]);
      result.truth.push_back(std::exp(settings.r * settings.r * std::cos(settings.thetas[k])));
      for (std::size_t i = 0; i < settings.estimators.size(); ++i)
        commitCell(cells[k][i], i, result);
      cells[k].clear();
    }
  };
  CellGrid grid;
  grid.rows = settings.thetas.size();
  computed.status =
      runCellGrid(context, grid, work, {{}, [&] { context.publishPartialResult(result); }});
  return computed;
}

Presentation PointwiseSoftmax::present(const PointwiseSoftmaxSettings& settings,
                                       const PointwiseSoftmaxResult& result) const {
  Presentation shown;
  Table& table = shown.table;
  table.hints.title =
      "Pointwise estimation of SM(x, y), ‖x‖ = ‖y‖ = " + formatParameterValue(settings.r) +
      ", d = " + std::to_string(settings.dimension);
  table.hints.xColumn = "theta";
  table.hints.xLabel = "angle θ between x and y";
  // Estimates on the left axis, relative errors (another scale) on the right one. Linear: the
  // exact errors fall to 0 (TrigRF at θ = 0, FAVOR+ at θ = π), which a log axis would stretch
  // over thirty decades.
  table.hints.yLabel = "SM(x, y): median estimate, 5th–95th percentile band";
  table.hints.y2Label = "relative error √MSE / SM: exact (lines), Monte Carlo (markers)";
  table.hints.y2Log = false;
  table.hints.xShortLabel = "θ";
  table.hints.yShortLabel = "SM(x, y)";
  table.hints.y2ShortLabel = "√MSE / SM";
  table.addColumn("theta", "θ", result.theta);
  table.addColumn("sm", "true SM(x, y) = exp(r² cos θ)", result.truth);
  // Names without their qualifier ("PosRF" for "PosRF (hyperbolic)") for the small legend of a
  // paper figure, where no other estimator shares them.
  const auto shortName = [&](const std::string& name) {
    const std::string base = name.substr(0, name.find(" ("));
    int sharing = 0;
    for (const auto& other : settings.estimators)
      sharing +=
          other.mechanism->info().name.substr(0, other.mechanism->info().name.find(" (")) == base;
    return sharing > 1 ? name : base;
  };
  std::size_t heavy = 0;
  for (std::size_t i = 0; i < settings.estimators.size(); ++i) {
    const std::string& id = settings.estimators[i].mechanism->info().id;
    const std::string& name = settings.estimators[i].mechanism->info().name;
    const PointwiseEstimates& e = result.estimators[i];
    table.addColumn(id + "-median", name + " median estimate", e.median);
    table.addColumn(id + "-q05", name + " 5th percentile", e.q05);
    table.addColumn(id + "-q95", name + " 95th percentile", e.q95);
    table.addColumn(id + "-error-mc", name + " relative error (Monte Carlo)", e.errorMc);
    table.addColumn(id + "-error", name + " relative error (exact)", e.error);
    // At paper sizes the legend reads as a table, a row per estimator: its name (the median),
    // then "error" and "MC" in its colour.
    table.hints.series.push_back({name + " median, 5–95%", id + "-median", id + "-q05", id + "-q95",
                                  id, SeriesStyle::LineAndPoints, "", false, shortName(name)});
    table.hints.series.push_back(
        {name + " error", id + "-error", "", "", id, SeriesStyle::Line, "", true, "error"});
    const std::size_t heavyHere =
        static_cast<std::size_t>(std::count(e.heavyTail.begin(), e.heavyTail.end(), 1.0));
    heavy += heavyHere;
    table.hints.series.push_back({name + " error (MC)", id + "-error-mc", "", "", id,
                                  SeriesStyle::Points,
                                  heavyHere > 0 ? "heavy tails at some angles" : "", true, "MC"});
  }
  // The true curve last, drawn over the medians that sit on it (TrigRF's hid it).
  table.hints.series.push_back(
      {"true SM(x, y)", "sm", "", "", "exact", SeriesStyle::LineAndPoints, "", false, "SM(x, y)"});
  for (const PointwiseSoftmaxResult::Failure& failure : result.failures)
    shown.warnings.push_back(settings.estimators[failure.estimator].mechanism->info().id + ": " +
                             failure.reason);
  if (heavy > 0 && result.theta.size() == settings.thetas.size())
    shown.warnings.push_back(std::to_string(heavy) +
                             " (θ, estimator) runs showed heavy tails; their relative errors are "
                             "unreliable");
  return shown;
}

}  // namespace rfscope
