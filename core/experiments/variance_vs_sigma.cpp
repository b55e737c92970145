#include "core/experiments/variance_vs_sigma.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "core/analytic/analytic_variance.h"
#include "core/couplings/coupling.h"
#include "core/data/regime.h"
#include "core/experiments/common_parameters.h"
#include "core/experiments/experiment_support.h"
#include "core/mechanisms/data_driven_parameters.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/montecarlo/monte_carlo_result.h"
#include "core/montecarlo/sampling_plan.h"

namespace rfscope {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

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
  specs.insert(specs.end(), {coupling, features, method, trials});
  return specs;
}

std::vector<ParameterError> VarianceVsSigma::crossValidate(const ParameterSet& params) const {
  if (params.real("sigma-min") >= params.real("sigma-max"))
    return {{"sigma-max", "parameter 'sigma-max': must be larger than sigma-min"}};
  if (params.choice("method") != "analytic") {
    // Every chosen mechanism must be samplable with the coupling (checked at a generic pair).
    MonteCarloRequest request;
    request.kernel = *kernelFromId(params.choice("kernel"));
    request.coupling = parseCoupling(params.choice("coupling"));
    request.features = params.integer("features");
    const auto d = params.integer("d");
    request.x = Eigen::VectorXd::Constant(d, 0.1);
    request.y = Eigen::VectorXd::Constant(d, -0.05);
    for (const auto& id : params.choices("mechanisms")) {
      request.mechanism = findMechanism(id);
      if (const auto plan = makeSamplingPlan(request); !plan)
        return {{"coupling", "parameter 'coupling': Monte Carlo of " + id + ": " + plan.reason()}};
    }
  }
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
  const Coupling coupling = parseCoupling(params.choice("coupling"));
  const std::int64_t features = params.integer("features");
  const std::int64_t trials = params.integer("trials");
  const std::string& method = params.choice("method");
  // Kinds of value per cell: 0 = closed form, 1 = Monte Carlo.
  std::vector<int> kinds;
  if (method != "monte-carlo") kinds.push_back(0);
  if (method != "analytic") kinds.push_back(1);
  const std::size_t kindCount = kinds.size();

  RunResult result;
  Table& table = result.table;
  table.columns.push_back({"sigma", "σ", {}});
  for (int kind : kinds)
    for (const Mechanism* m : mechanisms) {
      const std::string id = m->info().id + (kind == 1 ? "-mc" : "");
      const std::string name = m->info().name + (kind == 1 ? " (Monte Carlo)" : "");
      table.columns.push_back({id + "-mean", name + " mean log Var", {}});
      table.columns.push_back({id + "-std", name + " std of log Var", {}});
      table.columns.push_back({id + "-low", name + " mean - std", {}});
      table.columns.push_back({id + "-high", name + " mean + std", {}});
      table.hints.series.push_back({name,
                                    id + "-mean",
                                    id + "-low",
                                    id + "-high",
                                    m->info().id,
                                    kind == 1 ? SeriesStyle::Points : SeriesStyle::Line,
                                    {}});
    }
  const std::string estimator =
      features == 1 && coupling == Coupling::Iid
          ? std::string("one random feature")
          : std::to_string(features) + " features, " + couplingName(coupling);
  table.hints.title = "Log-variance of " + estimator + ", " + regime.info().id +
                      " regime, d = " + std::to_string(dimension);
  table.hints.xColumn = "sigma";
  table.hints.xLabel = "σ";
  table.hints.yLabel = std::string("log Var (") + std::string(kernelId(kernel)) + " kernel, " +
                       estimator + "), mean ± std over pairs";

  // Base pairs, drawn once and scaled by each σ, with their geometry.
  std::vector<Eigen::VectorXd> baseX(pairCount), baseY(pairCount);
  std::vector<PairGeometry> baseGeometry(pairCount);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pairCount), [&](const auto& range) {
    if (context.cancelled()) return;
    for (std::size_t p = range.begin(); p != range.end(); ++p) {
      sampler->sampleBasePair(seed, p, baseX[p], baseY[p]);
      baseGeometry[p] = PairGeometry::fromVectors(baseX[p], baseY[p]);
    }
  });

  if (stopIfCancelled(context, result)) return result;  // the base pairs may be incomplete
  // The statistics of CRT eqs. 8, 12, 14 at any σ follow from the base pairs' in O(d).
  const ScalableStatistics statistics(baseX, baseY);

  EstimatorSpec request;
  request.kernel = kernel;
  request.coupling = coupling;
  request.features = features;
  MonteCarloRequest mcRequest;
  mcRequest.kernel = kernel;
  mcRequest.coupling = coupling;
  mcRequest.features = features;
  const std::function<bool()> stop = [&context] { return context.cancelled(); };
  std::size_t excluded = 0;
  std::vector<std::size_t> heavy(mechanismCount, 0);
  // Monte Carlo cells are far costlier than closed forms: smaller chunks keep partials flowing.
  const std::size_t chunk =
      kindCount == 1 && kinds[0] == 0 ? std::max<std::size_t>(1, sigmas.size() / 25) : 1;
  const std::size_t block = mechanismCount * pairCount;  // values of one kind at one σ
  std::vector<double> logVariances;
  std::vector<unsigned char> heavyCells;
  std::vector<EstimatorSpec> requests;  // [sigma - first][mechanism]
  for (std::size_t first = 0; first < sigmas.size(); first += chunk) {
    if (stopIfCancelled(context, result)) return result;
    const std::size_t last = std::min(sigmas.size(), first + chunk);
    // CRT §3: free parameters (GERF's A and s, λ*, p*) are chosen once per σ from statistics of
    // all the pairs at that σ (eqs. 8, 12, 14), the same for every pair, closed forms and Monte
    // Carlo alike.
    requests.assign((last - first) * mechanismCount, request);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, last - first), [&](const auto& range) {
      for (std::size_t s = range.begin(); s != range.end(); ++s) {
        std::vector<ParameterSet> chosen =
            dataDrivenParameters(mechanisms, statistics, sigmas[first + s]);
        for (std::size_t m = 0; m < mechanismCount; ++m) {
          EstimatorSpec& r = requests[s * mechanismCount + m];
          r.mechanism = mechanisms[m];
          r.parameters = std::move(chosen[m]);
        }
      }
    });
    const std::size_t cells = (last - first) * pairCount;
    // Layout: [sigma - first][kind][mechanism][pair].
    logVariances.assign(cells * mechanismCount * kindCount, kNaN);
    heavyCells.assign(logVariances.size(), 0);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, cells, 1), [&](const auto& range) {
      if (context.cancelled()) return;
      Eigen::VectorXd x, y;
      MonteCarloRequest mcLocal = mcRequest;
      TrialScratch scratch;
      for (std::size_t cell = range.begin(); cell != range.end(); ++cell) {
        const std::size_t s = cell / pairCount, p = cell % pairCount;
        const double sigma = sigmas[first + s];
        x = sigma * baseX[p];
        y = sigma * baseY[p];
        const PairInput pair(x, y, baseGeometry[p].scaled(sigma));
        for (std::size_t k = 0; k < kindCount; ++k)
          for (std::size_t m = 0; m < mechanismCount; ++m) {
            const std::size_t at = (s * kindCount + k) * block + m * pairCount + p;
            const EstimatorSpec& analytic = requests[s * mechanismCount + m];
            if (kinds[k] == 0) {
              const AnalyticAnswer answer = evaluateAnalytic(analytic, pair);
              logVariances[at] = answer.variance ? answer.variance->logVariance : kNaN;
              continue;
            }
            mcLocal.mechanism = mechanisms[m];
            mcLocal.parameters = analytic.parameters;
            mcLocal.x = x;
            mcLocal.y = y;
            mcLocal.seed = deriveSeed(seed, (first + s) * pairCount + p, m);
            const auto plan = makeSamplingPlan(mcLocal);
            if (!plan) continue;
            const MonteCarloResult mc = sampleSerially(*plan, trials, scratch, stop);
            if (mc.cancelled) return;
            logVariances[at] = mc.logVariance;
            heavyCells[at] = mc.heavyTail;
          }
      }
    });
    if (stopIfCancelled(context, result)) return result;
    for (std::size_t s = 0; s < last - first; ++s) {
      table.columns[0].values.push_back(sigmas[first + s]);
      for (std::size_t k = 0; k < kindCount; ++k)
        for (std::size_t m = 0; m < mechanismCount; ++m) {
          const std::size_t at = (s * kindCount + k) * block + m * pairCount;
          const MeanAndStd summary = summarizeFinite(&logVariances[at], pairCount);
          excluded += summary.excluded;
          for (std::size_t p = 0; p < pairCount; ++p)
            heavy[m] += heavyCells[at + p];
          auto* column = &table.columns[1 + 4 * (k * mechanismCount + m)];
          column[0].values.push_back(summary.mean);
          column[1].values.push_back(summary.std);
          column[2].values.push_back(summary.mean - summary.std);
          column[3].values.push_back(summary.mean + summary.std);
        }
    }
    for (std::size_t m = 0; m < mechanismCount && kinds.back() == 1; ++m)
      if (heavy[m] > 0)
        table.hints.series[(kindCount - 1) * mechanismCount + m].warning =
            "heavy tails in " + std::to_string(heavy[m]) +
            " cells: the Monte Carlo variance underestimates";
    context.reportProgress(static_cast<double>(last) / static_cast<double>(sigmas.size()));
    if (last < sigmas.size()) context.publishPartial(table);
  }
  if (excluded > 0)
    result.warnings.push_back(std::to_string(excluded) +
                              " (pair, σ, mechanism) cells had zero variance or no closed form and "
                              "were left out of the mean and std");
  for (std::size_t m = 0; m < mechanismCount; ++m)
    if (heavy[m] > 0)
      result.warnings.push_back(mechanisms[m]->info().id + ": " + std::to_string(heavy[m]) +
                                " Monte Carlo cells showed heavy tails; their variance is not to "
                                "be trusted");
  return result;
}

}  // namespace rfscope
