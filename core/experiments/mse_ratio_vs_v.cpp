#include "core/experiments/mse_ratio_vs_v.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/couplings/coupling.h"
#include "core/couplings/positive_conformity.h"
#include "core/experiments/common_parameters.h"
#include "core/experiments/experiment_support.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/montecarlo/monte_carlo_engine.h"

namespace rfscope {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::int64_t featureCount(const ParameterSet& params) {
  const std::int64_t m = params.integer("features");
  return m > 0 ? m : params.integer("d");
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

std::vector<ParameterError> MseRatioVsV::crossValidate(const ParameterSet& params) const {
  if (params.real("v-min") >= params.real("v-max"))
    return {{"v-max", "parameter 'v-max': must be larger than v-min"}};
  return {};
}

RunResult MseRatioVsV::run(const ParameterSet& params, RunContext& context) const {
  const int d = static_cast<int>(params.integer("d"));
  const std::int64_t m = featureCount(params);
  std::vector<Coupling> couplings;
  for (const auto& id : params.choices("couplings"))
    couplings.push_back(parseCoupling(id, "couplings"));
  const std::vector<double> grid =
      valueGrid(params.real("v-min"), params.real("v-max"), params.integer("v-steps"), false);
  const auto pointCount = static_cast<std::size_t>(params.integer("mc-points"));
  const auto seed = static_cast<std::uint64_t>(params.integer("seed"));

  RunResult result;
  Table& table = result.table;
  table.hints.title = "MSE of coupled positive features relative to IID, d = " + std::to_string(d) +
                      ", M = " + std::to_string(m);
  table.hints.xColumn = "v";
  table.hints.xLabel = "v = ‖x + y‖";
  table.hints.yLabel = "MSE / MSE IID";

  // Rows: the analytic grid merged with the Monte Carlo v's (evenly spread up to mc-v-max), with
  // NaN where a row has no value of that kind. Rows stay sorted by v.
  const double mcTop =
      std::max(params.real("v-min"), std::min(params.real("v-max"), params.real("mc-v-max")));
  const std::vector<double> mcV =
      pointCount > 0
          ? valueGrid(params.real("v-min"), mcTop, static_cast<std::int64_t>(pointCount), false)
          : std::vector<double>{};
  std::vector<double> rows;
  std::vector<std::ptrdiff_t> mcRow(mcV.size());
  {
    std::size_t i = 0, j = 0;
    while (i < grid.size() || j < mcV.size()) {
      if (j < mcV.size() && (i == grid.size() || mcV[j] <= grid[i])) {
        mcRow[j++] = static_cast<std::ptrdiff_t>(rows.size());
        rows.push_back(mcV[j - 1]);
      } else {
        rows.push_back(grid[i++]);
      }
    }
  }
  const std::size_t rowCount = rows.size();
  table.columns.push_back({"v", "v = ‖x + y‖", rows});

  // The pair: x = y = (v/2) e₁, so ‖x - y‖ = 0 and K = 1 (the ratio does not depend on it).
  const auto logMseIid = [&](double v) {
    return coupledPositiveLogVariance(Coupling::Iid, d, m, 0, v * v);
  };
  std::vector<bool> isMcRow(rowCount, false);
  for (auto r : mcRow)
    isMcRow[static_cast<std::size_t>(r)] = true;
  for (const Coupling coupling : couplings) {
    if (!hasPositiveClosedForms(coupling)) continue;
    const std::string& id = couplingId(coupling);
    Column column{"ratio-" + id, couplingName(coupling) + " / IID (analytic)", {}};
    for (std::size_t r = 0; r < rowCount; ++r)
      column.values.push_back(
          isMcRow[r] ? kNaN
                     : std::exp(coupledPositiveLogVariance(coupling, d, m, 0, rows[r] * rows[r]) -
                                logMseIid(rows[r])));
    table.hints.series.push_back(
        {couplingName(coupling) + " (analytic)", column.key, "", "", id, SeriesStyle::Line, ""});
    table.columns.push_back(std::move(column));
  }
  if (stopIfCancelled(context, result)) return result;
  if (mcV.empty()) return result;

  // Monte Carlo columns, filled point by point; partial tables show the points done so far.
  const std::size_t firstMc = table.columns.size(), firstMcSeries = table.hints.series.size();
  for (const Coupling coupling : couplings) {
    const std::string& id = couplingId(coupling);
    const std::string& name = couplingName(coupling);
    table.columns.push_back(
        {"mc-" + id, name + " / IID (Monte Carlo)", std::vector(rowCount, kNaN)});
    table.columns.push_back({"mc-" + id + "-low", name + " 95% low", std::vector(rowCount, kNaN)});
    table.columns.push_back(
        {"mc-" + id + "-high", name + " 95% high", std::vector(rowCount, kNaN)});
    table.hints.series.push_back({name + " (Monte Carlo)", "mc-" + id, "mc-" + id + "-low",
                                  "mc-" + id + "-high", id, SeriesStyle::Points, ""});
  }
  MonteCarloRequest request;
  request.mechanism = findMechanism("pos");
  request.features = m;
  request.trials = params.integer("trials");
  request.storedSamples = 0;
  request.histogramBins = 0;
  const std::size_t total = mcV.size() * couplings.size();
  std::size_t done = 0, heavy = 0;
  for (std::size_t p = 0; p < mcV.size(); ++p) {
    const double v = mcV[p];
    request.x = Eigen::VectorXd::Zero(d);
    request.x[0] = v / 2;
    request.y = request.x;
    const double logIid = logMseIid(v);
    for (std::size_t c = 0; c < couplings.size(); ++c) {
      request.coupling = couplings[c];
      request.seed = deriveSeed(seed, p, c);
      const auto mc = runMonteCarloFor(request, context);
      if (stopIfCancelled(context, result)) return result;
      if (!mc) {
        result.warnings.push_back(couplingId(couplings[c]) + ": " + mc.reason());
        continue;
      }
      const auto row = static_cast<std::size_t>(mcRow[p]);
      auto* column = &table.columns[firstMc + 3 * c];
      column[0].values[row] = std::exp(mc->logVariance - logIid);
      column[1].values[row] = std::exp(mc->logCi95Low - logIid);
      column[2].values[row] = std::exp(mc->logCi95High - logIid);
      if (mc->heavyTail) {
        ++heavy;
        table.hints.series[firstMcSeries + c].warning =
            "heavy tails: the Monte Carlo variance may not have converged";
      }
      context.reportProgress(static_cast<double>(++done) / static_cast<double>(total));
      context.publishPartial(table);
    }
  }
  if (heavy > 0)
    result.warnings.push_back(std::to_string(heavy) +
                              " Monte Carlo points showed heavy tails; their error bars understate "
                              "the uncertainty");
  return result;
}

}  // namespace rfscope
