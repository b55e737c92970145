#include "core/experiments/mse_ratio_vs_v.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/couplings/coupling.h"
#include "core/couplings/positive_conformity.h"
#include "core/experiments/cell_runner.h"
#include "core/experiments/common_parameters.h"
#include "core/experiments/experiment_support.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/montecarlo/monte_carlo_engine.h"

namespace rfscope {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

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

RunResult MseRatioVsV::runWith(const MseRatioVsVSettings& settings, RunContext& context) const {
  const int d = settings.dimension;
  const std::int64_t m = settings.features;
  const std::vector<Coupling>& couplings = settings.couplings;
  const std::vector<double>& grid = settings.grid;
  const std::vector<double>& mcV = settings.monteCarloV;

  RunResult result;
  Table& table = result.table;
  table.hints.title = "MSE of coupled positive features relative to IID, d = " + std::to_string(d) +
                      ", M = " + std::to_string(m);
  table.hints.xColumn = "v";
  table.hints.xLabel = "v = ‖x + y‖";
  table.hints.yLabel = "MSE / MSE IID";

  // Rows: the analytic grid merged with the Monte Carlo v's, with NaN where a row has no value of
  // that kind. Rows stay sorted by v; mcPoint[row] is the row's Monte Carlo point, or -1.
  std::vector<double> rows;
  std::vector<std::ptrdiff_t> mcPoint;
  {
    std::size_t i = 0, j = 0;
    while (i < grid.size() || j < mcV.size()) {
      if (j < mcV.size() && (i == grid.size() || mcV[j] <= grid[i])) {
        mcPoint.push_back(static_cast<std::ptrdiff_t>(j));
        rows.push_back(mcV[j++]);
      } else {
        mcPoint.push_back(-1);
        rows.push_back(grid[i++]);
      }
    }
  }
  const ColumnHandle vColumn = table.addColumn("v", "v = ‖x + y‖");

  // The pair: x = y = (v/2) e₁, so ‖x - y‖ = 0 and K = 1 (the ratio does not depend on it).
  const auto logMseIid = [&](double v) {
    return coupledPositiveLogVariance(Coupling::Iid, d, m, 0, v * v);
  };
  struct AnalyticColumn {
    Coupling coupling;
    ColumnHandle ratio;
  };
  std::vector<AnalyticColumn> analytic;
  for (const Coupling coupling : couplings) {
    if (!hasPositiveClosedForms(coupling)) continue;
    const std::string& id = couplingId(coupling);
    analytic.push_back(
        {coupling, table.addColumn("ratio-" + id, couplingName(coupling) + " / IID (analytic)")});
    table.hints.series.push_back({couplingName(coupling) + " (analytic)", "ratio-" + id, "", "", id,
                                  SeriesStyle::Line, "", false});
  }
  // Monte Carlo columns (if any point has one): the ratio with its 95% interval.
  struct MonteCarloColumns {
    ColumnHandle ratio, low, high;
    std::size_t series;
  };
  std::vector<MonteCarloColumns> monteCarlo;
  if (!mcV.empty())
    for (const Coupling coupling : couplings) {
      const std::string& id = couplingId(coupling);
      const std::string& name = couplingName(coupling);
      monteCarlo.push_back({table.addColumn("mc-" + id, name + " / IID (Monte Carlo)"),
                            table.addColumn("mc-" + id + "-low", name + " 95% low"),
                            table.addColumn("mc-" + id + "-high", name + " 95% high"),
                            table.hints.series.size()});
      table.hints.series.push_back({name + " (Monte Carlo)", "mc-" + id, "mc-" + id + "-low",
                                    "mc-" + id + "-high", id, SeriesStyle::Points, "", false});
    }

  // One row per v; one cell per row runs its Monte Carlo points (each run is parallel itself),
  // coupling after coupling.
  MonteCarloRequest base;
  base.mechanism = findMechanism("pos");
  base.features = m;
  base.trials = settings.trials;
  base.storedSamples = 0;
  base.histogramBins = 0;
  std::vector<std::vector<Outcome<MonteCarloResult>>> runs(rows.size());
  CellWork work;
  work.computeCells = [&](std::size_t begin, std::size_t end) {
    for (std::size_t row = begin; row != end; ++row) {
      if (mcPoint[row] < 0) continue;
      const auto p = static_cast<std::size_t>(mcPoint[row]);
      MonteCarloRequest request = base;
      request.x = Eigen::VectorXd::Zero(d);
      request.x[0] = rows[row] / 2;
      request.y = request.x;
      for (std::size_t c = 0; c < couplings.size(); ++c) {
        request.coupling = couplings[c];
        request.seed = deriveSeed(settings.seed, p, c);
        runs[row].push_back(runMonteCarloFor(request, context));
        if (context.cancelled()) return;
      }
    }
  };
  std::size_t heavy = 0;
  work.commitRows = [&](std::size_t first, std::size_t last) {
    for (std::size_t row = first; row < last; ++row) {
      const double v = rows[row];
      const bool isMcRow = mcPoint[row] >= 0;
      table.append(vColumn, v);
      const double logIid = logMseIid(v);
      for (const AnalyticColumn& column : analytic)
        table.append(
            column.ratio,
            isMcRow
                ? kNaN
                : std::exp(coupledPositiveLogVariance(column.coupling, d, m, 0, v * v) - logIid));
      for (std::size_t c = 0; c < monteCarlo.size(); ++c) {
        const MonteCarloColumns& columns = monteCarlo[c];
        double ratio = kNaN, low = kNaN, high = kNaN;
        if (isMcRow) {
          const Outcome<MonteCarloResult>& mc = runs[row][c];
          if (!mc) {
            result.warnings.push_back(couplingId(couplings[c]) + ": " + mc.reason());
          } else {
            ratio = std::exp(mc->logVariance - logIid);
            low = std::exp(mc->logCi95Low - logIid);
            high = std::exp(mc->logCi95High - logIid);
            if (mc->heavyTail) {
              ++heavy;
              table.hints.series[columns.series].warning =
                  "heavy tails: the Monte Carlo variance may not have converged";
            }
          }
        }
        table.append(columns.ratio, ratio);
        table.append(columns.low, low);
        table.append(columns.high, high);
      }
      runs[row].clear();
    }
  };
  CellGrid cells;
  cells.rows = rows.size();
  // Rows without Monte Carlo are instant: a chunk holds about one Monte Carlo point.
  cells.rowsPerChunk =
      std::max<std::size_t>(1, rows.size() / std::max<std::size_t>(1, mcV.size() + 1));
  result.status = runCellGrid(context, cells, work, table);
  if (result.status == RunStatus::Cancelled) return result;
  if (heavy > 0)
    result.warnings.push_back(std::to_string(heavy) +
                              " Monte Carlo points showed heavy tails; their error bars understate "
                              "the uncertainty");
  return result;
}

}  // namespace rfscope
