#include "core/experiments/mse_ratio_vs_v.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/couplings/coupling.h"
#include "core/couplings/norm_coupled_variance.h"
#include "core/couplings/positive_conformity.h"
#include "core/experiments/cell_runner.h"
#include "core/experiments/common_parameters.h"
#include "core/experiments/experiment_support.h"
#include "core/math/log_math.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/montecarlo/monte_carlo_engine.h"

namespace rfscope {
namespace {

// Rows: the analytic grid merged with the Monte Carlo v's, sorted by v; mcPoint[row] is the row's
// Monte Carlo point, or -1.
struct MergedRows {
  std::vector<double> v;
  std::vector<std::ptrdiff_t> mcPoint;
};

MergedRows mergedRows(const MseRatioVsVSettings& settings) {
  const std::vector<double>& grid = settings.grid;
  const std::vector<double>& mcV = settings.monteCarloV;
  MergedRows rows;
  std::size_t i = 0, j = 0;
  while (i < grid.size() || j < mcV.size()) {
    if (j < mcV.size() && (i == grid.size() || mcV[j] <= grid[i])) {
      rows.mcPoint.push_back(static_cast<std::ptrdiff_t>(j));
      rows.v.push_back(mcV[j++]);
    } else {
      rows.mcPoint.push_back(-1);
      rows.v.push_back(grid[i++]);
    }
  }
  return rows;
}

// The couplings with a closed-form PosRF MSE: the RF-conformity ones and orf-norm-coupled.
bool hasClosedMse(Coupling coupling) {
  return hasPositiveClosedForms(coupling) || coupling == Coupling::OrthogonalNormCoupled;
}

// log MSE of the M-feature PosRF estimator at x = y, ‖x + y‖ = v.
double closedLogMse(Coupling coupling, int d, std::int64_t m, double v) {
  if (coupling == Coupling::OrthogonalNormCoupled)
    return normCoupledPositiveLogVariance(d, m, 0, v * v);
  return coupledPositiveLogVariance(coupling, d, m, 0, v * v);
}

// The couplings of a result, without rows.
std::vector<MseRatioCoupling> emptyCouplings(const MseRatioVsVSettings& settings) {
  std::vector<MseRatioCoupling> couplings;
  for (const Coupling coupling : settings.couplings) {
    MseRatioCoupling c;
    c.coupling = coupling;
    c.closedForm = hasClosedMse(coupling);
    couplings.push_back(c);
  }
  return couplings;
}

// The rows a result holds, in column order.
GridRows computedRows(const MseRatioVsVSettings& settings, MseRatioVsVResult& result) {
  GridRows rows;
  rows.columns.push_back(&result.v);
  for (MseRatioCoupling& c : result.couplings)
    if (c.closedForm) rows.columns.push_back(&c.analytic);
  if (!settings.monteCarloV.empty())
    for (MseRatioCoupling& c : result.couplings)
      for (std::vector<double>* column : {&c.monteCarlo, &c.low, &c.high})
        rows.columns.push_back(column);
  return rows;
}

// The Monte Carlo runs of one row's point, coupling after coupling (each run is parallel itself);
// stops early when cancelled.
void runPoint(const MseRatioVsVSettings& settings, double v, std::size_t point, RunContext& context,
              std::vector<Outcome<MonteCarloResult>>& runs) {
  MonteCarloRequest request;
  request.mechanism = findMechanism("pos");
  request.features = settings.features;
  request.trials = settings.trials;
  request.storedSamples = 0;
  request.histogramBins = 0;
  // The pair: x = y = (v/2) e₁, so ‖x - y‖ = 0 and K = 1 (the ratio does not depend on it).
  request.x = Eigen::VectorXd::Zero(settings.dimension);
  request.x[0] = v / 2;
  request.y = request.x;
  for (std::size_t c = 0; c < settings.couplings.size(); ++c) {
    request.coupling = settings.couplings[c];
    request.seed = deriveSeed(settings.seed, point, c);
    runs.push_back(runMonteCarloFor(request, context));
    if (context.cancelled()) return;
  }
}

// Appends one row: v, the closed forms' ratios (NaN on a Monte Carlo row) and the Monte Carlo
// ratios (NaN on an analytic row), each over the i.i.d. closed form at v.
void commitRow(const MseRatioVsVSettings& settings, double v, bool isMcRow,
               const std::vector<Outcome<MonteCarloResult>>& runs, MseRatioVsVResult& result) {
  const int d = settings.dimension;
  const std::int64_t m = settings.features;
  result.v.push_back(v);
  const double logIid = coupledPositiveLogVariance(Coupling::Iid, d, m, 0, v * v);
  for (MseRatioCoupling& c : result.couplings)
    if (c.closedForm)
      c.analytic.push_back(isMcRow ? kNaN : std::exp(closedLogMse(c.coupling, d, m, v) - logIid));
  if (settings.monteCarloV.empty()) return;
  for (std::size_t i = 0; i < result.couplings.size(); ++i) {
    MseRatioCoupling& c = result.couplings[i];
    double ratio = kNaN, low = kNaN, high = kNaN;
    if (isMcRow) {
      const Outcome<MonteCarloResult>& mc = runs[i];
      if (!mc) {
        result.failures.push_back(couplingId(c.coupling) + ": " + mc.reason());
      } else {
        ratio = std::exp(mc->logVariance - logIid);
        low = std::exp(mc->logCi95Low - logIid);
        high = std::exp(mc->logCi95High - logIid);
        if (mc->heavyTail) ++c.heavyPoints;
      }
    }
    c.monteCarlo.push_back(ratio);
    c.low.push_back(low);
    c.high.push_back(high);
  }
}

}  // namespace

const ExperimentInfo& MseRatioVsV::info() const {
  static const ExperimentInfo info{
      "mse-ratio-vs-v", "MSE ratio to IID vs v", "SimRF (Reid et al. 2023)",
      "SimRF Fig. 6: MSE of coupled positive features over the i.i.d. MSE against v = ‖x + y‖, "
      "closed forms with Monte Carlo points"};
  return info;
}

std::vector<ParameterSpec> MseRatioVsV::parameters() const {
  std::vector<ParameterSpec> specs{dimensionParameter(64)};
  specs.front().minimum = 2;  // the simplex needs d >= 2
  auto low = realParameter("v-min", "v from", 0.05, 1e-3, 20, "smallest v = ‖x + y‖");
  auto high = realParameter("v-max", "v to", 3, 1e-3, 20, "largest v = ‖x + y‖");
  auto steps =
      integerParameter("v-steps", "v steps", 100, 2, 2000, "points of the analytic curves");
  for (auto* spec : {&low, &high, &steps})
    spec->group = "Data";
  auto features = integerParameter("features", "Features M", 0, 0, 4096,
                                   "random features per estimate; 0: M = d (one full block)");
  std::vector<ParameterChoice> couplings;
  for (const auto& c : allCouplings())
    if (c.coupling != Coupling::Iid) couplings.push_back({c.id, c.name});
  auto chosen = multiChoiceParameter("couplings", "Couplings", couplings, {"orf", "simrf"},
                                     "couplings compared with IID (closed forms for orf, simrf)");
  features.group = chosen.group = "Estimator";
  auto points = integerParameter("mc-points", "MC points", 8, 0, 100,
                                 "v values with a Monte Carlo estimate (0: analytic only)");
  auto trials = integerParameter("trials", "Trials per point", 20000, 100, 100000000,
                                 "Monte Carlo estimates per point and coupling");
  auto mcHigh = realParameter("mc-v-max", "MC up to v", 1.5, 1e-3, 20,
                              "largest v with a Monte Carlo point: beyond about 2 the estimator "
                              "is so heavy-tailed that sampled variances fall far short");
  points.group = trials.group = mcHigh.group = "Sampling";
  specs.insert(specs.end(),
               {low, high, steps, features, chosen, points, mcHigh, trials, seedParameter()});
  return specs;
}

MseRatioVsVSettings MseRatioVsV::parse(const ParameterSet& params) const {
  MseRatioVsVSettings s;
  s.dimension = static_cast<int>(params.integer("d"));
  s.features = params.integer("features") > 0 ? params.integer("features") : s.dimension;
  for (const auto& id : params.choices("couplings"))
    s.couplings.push_back(parseCoupling(id, "couplings"));
  s.vMin = params.real("v-min");
  s.vMax = params.real("v-max");
  s.grid = valueGrid(s.vMin, s.vMax, params.integer("v-steps"), false);
  const std::int64_t points = params.integer("mc-points");
  const double mcTop = std::max(s.vMin, std::min(s.vMax, params.real("mc-v-max")));
  if (points > 0) s.monteCarloV = valueGrid(s.vMin, mcTop, points, false);
  s.trials = params.integer("trials");
  s.seed = static_cast<std::uint64_t>(params.integer("seed"));
  return s;
}

std::vector<ParameterError> MseRatioVsV::crossValidate(const ParameterSet& params) const {
  const MseRatioVsVSettings settings = parse(params);
  if (settings.vMin >= settings.vMax)
    return {{"v-max", "parameter 'v-max': must be larger than v-min"}};
  return {};
}

ParameterSet MseRatioVsV::testParameters(TestLoad load) const {
  if (load == TestLoad::Light)
    return defaultsWith({{"d", std::int64_t{8}},
                         {"v-steps", std::int64_t{10}},
                         {"mc-points", std::int64_t{3}},
                         {"trials", std::int64_t{2000}}});
  return defaultsWith({{"trials", std::int64_t{50000000}}});
}

Computed<MseRatioVsVResult> MseRatioVsV::compute(const MseRatioVsVSettings& settings,
                                                 ResultContext<MseRatioVsVResult>& context) const {
  Computed<MseRatioVsVResult> computed;
  MseRatioVsVResult& result = computed.result;
  result.couplings = emptyCouplings(settings);
  const MergedRows rows = mergedRows(settings);
  // One row per v; one cell per row runs its Monte Carlo point, if it has one.
  std::vector<std::vector<Outcome<MonteCarloResult>>> runs(rows.v.size());
  CellWork work;
  work.computeCells = [&](std::size_t begin, std::size_t end) {
    for (std::size_t row = begin; row != end; ++row) {
      if (rows.mcPoint[row] < 0) continue;
      runPoint(settings, rows.v[row], static_cast<std::size_t>(rows.mcPoint[row]), context,
               runs[row]);
      if (context.cancelled()) return;
    }
  };
  work.commitRows = [&](std::size_t first, std::size_t last) {
    for (std::size_t row = first; row < last; ++row) {
      commitRow(settings, rows.v[row], rows.mcPoint[row] >= 0, runs[row], result);
      runs[row].clear();
    }
  };
  GridRows gridRows = computedRows(settings, result);
  gridRows.publishPartial = [&] { context.publishPartialResult(result); };
  CellGrid cells;
  cells.rows = rows.v.size();
  // Rows without Monte Carlo are instant: a chunk holds about one Monte Carlo point.
  cells.rowsPerChunk = std::max<std::size_t>(
      1, rows.v.size() / std::max<std::size_t>(1, settings.monteCarloV.size() + 1));
  computed.status = runCellGrid(context, cells, work, gridRows);
  return computed;
}

Presentation MseRatioVsV::present(const MseRatioVsVSettings& settings,
                                  const MseRatioVsVResult& result) const {
  Presentation shown;
  Table& table = shown.table;
  table.hints.title = "MSE of coupled positive features relative to IID, d = " +
                      std::to_string(settings.dimension) +
                      ", M = " + std::to_string(settings.features);
  table.hints.xColumn = "v";
  table.hints.xLabel = "v = ‖x + y‖";
  table.hints.yLabel = "MSE / MSE IID";
  table.hints.xShortLabel = "v";
  table.addColumn("v", "v = ‖x + y‖", result.v);
  for (const MseRatioCoupling& c : result.couplings) {
    if (!c.closedForm) continue;
    const std::string& id = couplingId(c.coupling);
    const std::string& name = couplingName(c.coupling);
    table.addColumn("ratio-" + id, name + " / IID (analytic)", c.analytic);
    table.hints.series.push_back(
        {name + " (analytic)", "ratio-" + id, "", "", id, SeriesStyle::Line, "", false});
  }
  // Monte Carlo columns (if any point has one): the ratio with its 95% interval.
  std::size_t heavy = 0;
  if (!settings.monteCarloV.empty())
    for (const MseRatioCoupling& c : result.couplings) {
      const std::string& id = couplingId(c.coupling);
      const std::string& name = couplingName(c.coupling);
      table.addColumn("mc-" + id, name + " / IID (Monte Carlo)", c.monteCarlo);
      table.addColumn("mc-" + id + "-low", name + " 95% low", c.low);
      table.addColumn("mc-" + id + "-high", name + " 95% high", c.high);
      table.hints.series.push_back({name + " (Monte Carlo)", "mc-" + id, "mc-" + id + "-low",
                                    "mc-" + id + "-high", id, SeriesStyle::Points,
                                    c.heavyPoints > 0
                                        ? "heavy tails: the Monte Carlo variance may not have "
                                          "converged"
                                        : "",
                                    false});
      heavy += c.heavyPoints;
    }
  shown.warnings = result.failures;
  if (result.v.size() < settings.grid.size() + settings.monteCarloV.size()) return shown;
  if (heavy > 0)
    shown.warnings.push_back(std::to_string(heavy) +
                             " Monte Carlo points showed heavy tails; their error bars understate "
                             "the uncertainty");
  return shown;
}

}  // namespace rfscope
