#include "core/experiments/bias_variance_vs_features.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/analytic/analytic_variance.h"
#include "core/experiments/cell_runner.h"
#include "core/experiments/common_parameters.h"
#include "core/experiments/experiment_support.h"
#include "core/math/log_math.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/montecarlo/monte_carlo_result.h"
#include "core/montecarlo/sampling_plan.h"

namespace rfscope {
namespace {

// The pair: x = -y = (‖x - y‖/2) e₁, so x + y = 0 (the estimate depends on x - y alone for TrigRF).
void pairOf(const BiasVarianceVsFeaturesSettings& settings, Eigen::VectorXd& x,
            Eigen::VectorXd& y) {
  x = Eigen::VectorXd::Zero(settings.dimension);
  x[0] = 0.5 * settings.distance;
  y = -x;
}

// One cell's values: the closed form's variance and bias² (NaN without one, bias² 0 for unbiased
// estimators), the Monte Carlo MSE with the 95% interval of its variance part.
struct CellValues {
  double variance = kNaN, bias2 = kNaN, mcMse = kNaN, mcLow = kNaN, mcHigh = kNaN;
  bool biased = false;
  std::string noClosedForm;
};

}  // namespace

const ExperimentInfo& BiasVarianceVsFeatures::info() const {
  static const ExperimentInfo info{
      "bias-variance-vs-features", "Bias, variance and MSE vs features", "Teaching",
      "Variance, bias² and MSE of kernel estimates at one pair against the number of features: "
      "unbiased estimators' MSE falls as 1/M, a biased coupling's (orf-fixed-norm: fixed norms "
      "√d, a Bessel kernel) levels off at bias² (Demni & Kadri 2024)"};
  return info;
}

std::vector<ParameterSpec> BiasVarianceVsFeatures::parameters() const {
  ParameterSpec d = dimensionParameter(4);
  auto distance =
      realParameter("distance", "‖x - y‖", 1, 1e-3, 100, "distance of the pair x = -y", true);
  d.group = distance.group = "Data";
  auto mechanisms = multiChoiceParameter("mechanisms", "Mechanisms", mechanismChoices(), {"trig"},
                                         "the estimators' feature mechanisms");
  auto couplings =
      multiChoiceParameter("couplings", "Couplings", couplingChoices(),
                           {"iid", "orf", "orf-fixed-norm"}, "how the frequencies are coupled");
  auto low = integerParameter("features-min", "Features from", 4, 1, 1000000, "smallest M");
  auto high = integerParameter("features-max", "Features to", 1024, 1, 1000000, "largest M");
  auto steps = integerParameter("features-steps", "Feature steps", 9, 1, 500,
                                "number of M values (log-spaced, rounded)");
  for (auto* spec : {&mechanisms, &couplings, &low, &high, &steps})
    spec->group = "Estimator";
  auto trials = integerParameter("trials", "Monte Carlo trials", 0, 0, 100000000,
                                 "trials per Monte Carlo point (0: closed forms only)");
  trials.group = "Sampling";
  return {d, distance, mechanisms, couplings, low, high, steps, trials, seedParameter()};
}

BiasVarianceVsFeaturesSettings BiasVarianceVsFeatures::parse(const ParameterSet& params) const {
  BiasVarianceVsFeaturesSettings s;
  s.dimension = static_cast<int>(params.integer("d"));
  s.distance = params.real("distance");
  for (const auto& id : params.choices("mechanisms"))
    s.mechanisms.push_back(findMechanism(id));
  for (const auto& id : params.choices("couplings"))
    s.couplings.push_back(parseCoupling(id, "couplings"));
  for (double m : valueGrid(static_cast<double>(params.integer("features-min")),
                            static_cast<double>(params.integer("features-max")),
                            params.integer("features-steps"), true)) {
    const auto rounded = static_cast<std::int64_t>(std::llround(m));
    if (s.features.empty() || rounded > s.features.back()) s.features.push_back(rounded);
  }
  s.trials = params.integer("trials");
  s.seed = static_cast<std::uint64_t>(params.integer("seed"));
  return s;
}

std::vector<ParameterError> BiasVarianceVsFeatures::crossValidate(
    const ParameterSet& params) const {
  if (params.integer("features-min") > params.integer("features-max"))
    return {{"features-max", "parameter 'features-max': must not be below features-min"}};
  const BiasVarianceVsFeaturesSettings settings = parse(params);
  if (settings.mechanisms.empty())
    return {{"mechanisms", "parameter 'mechanisms': choose at least one"}};
  if (settings.couplings.empty())
    return {{"couplings", "parameter 'couplings': choose at least one"}};
  for (const Coupling coupling : settings.couplings)
    if (const std::string problem = couplingDimensionProblem(coupling, settings.dimension);
        !problem.empty())
      return {{"couplings", "parameter 'couplings': " + problem}};
  return {};
}

ParameterSet BiasVarianceVsFeatures::testParameters(TestLoad load) const {
  if (load == TestLoad::Light)
    return defaultsWith({{"features-max", std::int64_t{64}},
                         {"features-steps", std::int64_t{4}},
                         {"mechanisms", std::vector<std::string>{"trig", "pos"}},
                         {"trials", std::int64_t{400}}});
  return defaultsWith({{"trials", std::int64_t{1000000}}});
}

Computed<BiasVarianceVsFeaturesResult> BiasVarianceVsFeatures::compute(
    const BiasVarianceVsFeaturesSettings& settings,
    ResultContext<BiasVarianceVsFeaturesResult>& context) const {
  Computed<BiasVarianceVsFeaturesResult> computed;
  BiasVarianceVsFeaturesResult& result = computed.result;
  for (EstimatorSeries& series : estimatorSeries(settings.mechanisms, settings.couplings))
    result.estimators.push_back({std::move(series), false, {}, {}, {}, {}, {}, {}});
  Eigen::VectorXd x, y;
  pairOf(settings, x, y);
  const double kernel = std::exp(-0.5 * settings.distance * settings.distance);

  // One row per M, one cell per estimator.
  const std::size_t estimators = result.estimators.size();
  std::vector<CellValues> cells(settings.features.size() * estimators);
  CellWork work;
  work.computeCells = [&](std::size_t begin, std::size_t end) {
    TrialScratch scratch;
    for (std::size_t cell = begin; cell != end; ++cell) {
      if (context.cancelled()) return;
      const std::size_t row = cell / estimators, s = cell % estimators;
      const EstimatorSeries& series = result.estimators[s].series;
      MonteCarloRequest request;
      request.mechanism = series.mechanism;
      request.coupling = series.coupling;
      request.features = settings.features[row];
      request.x = x;
      request.y = y;
      CellValues& values = cells[cell];
      const AnalyticAnswer answer = evaluateAnalytic(request, x, y);
      if (answer.variance) {
        values.variance = std::exp(answer.variance->logVariance);
        values.biased = answer.variance->logAbsBias.has_value();
        values.bias2 = values.biased ? std::exp(2 * *answer.variance->logAbsBias) : 0.0;
      } else {
        values.noClosedForm = answer.variance.reason();
      }
      if (settings.trials == 0) continue;
      request.trials = settings.trials;
      request.seed = deriveSeed(settings.seed, row, s);
      const auto plan = makeSamplingPlan(request);
      if (!plan) continue;
      const MonteCarloResult mc =
          sampleSerially(*plan, settings.trials, scratch, [&] { return context.cancelled(); });
      if (mc.cancelled) return;
      const double error = mc.mean.sign * std::exp(mc.mean.logAbs) - kernel;
      values.mcMse = mc.variance + error * error;
      values.mcLow = std::exp(mc.logCi95Low) + error * error;
      values.mcHigh = std::exp(mc.logCi95High) + error * error;
    }
  };
  work.commitRows = [&](std::size_t first, std::size_t last) {
    for (std::size_t row = first; row < last; ++row) {
      result.features.push_back(static_cast<double>(settings.features[row]));
      for (std::size_t s = 0; s < estimators; ++s) {
        const CellValues& v = cells[row * estimators + s];
        BiasVarianceSeries& e = result.estimators[s];
        e.biased = e.biased || v.biased;
        e.variance.push_back(v.variance);
        e.bias2.push_back(v.bias2);
        e.mse.push_back(v.variance + v.bias2);
        e.mcMse.push_back(v.mcMse);
        e.mcLow.push_back(v.mcLow);
        e.mcHigh.push_back(v.mcHigh);
        if (row == 0 && !v.noClosedForm.empty())
          result.notes.push_back({e.series.name, v.noClosedForm});
      }
    }
  };
  GridRows rows{{&result.features}, [&] { context.publishPartialResult(result); }};
  for (BiasVarianceSeries& e : result.estimators)
    rows.columns.insert(rows.columns.end(),
                        {&e.variance, &e.bias2, &e.mse, &e.mcMse, &e.mcLow, &e.mcHigh});
  CellGrid grid;
  grid.rows = settings.features.size();
  grid.cellsPerRow = estimators;
  computed.status = runCellGrid(context, grid, work, rows);
  return computed;
}

Presentation BiasVarianceVsFeatures::present(const BiasVarianceVsFeaturesSettings& settings,
                                             const BiasVarianceVsFeaturesResult& result) const {
  Presentation shown;
  Table& table = shown.table;
  const std::string common = estimatorsInCommon(settings.mechanisms, settings.couplings);
  table.hints.title =
      (common.empty() ? "" : common + ": ") +
      "MSE, variance and bias² at ‖x - y‖ = " + formatParameterValue(settings.distance) +
      ", d = " + std::to_string(settings.dimension) + " (Gaussian kernel)";
  table.hints.xColumn = "features";
  table.hints.xLabel = "random features M";
  table.hints.yLabel = "MSE = Var + bias² (closed form; points: Monte Carlo)";
  table.hints.xShortLabel = "M";
  table.hints.yShortLabel = "MSE";
  table.hints.xLog = table.hints.yLog = true;
  table.addColumn("features", "random features M", result.features);
  for (const BiasVarianceSeries& e : result.estimators) {
    const EstimatorSeries& s = e.series;
    // Unbiased estimators: the MSE is the variance, one line. Biased ones: MSE, variance and
    // bias² side by side.
    table.addColumn(s.key + "-mse", s.name + " MSE", e.mse);
    table.hints.series.push_back({s.label + (e.biased ? " MSE" : ""), s.key + "-mse", "", "",
                                  s.colorKey, SeriesStyle::Line, "", false});
    table.addColumn(s.key + "-variance", s.name + " variance", e.variance);
    table.addColumn(s.key + "-bias2", s.name + " bias²", e.bias2);
    if (e.biased) {
      // At paper sizes the entries after the MSE, in its colour, name only what differs.
      table.hints.series.push_back({s.label + " variance", s.key + "-variance", "", "", s.colorKey,
                                    SeriesStyle::LineAndPoints, "", false, "variance"});
      table.hints.series.push_back({s.label + " bias²", s.key + "-bias2", "", "", s.colorKey,
                                    SeriesStyle::Points, "", false, "bias²"});
    }
    if (settings.trials > 0) {
      table.addColumn(s.key + "-mc-mse", s.name + " MSE (Monte Carlo)", e.mcMse);
      table.addColumn(s.key + "-mc-low", s.name + " MSE, 95% low (variance part)", e.mcLow);
      table.addColumn(s.key + "-mc-high", s.name + " MSE, 95% high (variance part)", e.mcHigh);
      table.hints.series.push_back({s.label + " Monte Carlo", s.key + "-mc-mse", s.key + "-mc-low",
                                    s.key + "-mc-high", s.colorKey, SeriesStyle::Points, "", false,
                                    "Monte Carlo"});
    }
  }
  for (const std::string& line : groupedBySubject(result.notes))
    shown.warnings.push_back(line);
  return shown;
}

}  // namespace rfscope
