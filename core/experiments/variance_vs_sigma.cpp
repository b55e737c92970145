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
#include "core/math/log_math.h"
#include "core/mechanisms/data_driven_parameters.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/montecarlo/monte_carlo_result.h"
#include "core/montecarlo/sampling_plan.h"

namespace rfscope {
namespace {

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

using Quantity = VarianceVsSigmaSettings::Quantity;
using ValueKind = VarianceVsSigmaSettings::ValueKind;

// The plotted quantity's log from log Var and log K.
double plottedLog(Quantity quantity, double logVariance, double logKernel) {
  switch (quantity) {
    case Quantity::LogVariance:
      return logVariance;
    case Quantity::LogRelativeVariance:
      return logVariance - 2 * logKernel;
    case Quantity::RelativeRmse:
      return 0.5 * logVariance - logKernel;
  }
  return logVariance;
}

// The pairs every σ scales: drawn once, with their geometry.
struct BasePairs {
  std::vector<Eigen::VectorXd> x, y;
  std::vector<PairGeometry> geometry;
};

// False if cancelled (the pairs may then be incomplete).
bool drawBasePairs(const VarianceVsSigmaSettings& settings, const PairSampler& sampler,
                   RunContext& context, BasePairs& pairs) {
  const std::size_t count = settings.pairs;
  pairs.x.resize(count);
  pairs.y.resize(count);
  pairs.geometry.resize(count);
  return parallelCells(context, count, [&](std::size_t p) {
    sampler.sampleBasePair(settings.seed, p, pairs.x[p], pairs.y[p]);
    pairs.geometry[p] = PairGeometry::fromVectors(pairs.x[p], pairs.y[p]);
  });
}

// The grid's cells: one row per σ, one cell per pair; a row holds its estimators and plotted logs
// until it is committed.
class SigmaCells {
 public:
  SigmaCells(const VarianceVsSigmaSettings& settings, const BasePairs& pairs)
      : settings_(settings),
        pairs_(pairs),
        // The statistics of CRT eqs. 8, 12, 14 at any σ follow from the base pairs' in O(d).
        statistics_(pairs.x, pairs.y, usesSecondMoments(settings.mechanisms)),
        rows_(settings.sigmas.size()) {}

  // CRT §3: free parameters (GERF's A and s, λ*, p*) are chosen once per σ from statistics of
  // all the pairs at that σ (eqs. 8, 12, 14), the same for every pair, closed forms and Monte
  // Carlo alike.
  void prepare(std::size_t s) {
    Row& row = rows_[s];
    const std::size_t mechanismCount = settings_.mechanisms.size();
    std::vector<ParameterSet> chosen =
        dataDrivenParameters(settings_.mechanisms, statistics_, settings_.sigmas[s]);
    EstimatorSpec base;
    base.kernel = settings_.kernel;
    base.coupling = settings_.coupling;
    base.features = settings_.features;
    row.estimators.assign(mechanismCount, base);
    for (std::size_t m = 0; m < mechanismCount; ++m) {
      row.estimators[m].mechanism = settings_.mechanisms[m];
      row.estimators[m].parameters = std::move(chosen[m]);
    }
    row.logValues.assign(settings_.kinds.size() * mechanismCount * settings_.pairs, kNaN);
    row.heavy.assign(row.logValues.size(), 0);
  }

  void compute(std::size_t begin, std::size_t end, const std::function<bool()>& stop) {
    const std::size_t pairCount = settings_.pairs;
    Eigen::VectorXd x, y;
    MonteCarloRequest request;
    TrialScratch scratch;
    for (std::size_t cell = begin; cell != end; ++cell) {
      const std::size_t s = cell / pairCount, p = cell % pairCount;
      Row& row = rows_[s];
      const double sigma = settings_.sigmas[s];
      x = sigma * pairs_.x[p];
      y = sigma * pairs_.y[p];
      const PairInput pair(x, y, pairs_.geometry[p].scaled(sigma));
      for (std::size_t k = 0; k < settings_.kinds.size(); ++k)
        for (std::size_t m = 0; m < settings_.mechanisms.size(); ++m) {
          if (settings_.kinds[k] == ValueKind::ClosedForm) {
            closedFormCell(row, k, m, p, pair);
            continue;
          }
          static_cast<EstimatorSpec&>(request) = row.estimators[m];
          request.x = x;
          request.y = y;
          request.seed = deriveSeed(settings_.seed, s * pairCount + p, m);
          if (!monteCarloCell(row, k, m, p, request, scratch, stop)) return;
        }
    }
  }

  // Summarises row s over its pairs into the result's series; tallies[0]: cells left out of the
  // means, tallies[1 + m]: mechanism m's heavy-tailed cells.
  void commit(std::size_t s, VarianceVsSigmaResult& result, std::vector<std::int64_t>& tallies) {
    Row& row = rows_[s];
    result.sigma.push_back(settings_.sigmas[s]);
    const std::size_t mechanismCount = settings_.mechanisms.size();
    // Paired differences to the reference mechanism where there is one (its own row becomes 0).
    std::vector<double> values = row.logValues;
    if (settings_.reference)
      for (std::size_t k = 0; k < settings_.kinds.size(); ++k)
        for (std::size_t m = 0; m < mechanismCount; ++m)
          for (std::size_t p = 0; p < settings_.pairs; ++p)
            values[at(k, m, p)] -= row.logValues[at(k, settings_.referenceIndex, p)];
    for (std::size_t k = 0; k < settings_.kinds.size(); ++k)
      for (std::size_t m = 0; m < mechanismCount; ++m) {
        const MeanAndStd summary = summarizeFinite(&values[at(k, m, 0)], settings_.pairs);
        tallies[0] += static_cast<std::int64_t>(summary.excluded);
        for (std::size_t p = 0; p < settings_.pairs; ++p)
          tallies[1 + m] += row.heavy[at(k, m, p)];
        VarianceVsSigmaSeries& series = result.series[k * mechanismCount + m];
        series.mean.push_back(summary.mean);
        series.std.push_back(summary.std);
      }
    row = Row{};  // its cells are done with
  }

 private:
  struct Row {
    std::vector<EstimatorSpec> estimators;  // [mechanism]
    std::vector<double> logValues;          // [kind][mechanism][pair]: the plotted quantity's log
    std::vector<unsigned char> heavy;       // the same layout: Monte Carlo saw heavy tails
  };

  std::size_t at(std::size_t k, std::size_t m, std::size_t p) const {
    return (k * settings_.mechanisms.size() + m) * settings_.pairs + p;
  }

  void closedFormCell(Row& row, std::size_t k, std::size_t m, std::size_t p,
                      const PairInput& pair) const {
    const AnalyticAnswer answer = evaluateAnalytic(row.estimators[m], pair);
    row.logValues[at(k, m, p)] =
        answer.variance
            ? plottedLog(settings_.quantity, answer.variance->logVariance, answer.logKernelValue)
            : kNaN;
  }

  // False if cancelled.
  bool monteCarloCell(Row& row, std::size_t k, std::size_t m, std::size_t p,
                      const MonteCarloRequest& request, TrialScratch& scratch,
                      const std::function<bool()>& stop) const {
    const auto plan = makeSamplingPlan(request);
    if (!plan) return true;
    const MonteCarloResult mc = sampleSerially(*plan, settings_.trials, scratch, stop);
    if (mc.cancelled) return false;
    row.logValues[at(k, m, p)] = plottedLog(settings_.quantity, mc.logVariance, mc.logKernelValue);
    row.heavy[at(k, m, p)] = mc.heavyTail;
    return true;
  }

  const VarianceVsSigmaSettings& settings_;
  const BasePairs& pairs_;
  const ScalableStatistics statistics_;
  std::vector<Row> rows_;
};

// The series of a result, kinds outermost, without rows.
std::vector<VarianceVsSigmaSeries> emptySeries(const VarianceVsSigmaSettings& settings) {
  std::vector<VarianceVsSigmaSeries> series;
  for (const ValueKind kind : settings.kinds)
    for (std::size_t m = 0; m < settings.mechanisms.size(); ++m)
      series.push_back({kind, settings.mechanisms[m], m, {}, {}});
  return series;
}

// The measured rows a result holds, in the grid's order.
GridRows measuredRows(VarianceVsSigmaResult& result) {
  GridRows rows;
  rows.columns.push_back(&result.sigma);
  for (VarianceVsSigmaSeries& series : result.series) {
    rows.columns.push_back(&series.mean);
    rows.columns.push_back(&series.std);
  }
  return rows;
}

void copyTallies(const std::vector<std::int64_t>& tallies, VarianceVsSigmaResult& result) {
  result.excludedCells = tallies[0];
  result.heavyCells.assign(tallies.begin() + 1, tallies.end());
}

BandLabels bandLabels(Quantity quantity) {
  return quantity == Quantity::LogVariance
             ? BandLabels{" mean log Var", " std of log Var", " mean - std", " mean + std"}
         : quantity == Quantity::LogRelativeVariance
             ? BandLabels{" mean log(Var/K²)", " std of log(Var/K²)", " mean - std", " mean + std"}
             : BandLabels{" geometric mean of √Var/K", " std of log(√Var/K)",
                          " geometric mean ÷ geometric std", " geometric mean × geometric std"};
}

// The four columns and the series of each of the result's series, with its rows.
std::vector<BandColumns> addSeriesBands(const VarianceVsSigmaSettings& settings,
                                        const VarianceVsSigmaResult& result, Table& table) {
  const BandLabels labels = bandLabels(settings.quantity);
  std::vector<BandColumns> bands;
  for (const VarianceVsSigmaSeries& series : result.series) {
    const MechanismInfo& info = series.mechanism->info();
    const bool monteCarlo = series.kind == ValueKind::MonteCarlo;
    const std::string name = info.name + (monteCarlo ? " (Monte Carlo)" : "");
    bands.push_back(addBandSeries(table, info.id + (monteCarlo ? "-mc" : ""), name, labels, info.id,
                                  monteCarlo ? SeriesStyle::Points : SeriesStyle::Line));
  }
  for (std::size_t row = 0; row < result.sigma.size(); ++row)
    for (std::size_t i = 0; i < result.series.size(); ++i) {
      const double mean = result.series[i].mean[row], spread = result.series[i].std[row];
      if (settings.quantity == Quantity::RelativeRmse) {  // back from logs: geometric statistics
        bands[i].append(table, std::exp(mean), spread, std::exp(mean - spread),
                        std::exp(mean + spread));
      } else {
        bands[i].append(table, mean, spread, mean - spread, mean + spread);
      }
    }
  return bands;
}

// Title and axes: the estimator, the regime, d and the plotted quantity.
void setPlotHints(const VarianceVsSigmaSettings& settings, PlotHints& hints) {
  const std::string estimator =
      settings.features == 1 && settings.coupling == Coupling::Iid
          ? std::string("one random feature")
          : std::to_string(settings.features) + " features, " + couplingName(settings.coupling);
  hints.title = "Log-variance of " + estimator + ", " + settings.regime.chosen->info().id +
                " regime, d = " + std::to_string(settings.dimension);
  hints.xColumn = "sigma";
  hints.xLabel = "σ";
  const std::string rowContext =
      " (" + std::string(kernelId(settings.kernel)) + " kernel, " + estimator + ")";
  if (settings.quantity == Quantity::LogVariance) {
    hints.yLabel = "log Var" + rowContext + ", mean ± std over pairs";
    hints.yShortLabel = "log Var";
  } else if (settings.quantity == Quantity::LogRelativeVariance) {
    hints.title = "Relative variance" + hints.title.substr(std::string("Log-variance").size());
    hints.yLabel = "log(Var/K²)" + rowContext + ", mean ± std over pairs";
    hints.yShortLabel = "log(Var/K²)";
  } else {
    hints.title = "Relative RMSE" + hints.title.substr(std::string("Log-variance").size());
    hints.yLabel = "√Var/K" + rowContext + ", geometric mean ×/÷ geometric std over pairs";
    hints.yShortLabel = "√Var/K";
    hints.yLog = true;
  }
  if (!settings.reference) return;
  const std::string& reference = settings.reference->info().name;
  hints.title += ", relative to " + reference;
  if (settings.quantity == Quantity::RelativeRmse)
    hints.yLabel = "√Var ÷ " + reference + "'s √Var, geometric mean ×/÷ geometric std over pairs";
  else
    hints.yLabel = "log Var − " + reference + "'s log Var, mean ± std over pairs";
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
  std::vector<ParameterChoice> references{{"none", "nothing: the values themselves"}};
  for (const ParameterChoice& choice : mechanismChoices())
    references.push_back(choice);
  auto reference = choiceParameter(
      "reference", "Relative to", references, "none",
      "plot each mechanism relative to this one (one of the mechanisms): per pair, the "
      "difference of the logs — small gaps between nearby curves become visible");
  reference.group = "Plot";
  specs.insert(specs.end(), {coupling, features, method, trials, quantity, reference});
  return specs;
}

VarianceVsSigmaSettings VarianceVsSigma::parse(const ParameterSet& params) const {
  VarianceVsSigmaSettings s;
  s.dimension = static_cast<int>(params.integer("d"));
  s.pairs = static_cast<std::size_t>(params.integer("pairs"));
  s.seed = static_cast<std::uint64_t>(params.integer("seed"));
  s.regime = parseRegime(params);
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
  if (const std::string& reference = params.choice("reference"); reference != "none") {
    const auto found =
        std::find(s.mechanisms.begin(), s.mechanisms.end(), findMechanism(reference));
    if (found != s.mechanisms.end()) {  // else refused by crossValidate
      s.reference = *found;
      s.referenceIndex = static_cast<std::size_t>(found - s.mechanisms.begin());
    }
  }
  if (method != Method::MonteCarlo) s.kinds.push_back(ValueKind::ClosedForm);
  if (method != Method::Analytic) s.kinds.push_back(ValueKind::MonteCarlo);
  return s;
}

std::vector<ParameterError> VarianceVsSigma::crossValidate(const ParameterSet& params) const {
  const VarianceVsSigmaSettings settings = parse(params);
  if (settings.sigmaMin >= settings.sigmaMax)
    return {{"sigma-max", "parameter 'sigma-max': must be larger than sigma-min"}};
  if (params.choice("reference") != "none" && !settings.reference)
    return {{"reference", "parameter 'reference': '" + params.choice("reference") +
                              "' is not among the mechanisms plotted; add it to them or plot "
                              "relative to one of them"}};
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

Computed<VarianceVsSigmaResult> VarianceVsSigma::compute(
    const VarianceVsSigmaSettings& settings, ResultContext<VarianceVsSigmaResult>& context) const {
  // Data files were checked by validate(); they load from the cache here.
  const std::shared_ptr<const PairSampler> sampler =
      prepareRegime(settings.regime, settings.dimension);
  Computed<VarianceVsSigmaResult> computed;
  VarianceVsSigmaResult& result = computed.result;
  result.series = emptySeries(settings);
  result.heavyCells.assign(settings.mechanisms.size(), 0);
  BasePairs pairs;
  if (!drawBasePairs(settings, *sampler, context, pairs)) {
    computed.status = RunStatus::Cancelled;  // the base pairs may be incomplete
    return computed;
  }
  SigmaCells cells(settings, pairs);
  const std::function<bool()> stop = [&context] { return context.cancelled(); };
  std::vector<std::int64_t> tallies(1 + settings.mechanisms.size(), 0);
  CellWork work;
  work.prepareRow = [&](std::size_t s) { cells.prepare(s); };
  work.computeCells = [&](std::size_t begin, std::size_t end) { cells.compute(begin, end, stop); };
  work.tallies = &tallies;
  work.commitRows = [&](std::size_t first, std::size_t last) {
    for (std::size_t s = first; s < last; ++s)
      cells.commit(s, result, tallies);
  };
  GridRows rows = measuredRows(result);
  rows.publishPartial = [&] {
    copyTallies(tallies, result);
    context.publishPartialResult(result);
  };
  CellGrid grid;
  grid.rows = settings.sigmas.size();
  grid.cellsPerRow = settings.pairs;
  // Monte Carlo cells are far costlier than closed forms: smaller chunks keep partials flowing.
  grid.rowsPerChunk = settings.kinds.size() == 1 && settings.kinds[0] == ValueKind::ClosedForm
                          ? std::max<std::size_t>(1, settings.sigmas.size() / 25)
                          : 1;
  grid.distributable = true;
  computed.status = runCellGrid(context, grid, work, rows);
  copyTallies(tallies, result);  // with every process's tallies when the grid was distributed
  return computed;
}

Presentation VarianceVsSigma::present(const VarianceVsSigmaSettings& settings,
                                      const VarianceVsSigmaResult& result) const {
  Presentation shown;
  Table& table = shown.table;
  table.addColumn("sigma", "σ", result.sigma);
  const std::vector<BandColumns> bands = addSeriesBands(settings, result, table);
  setPlotHints(settings, table.hints);
  for (std::size_t i = 0; i < result.series.size(); ++i) {
    const VarianceVsSigmaSeries& series = result.series[i];
    const std::int64_t heavy = result.heavyCells[series.mechanismIndex];
    if (series.kind == ValueKind::MonteCarlo && heavy > 0)
      table.hints.series[bands[i].series].warning =
          "heavy tails in " + std::to_string(heavy) +
          " cells: the Monte Carlo variance underestimates";
  }
  if (hasFixedNorms(settings.coupling))  // the estimators' mean is a Bessel kernel, not K
    shown.warnings.push_back(couplingId(settings.coupling) +
                             " is biased: these are variances about the estimator's own mean; "
                             "its MSE adds bias², which does not fall with M (experiment "
                             "bias-variance-vs-features)");
  if (result.sigma.size() < settings.sigmas.size()) return shown;  // complete runs only
  if (result.excludedCells > 0)
    shown.warnings.push_back(std::to_string(result.excludedCells) +
                             " (pair, σ, mechanism) cells had zero variance or no closed form and "
                             "were left out of the mean and std");
  for (std::size_t m = 0; m < settings.mechanisms.size(); ++m)
    if (result.heavyCells[m] > 0)
      shown.warnings.push_back(settings.mechanisms[m]->info().id + ": " +
                               std::to_string(result.heavyCells[m]) +
                               " Monte Carlo cells showed heavy tails; their variance is not to "
                               "be trusted");
  return shown;
}

}  // namespace rfscope
