#include "core/experiments/variance_vs_sigma.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/analytic/analytic_variance.h"
#include "core/data/regime.h"
#include "core/experiments/common_parameters.h"
#include "core/mechanisms/mechanism_registry.h"

namespace rfscope {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct MeanAndStd {
  double mean = kNaN;
  double std = kNaN;
  std::size_t excluded = 0;  // pairs with zero variance (log = -inf) or no closed form
};

// Mean and sample standard deviation of the finite values, in a fixed order (deterministic).
MeanAndStd summarize(const double* values, std::size_t count) {
  MeanAndStd s;
  double mean = 0, m2 = 0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (!std::isfinite(values[i])) {
      ++s.excluded;
      continue;
    }
    ++n;
    const double delta = values[i] - mean;
    mean += delta / static_cast<double>(n);
    m2 += delta * (values[i] - mean);
  }
  if (n > 0) {
    s.mean = mean;
    s.std = n > 1 ? std::sqrt(m2 / static_cast<double>(n - 1)) : 0.0;
  }
  return s;
}

}  // namespace

const ExperimentInfo& VarianceVsSigma::info() const {
  static const ExperimentInfo info{
      "variance-vs-sigma", "Log-variance vs σ", "CRT (Likhosherstov et al. 2022)",
      "CRT Fig. 2: exact one-feature log-variance, mean ± std over random pairs, as σ grows"};
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
  return specs;
}

std::vector<ParameterError> VarianceVsSigma::crossValidate(const ParameterSet& params) const {
  if (params.real("sigma-min") >= params.real("sigma-max"))
    return {{"sigma-max", "parameter 'sigma-max': must be larger than sigma-min"}};
  return regimeErrors(params, static_cast<int>(params.integer("d")));
}

RunResult VarianceVsSigma::run(const ParameterSet& params, RunContext& context) const {
  const int dimension = static_cast<int>(params.integer("d"));
  const auto pairCount = static_cast<std::size_t>(params.integer("pairs"));
  const auto seed = static_cast<std::uint64_t>(params.integer("seed"));
  const Regime& regime = *findRegime(params.choice("regime"));
  // Data files were checked by validate(); they load from the cache here.
  const std::shared_ptr<const PairSampler> sampler = prepareRegime(params, dimension);
  const Kernel kernel = *kernelFromId(params.choice("kernel"));
  const std::vector<double> sigmas =
      sigmaGrid(params.real("sigma-min"), params.real("sigma-max"), params.integer("sigma-steps"),
                params.choice("sigma-spacing") == "log");
  std::vector<const Mechanism*> mechanisms;
  for (const auto& id : params.choices("mechanisms"))
    mechanisms.push_back(findMechanism(id));
  const std::size_t mechanismCount = mechanisms.size();

  RunResult result;
  Table& table = result.table;
  table.columns.push_back({"sigma", "σ", {}});
  for (const Mechanism* m : mechanisms) {
    const std::string& id = m->info().id;
    table.columns.push_back({id + "-mean", m->info().name + " mean log Var", {}});
    table.columns.push_back({id + "-std", m->info().name + " std of log Var", {}});
    table.columns.push_back({id + "-low", m->info().name + " mean - std", {}});
    table.columns.push_back({id + "-high", m->info().name + " mean + std", {}});
    table.hints.series.push_back(
        {m->info().name, id + "-mean", id + "-low", id + "-high", id, SeriesStyle::Line, {}});
  }
  table.hints.title = "Log-variance of one random feature, " + regime.info().id +
                      " regime, d = " + std::to_string(dimension);
  table.hints.xColumn = "sigma";
  table.hints.xLabel = "σ";
  table.hints.yLabel = std::string("log Var (") + std::string(kernelId(kernel)) +
                       " kernel, one feature), mean ± std over pairs";

  // Base pairs, drawn once and scaled by each σ.
  std::vector<Eigen::VectorXd> baseX(pairCount), baseY(pairCount);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pairCount), [&](const auto& range) {
    if (context.cancelled()) return;
    for (std::size_t p = range.begin(); p != range.end(); ++p)
      sampler->sampleBasePair(seed, p, baseX[p], baseY[p]);
  });

  AnalyticRequest request;
  request.kernel = kernel;
  std::size_t excluded = 0;
  // σ values are processed in chunks so that partial tables and progress stream out regularly.
  const std::size_t chunk = std::max<std::size_t>(1, sigmas.size() / 25);
  std::vector<double> logVariances;
  for (std::size_t first = 0; first < sigmas.size(); first += chunk) {
    if (context.cancelled()) {
      result.status = RunStatus::Cancelled;
      return result;
    }
    const std::size_t last = std::min(sigmas.size(), first + chunk);
    const std::size_t cells = (last - first) * pairCount;
    // Layout: [sigma - first][mechanism][pair].
    logVariances.assign(cells * mechanismCount, kNaN);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, cells), [&](const auto& range) {
      if (context.cancelled()) return;
      Eigen::VectorXd x, y;
      AnalyticRequest local = request;
      for (std::size_t cell = range.begin(); cell != range.end(); ++cell) {
        const std::size_t s = cell / pairCount, p = cell % pairCount;
        const double sigma = sigmas[first + s];
        x = sigma * baseX[p];
        y = sigma * baseY[p];
        for (std::size_t m = 0; m < mechanismCount; ++m) {
          local.mechanism = mechanisms[m];
          const AnalyticAnswer answer = evaluateAnalytic(local, x, y);
          logVariances[(s * mechanismCount + m) * pairCount + p] =
              answer.available ? answer.logVariance : kNaN;
        }
      }
    });
    if (context.cancelled()) {
      result.status = RunStatus::Cancelled;
      return result;
    }
    for (std::size_t s = 0; s < last - first; ++s) {
      table.columns[0].values.push_back(sigmas[first + s]);
      for (std::size_t m = 0; m < mechanismCount; ++m) {
        const MeanAndStd summary =
            summarize(&logVariances[(s * mechanismCount + m) * pairCount], pairCount);
        excluded += summary.excluded;
        auto* column = &table.columns[1 + 4 * m];
        column[0].values.push_back(summary.mean);
        column[1].values.push_back(summary.std);
        column[2].values.push_back(summary.mean - summary.std);
        column[3].values.push_back(summary.mean + summary.std);
      }
    }
    context.reportProgress(static_cast<double>(last) / static_cast<double>(sigmas.size()));
    if (last < sigmas.size()) context.publishPartial(table);
  }
  if (excluded > 0)
    result.warnings.push_back(std::to_string(excluded) +
                              " (pair, σ, mechanism) cells had zero variance or no closed form and "
                              "were left out of the mean and std");
  return result;
}

}  // namespace rfscope
