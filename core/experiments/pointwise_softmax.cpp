#include "core/experiments/pointwise_softmax.h"

#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "core/analytic/analytic_variance.h"
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

RunResult PointwiseSoftmax::run(const ParameterSet& params, RunContext& context) const {
  const int d = static_cast<int>(params.integer("d"));
  const double r = params.real("r");
  const auto seed = static_cast<std::uint64_t>(params.integer("seed"));
  const auto& ids = params.choices("mechanisms");
  const std::vector<double> thetas =
      valueGrid(0, std::numbers::pi, params.integer("theta-steps"), false);
  // The hybrids are the estimators with a number n of τ's; the Gaussian one also takes a bandwidth.
  const auto takes = [](const std::string& id, const char* key) {
    return findSpec(findMechanism(id)->parameters(), key) != nullptr;
  };
  const auto isHybrid = [&](const std::string& id) { return takes(id, "n"); };
  const auto featuresOf = [&](const std::string& id) {
    return params.integer(isHybrid(id) ? "hybrid-features" : "features");
  };
  const auto estimatorParameters = [&](const std::string& id) {
    ParameterSet set;
    if (isHybrid(id)) set.set("n", params.integer("n"));
    if (takes(id, "bandwidth")) set.set("bandwidth", params.real("bandwidth"));
    return set;
  };

  RunResult result;
  Table& table = result.table;
  table.hints.title = "Pointwise estimation of SM(x, y), ‖x‖ = ‖y‖ = " + formatParameterValue(r) +
                      ", d = " + std::to_string(d);
  table.hints.xColumn = "theta";
  table.hints.xLabel = "angle θ between x and y";
  table.hints.yLabel = "SM estimates (5th–95th percentile) and relative error √MSE / SM";
  const std::size_t rows = thetas.size();
  table.columns.push_back({"theta", "θ", thetas});
  Column truth{"sm", "true SM(x, y) = exp(r² cos θ)", {}};
  for (double theta : thetas)
    truth.values.push_back(std::exp(r * r * std::cos(theta)));
  table.columns.push_back(truth);
  table.hints.series.push_back({"true SM(x, y)", "sm", "", "", "exact", SeriesStyle::Line, ""});
  for (const auto& id : ids) {
    const std::string& name = findMechanism(id)->info().name;
    for (const auto& [suffix, label] : std::vector<std::pair<std::string, std::string>>{
             {"median", " median estimate"},
             {"q05", " 5th percentile"},
             {"q95", " 95th percentile"},
             {"error-mc", " relative error (Monte Carlo)"},
             {"error", " relative error (exact)"}})
      table.columns.push_back({id + "-" + suffix, name + label, std::vector(rows, kNaN)});
    table.hints.series.push_back({name + " (5th–95th percentile)", id + "-median", id + "-q05",
                                  id + "-q95", id, SeriesStyle::LineAndPoints, ""});
    table.hints.series.push_back(
        {name + " relative error", id + "-error", "", "", id, SeriesStyle::Line, ""});
    table.hints.series.push_back(
        {name + " relative error (MC)", id + "-error-mc", "", "", id, SeriesStyle::Points, ""});
  }
  // Exact relative errors first: they need no sampling.
  for (std::size_t k = 0; k < rows; ++k) {
    Eigen::VectorXd x = Eigen::VectorXd::Zero(d), y = Eigen::VectorXd::Zero(d);
    x[0] = r;
    y[0] = r * std::cos(thetas[k]);
    y[1] = r * std::sin(thetas[k]);
    for (std::size_t i = 0; i < ids.size(); ++i) {
      EstimatorSpec request;
      request.mechanism = findMechanism(ids[i]);
      request.kernel = Kernel::Softmax;
      request.features = featuresOf(ids[i]);
      request.parameters = estimatorParameters(ids[i]);
      const AnalyticAnswer answer = evaluateAnalytic(request, x, y);
      table.columns[2 + 5 * i + 4].values[k] =
          answer.variance ? std::exp(0.5 * answer.variance->logVariance - answer.logKernelValue)
                          : kNaN;
    }
  }
  context.publishPartial(table);

  MonteCarloRequest request;
  request.kernel = Kernel::Softmax;
  request.trials = params.integer("trials");
  request.quantileLevels = {0.05, 0.5, 0.95};
  request.storedSamples = std::min<std::int64_t>(request.trials, 100000);
  request.histogramBins = 0;
  std::size_t heavy = 0;
  for (std::size_t k = 0; k < rows; ++k) {
    request.x = Eigen::VectorXd::Zero(d);
    request.y = Eigen::VectorXd::Zero(d);
    request.x[0] = r;
    request.y[0] = r * std::cos(thetas[k]);
    request.y[1] = r * std::sin(thetas[k]);
    for (std::size_t i = 0; i < ids.size(); ++i) {
      request.mechanism = findMechanism(ids[i]);
      request.features = featuresOf(ids[i]);
      request.parameters = estimatorParameters(ids[i]);
      request.seed = deriveSeed(seed, k, i);
      const auto mc = runMonteCarloFor(request, context);
      if (stopIfCancelled(context, result)) return result;
      if (!mc) {
        result.warnings.push_back(ids[i] + ": " + mc.reason());
        continue;
      }
      auto* column = &table.columns[2 + 5 * i];
      column[0].values[k] = mc->quantiles[1].value.value();
      column[1].values[k] = mc->quantiles[0].value.value();
      column[2].values[k] = mc->quantiles[2].value.value();
      column[3].values[k] = std::exp(0.5 * mc->logVariance - mc->logKernelValue);
      if (mc->heavyTail) {
        ++heavy;
        table.hints.series[1 + 3 * i + 2].warning = "heavy tails at some angles";
      }
    }
    context.reportProgress(static_cast<double>(k + 1) / static_cast<double>(rows));
    if (k + 1 < rows) context.publishPartial(table);
  }
  if (heavy > 0)
    result.warnings.push_back(std::to_string(heavy) +
                              " (θ, estimator) runs showed heavy tails; their relative errors are "
                              "unreliable");
  return result;
}

}  // namespace rfscope
