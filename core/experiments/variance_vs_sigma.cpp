#include "core/experiments/variance_vs_sigma.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "core/analytic/analytic_variance.h"
#include "core/couplings/coupling.h"
#include "core/data/regime.h"
#include "core/experiments/cell_runner.h"
#include "core/experiments/common_parameters.h"
#include "core/experiments/experiment_support.h"
#include "core/mechanisms/data_driven_parameters.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/montecarlo/monte_carlo_result.h"
#include "core/montecarlo/sampling_plan.h"

namespace rfscope {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The request Monte Carlo validation checks each chosen mechanism with (a generic pair).
MonteCarloRequest genericRequest(const VarianceVsSigmaSettings& settings) {
  MonteCarloRequest request;
  request.kernel = settings.kernel;
  request.coupling = settings.coupling;
  request.features = settings.features;
  request.x = Eigen::VectorXd::Constant(settings.dimension, 0.1);
  request.y = Eigen::VectorXd::Constant(settings.dimension, -0.05);
  return request;
}

}  // namespace

const ExperimentInfo& VarianceVsSigma::info() const {
  static const ExperimentInfo info{
      "variance-vs-sigma", "Log-variance vs σ", "CRT (Likhosherstov et al. 2022)",
      "CRT Fig. 2: log-variance, mean ± std over random pairs, as σ grows: closed forms and/or "
      "Monte Carlo (for couplings and mechanisms without a closed form); optimised parameters "
      "are chosen per σ from all the pairs' statistics (CRT eqs. 8, 12, 14)"};
  return info;
}

std::vector<ParameterSpec> VarianceVsSigma::parameters() const {
  std::vector<ParameterSpec> specs{dimensionParameter(64)};
  for (auto& spec : regimeParameters())
    specs.push_back(spec);
  for (auto& spec : sigmaGridParameters(0.1, 1.0, 50))
    specs.push_back(spec);
  auto pairs = integerParameter("pairs", "Pairs per σ", 100, 1, 10000,
                                "pairs (x, y) drawn per σ; mean and std are over these");
  pairs.group = "Data";
  specs.push_back(pairs);
  specs.push_back(seedParameter());
  auto mechanisms = multiChoiceParameter("mechanisms", "Mechanisms", mechanismChoices(),
                                         {"trig", "pos", "oprf"}, "random-feature mechanisms");
  mechanisms.group = "Estimator";
  specs.push_back(mechanisms);
  specs.push_back(kernelParameter());
  auto coupling = choiceParameter("coupling", "Coupling", couplingChoices(), "iid",
                                  "how the M frequencies are drawn (closed forms: iid; orf and "
                                  "simrf for PosRF)");
  auto features =
      integerParameter("features", "Features M", 1, 1, 100000, "random features per estimate");
  auto method =
      choiceParameter("method", "Method",
                      {{"analytic", "closed forms"},
                       {"monte-carlo", "Monte Carlo"},
                       {"both", "both, side by side"}},
                      "analytic", "closed-form variances, Monte Carlo estimates, or both");
  coupling.group = features.group = method.group = "Estimator";
  auto trials = integerParameter("trials", "Trials per pair", 2000, 64, 100000000,
                                 "Monte Carlo estimates per (σ, pair, mechanism)");
  trials.group = "Sampling";
  auto quantity = choiceParameter(
      "quantity", "Plotted quantity",
      {{"log-variance", "log Var"},
       {"log-relative-variance", "relative variance log(Var/K²)"},
       {"relative-rmse", "relative RMSE √Var/K"}},
      "log-variance",
      "what is plotted (computed in logs): the variance, the variance relative to K², or the "
      "root-mean-square error relative to K");
  quantity.group = "Plot";
  specs.insert(specs.end(), {coupling, features, method, trials, quantity});
  return specs;
}

VarianceVsSigmaSettings VarianceVsSigma::parse(const ParameterSet& params) const {
  VarianceVsSigmaSettings s;
  s.dimension = static_cast<int>(params.integer("d"));
  s.pairs = static_cast<std::size_t>(params.integer("pairs"));
  s.seed = static_cast<std::uint64_t>(params.integer("seed"));
  s.regime = findRegime(params.choice("regime"));
  s.regimeParameters = params;
  s.kernel = *kernelFromId(params.choice("kernel"));
  s.sigmaMin = params.real("sigma-min");
  s.sigmaMax = params.real("sigma-max");
  s.sigmas = sigmaGrid(s.sigmaMin, s.sigmaMax, params.integer("sigma-steps"),
                       params.choice("sigma-spacing") == "log");
  for (const auto& id : params.choices("mechanisms"))
    s.mechanisms.push_back(findMechanism(id));
  s.coupling = parseCoupling(params.choice("coupling"));
  s.features = params.integer("features");
  s.trials = params.integer("trials");
  const auto method = choiceValue<Method>(params, "method",
                                          {{"analytic", Method::Analytic},
                                           {"monte-carlo", Method::MonteCarlo},
                                           {"both", Method::Both}});
  s.quantity = choiceValue<Quantity>(params, "quantity",
                                     {{"log-variance", Quantity::LogVariance},
                                      {"log-relative-variance", Quantity::LogRelativeVariance},
                                      {"relative-rmse", Quantity::RelativeRmse}});
  if (method != Method::MonteCarlo) s.kinds.push_back(ValueKind::ClosedForm);
  if (method != Method::Analytic) s.kinds.push_back(ValueKind::MonteCarlo);
  return s;
}

std::vector<ParameterError> VarianceVsSigma::crossValidate(const ParameterSet& params) const {
  const VarianceVsSigmaSettings settings = parse(params);
  if (settings.sigmaMin >= settings.sigmaMax)
    return {{"sigma-max", "parameter 'sigma-max': must be larger than sigma-min"}};
  if (std::find(settings.kinds.begin(), settings.kinds.end(), ValueKind::MonteCarlo) !=
      settings.kinds.end()) {
    // Every chosen mechanism must be samplable with the coupling (checked at a generic pair).
    MonteCarloRequest request = genericRequest(settings);
    for (const Mechanism* mechanism : settings.mechanisms) {
      request.mechanism = mechanism;
      if (const auto plan = makeSamplingPlan(request); !plan)
        return {{"coupling", "parameter 'coupling': Monte Carlo of " + mechanism->info().id + ": " +
                                 plan.reason()}};
    }
  }
  return regimeErrors(params, settings.dimension);
}

ParameterSet VarianceVsSigma::testParameters(TestLoad load) const {
  if (load == TestLoad::Light)
    return defaultsWith({{"d", std::int64_t{16}},
                         {"sigma-min", 0.05},
                         {"sigma-max", 0.25},
                         {"sigma-steps", std::int64_t{3}},
                         {"pairs", std::int64_t{6}},
                         {"method", std::string("both")},
                         {"trials", std::int64_t{2000}}});
  return defaultsWith(
      {{"method", std::string("monte-carlo")}, {"trials", std::int64_t{100000000}}});
}

RunResult VarianceVsSigma::runWith(const VarianceVsSigmaSettings& settings,
                                   RunContext& context) const {
  const std::size_t pairCount = settings.pairs;
  const std::vector<double>& sigmas = settings.sigmas;
  const std::vector<const Mechanism*>& mechanisms = settings.mechanisms;
  const std::size_t mechanismCount = mechanisms.size();
  const std::size_t kindCount = settings.kinds.size();
  // Data files were checked by validate(); they load from the cache here.
  const std::shared_ptr<const PairSampler> sampler =
      prepareRegime(settings.regimeParameters, settings.dimension);

  RunResult result;
  Table& table = result.table;
  const ColumnHandle sigmaColumn = table.addColumn("sigma", "σ");
  // Columns per kind of value and mechanism: [kind][mechanism].
  std::vector<std::vector<BandColumns>> bands(kindCount);
  const Quantity quantity = settings.quantity;
  const BandLabels labels =
      quantity == Quantity::LogVariance
          ? BandLabels{" mean log Var", " std of log Var", " mean - std", " mean + std"}
      : quantity == Quantity::LogRelativeVariance
          ? BandLabels{" mean log(Var/K²)", " std of log(Var/K²)", " mean - std", " mean + std"}
          : BandLabels{" geometric mean of √Var/K", " std of log(√Var/K)",
                       " geometric mean ÷ geometric std", " geometric mean × geometric std"};
  for (std::size_t k = 0; k < kindCount; ++k)
    for (const Mechanism* m : mechanisms) {
      const bool monteCarlo = settings.kinds[k] == ValueKind::MonteCarlo;
      const std::string name = m->info().name + (monteCarlo ? " (Monte Carlo)" : "");
      bands[k].push_back(addBandSeries(table, m->info().id + (monteCarlo ? "-mc" : ""), name,
                                       labels, m->info().id,
                                       monteCarlo ? SeriesStyle::Points : SeriesStyle::Line));
    }
  const std::string estimator =
      settings.features == 1 && settings.coupling == Coupling::Iid
          ? std::string("one random feature")
          : std::to_string(settings.features) + " features, " + couplingName(settings.coupling);
  table.hints.title = "Log-variance of " + estimator + ", " + settings.regime->info().id +
                      " regime, d = " + std::to_string(settings.dimension);
  table.hints.xColumn = "sigma";
  table.hints.xLabel = "σ";
  const std::string rowContext =
      " (" + std::string(kernelId(settings.kernel)) + " kernel, " + estimator + ")";
  if (quantity == Quantity::LogVariance) {
    table.hints.yLabel = "log Var" + rowContext + ", mean ± std over pairs";
  } else if (quantity == Quantity::LogRelativeVariance) {
    table.hints.title =
        "Relative variance" + table.hints.title.substr(std::string("Log-variance").size());
    table.hints.yLabel = "log(Var/K²)" + rowContext + ", mean ± std over pairs";
  } else {
    table.hints.title =
        "Relative RMSE" + table.hints.title.substr(std::string("Log-variance").size());
    table.hints.yLabel = "√Var/K" + rowContext + ", geometric mean ×/÷ geometric std over pairs";
    table.hints.yLog = true;
  }

  // Base pairs, drawn once and scaled by each σ, with their geometry.
  std::vector<Eigen::VectorXd> baseX(pairCount), baseY(pairCount);
  std::vector<PairGeometry> baseGeometry(pairCount);
  if (!parallelCells(context, pairCount, [&](std::size_t p) {
        sampler->sampleBasePair(settings.seed, p, baseX[p], baseY[p]);
        baseGeometry[p] = PairGeometry::fromVectors(baseX[p], baseY[p]);
      })) {
    result.status = RunStatus::Cancelled;  // the base pairs may be incomplete
    return result;
  }
  // The statistics of CRT eqs. 8, 12, 14 at any σ follow from the base pairs' in O(d).
  const ScalableStatistics statistics(baseX, baseY, usesSecondMoments(mechanisms));

  // One row per σ, one cell per pair; a row holds its estimators and log variances until it is
  // committed.
  struct Row {
    std::vector<EstimatorSpec> estimators;  // [mechanism]
    std::vector<double> logVariances;       // [kind][mechanism][pair]
    std::vector<unsigned char> heavy;       // the same layout: Monte Carlo saw heavy tails
  };
  std::vector<Row> rows(sigmas.size());
  EstimatorSpec base;
  base.kernel = settings.kernel;
  base.coupling = settings.coupling;
  base.features = settings.features;
  const std::function<bool()> stop = [&context] { return context.cancelled(); };
  const auto at = [&](std::size_t k, std::size_t m, std::size_t p) {
    return (k * mechanismCount + m) * pairCount + p;
  };

  // The plotted quantity's log from log Var and log K.
  const auto plotted = [quantity](double logVariance, double logKernel) {
    switch (quantity) {
      case Quantity::LogVariance:
        return logVariance;
      case Quantity::LogRelativeVariance:
        return logVariance - 2 * logKernel;
      case Quantity::RelativeRmse:
        return 0.5 * logVariance - logKernel;
    }
    return logVariance;
  };

  CellWork work;
  work.prepareRow = [&](std::size_t s) {
    // CRT §3: free parameters (GERF's A and s, λ*, p*) are chosen once per σ from statistics of
    // all the pairs at that σ (eqs. 8, 12, 14), the same for every pair, closed forms and Monte
    // Carlo alike.
    Row& row = rows[s];
    std::vector<ParameterSet> chosen = dataDrivenParameters(mechanisms, statistics, sigmas[s]);
    row.estimators.assign(mechanismCount, base);
    for (std::size_t m = 0; m < mechanismCount; ++m) {
      row.estimators[m].mechanism = mechanisms[m];
      row.estimators[m].parameters = std::move(chosen[m]);
    }
    row.logVariances.assign(kindCount * mechanismCount * pairCount, kNaN);
    row.heavy.assign(row.logVariances.size(), 0);
  };
  work.computeCells = [&](std::size_t begin, std::size_t end) {
    Eigen::VectorXd x, y;
    MonteCarloRequest request;
    TrialScratch scratch;
    for (std::size_t cell = begin; cell != end; ++cell) {
      const std::size_t s = cell / pairCount, p = cell % pairCount;
      Row& row = rows[s];
      const double sigma = sigmas[s];
      x = sigma * baseX[p];
      y = sigma * baseY[p];
      const PairInput pair(x, y, baseGeometry[p].scaled(sigma));
      for (std::size_t k = 0; k < kindCount; ++k)
        for (std::size_t m = 0; m < mechanismCount; ++m) {
          const EstimatorSpec& estimator = row.estimators[m];
          if (settings.kinds[k] == ValueKind::ClosedForm) {
            const AnalyticAnswer answer = evaluateAnalytic(estimator, pair);
            row.logVariances[at(k, m, p)] =
                answer.variance ? plotted(answer.variance->logVariance, answer.logKernelValue)
                                : kNaN;
            continue;
          }
          static_cast<EstimatorSpec&>(request) = estimator;
          request.x = x;
          request.y = y;
          request.seed = deriveSeed(settings.seed, s * pairCount + p, m);
          const auto plan = makeSamplingPlan(request);
          if (!plan) continue;
          const MonteCarloResult mc = sampleSerially(*plan, settings.trials, scratch, stop);
          if (mc.cancelled) return;
          row.logVariances[at(k, m, p)] = plotted(mc.logVariance, mc.logKernelValue);
          row.heavy[at(k, m, p)] = mc.heavyTail;
        }
    }
  };
  // tallies[0]: cells left out of the means; tallies[1 + m]: mechanism m's heavy-tailed cells.
  std::vector<std::int64_t> tallies(1 + mechanismCount, 0);
  const auto markHeavyTails = [&] {
    if (settings.kinds.back() == ValueKind::MonteCarlo)
      for (std::size_t m = 0; m < mechanismCount; ++m)
        if (tallies[1 + m] > 0)
          table.hints.series[bands.back()[m].series].warning =
              "heavy tails in " + std::to_string(tallies[1 + m]) +
              " cells: the Monte Carlo variance underestimates";
  };
  work.tallies = &tallies;
  work.commitRows = [&](std::size_t first, std::size_t last) {
    for (std::size_t s = first; s < last; ++s) {
      Row& row = rows[s];
      table.append(sigmaColumn, sigmas[s]);
      for (std::size_t k = 0; k < kindCount; ++k)
        for (std::size_t m = 0; m < mechanismCount; ++m) {
          const MeanAndStd summary = summarizeFinite(&row.logVariances[at(k, m, 0)], pairCount);
          tallies[0] += static_cast<std::int64_t>(summary.excluded);
          for (std::size_t p = 0; p < pairCount; ++p)
            tallies[1 + m] += row.heavy[at(k, m, p)];
          if (quantity == Quantity::RelativeRmse) {  // back from logs: geometric statistics
            bands[k][m].append(table, std::exp(summary.mean), summary.std,
                               std::exp(summary.mean - summary.std),
                               std::exp(summary.mean + summary.std));
          } else {
            bands[k][m].append(table, summary.mean, summary.std, summary.mean - summary.std,
                               summary.mean + summary.std);
          }
        }
      row = Row{};  // its cells are done with
    }
    markHeavyTails();
  };
  CellGrid grid;
  grid.rows = sigmas.size();
  grid.cellsPerRow = pairCount;
  // Monte Carlo cells are far costlier than closed forms: smaller chunks keep partials flowing.
  grid.rowsPerChunk = kindCount == 1 && settings.kinds[0] == ValueKind::ClosedForm
                          ? std::max<std::size_t>(1, sigmas.size() / 25)
                          : 1;
  grid.distributable = true;
  result.status = runCellGrid(context, grid, work, table);
  if (result.status == RunStatus::Cancelled) return result;
  markHeavyTails();  // with every process's tallies when the grid was distributed

  if (tallies[0] > 0)
    result.warnings.push_back(std::to_string(tallies[0]) +
                              " (pair, σ, mechanism) cells had zero variance or no closed form and "
                              "were left out of the mean and std");
  for (std::size_t m = 0; m < mechanismCount; ++m)
    if (tallies[1 + m] > 0)
      result.warnings.push_back(mechanisms[m]->info().id + ": " + std::to_string(tallies[1 + m]) +
                                " Monte Carlo cells showed heavy tails; their variance is not to "
                                "be trusted");
  return result;
}

}  // namespace rfscope
