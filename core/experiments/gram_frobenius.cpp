#include "core/experiments/gram_frobenius.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/couplings/coupling.h"
#include "core/couplings/frequencies.h"
#include "core/data/regime.h"
#include "core/experiments/common_parameters.h"
#include "core/experiments/experiment_support.h"
#include "core/random/ziggurat_normal.h"

namespace rfscope {
namespace {

// Σ_ij (K_ij - K̂_ij)² for one draw of M frequencies in ⌈M/d⌉ independent blocks (the last one
// partial). Positive features φ(x)_k = exp(ω_kᵀx - |x|²) / √M (Gaussian kernel).
double squaredFrobeniusError(const Eigen::MatrixXd& points, const Eigen::MatrixXd& exact,
                             Coupling coupling, std::int64_t features, std::uint64_t seed,
                             std::uint64_t trial, FrequencyScratch& scratch) {
  const int d = static_cast<int>(points.rows());
  TrialStream rng(seed, trial, zigguratTables());
  Eigen::MatrixXd omega;
  frequencies(coupling, d, features, rng, scratch, omega);
  Eigen::MatrixXd phi = omega.leftCols(d) * points;  // M × N projections
  const Eigen::RowVectorXd halfNorms = points.colwise().squaredNorm();
  phi.rowwise() -= halfNorms;
  phi = phi.array().exp() / std::sqrt(static_cast<double>(features));
  return (exact - phi.transpose() * phi).squaredNorm();
}

}  // namespace

const ExperimentInfo& GramFrobenius::info() const {
  static const ExperimentInfo info{
      "gram-frobenius", "Gram-matrix error vs features", "SimRF (Reid et al. 2023)",
      "SimRF Fig. 7: squared Frobenius error of the Gaussian Gram matrix estimated with positive "
      "random features, per coupling, as the number of features grows"};
  return info;
}

std::vector<ParameterSpec> GramFrobenius::parameters() const {
  std::vector<ParameterSpec> specs{dimensionParameter(64)};
  specs.front().minimum = 2;
  for (auto& spec : regimeParameters())
    specs.push_back(spec);
  auto sigma = realParameter("sigma", "σ", 0.1, 1e-3, 10, "scale of the points", true);
  auto points = integerParameter("points", "Points N", 64, 2, 2000, "points in the Gram matrix");
  sigma.group = points.group = "Data";
  auto chosen = multiChoiceParameter("couplings", "Couplings", couplingChoices(),
                                     {"iid", "orf", "simrf"}, "how the frequencies are coupled");
  auto low = integerParameter("features-min", "Features from", 8, 1, 100000, "smallest M");
  auto high = integerParameter("features-max", "Features to", 256, 1, 100000, "largest M");
  auto steps = integerParameter("features-steps", "Feature steps", 16, 1, 500,
                                "number of M values (evenly spaced, rounded)");
  chosen.group = low.group = high.group = steps.group = "Estimator";
  auto repetitions = integerParameter("repetitions", "Repetitions", 50, 2, 100000,
                                      "independent draws of the features per M");
  repetitions.group = "Sampling";
  specs.insert(specs.end(),
               {sigma, points, chosen, low, high, steps, repetitions, seedParameter()});
  return specs;
}

std::vector<ParameterError> GramFrobenius::crossValidate(const ParameterSet& params) const {
  if (params.integer("features-min") > params.integer("features-max"))
    return {{"features-max", "parameter 'features-max': must not be below features-min"}};
  return regimeErrors(params, static_cast<int>(params.integer("d")));
}

RunResult GramFrobenius::run(const ParameterSet& params, RunContext& context) const {
  const int d = static_cast<int>(params.integer("d"));
  const auto seed = static_cast<std::uint64_t>(params.integer("seed"));
  const auto pointCount = static_cast<std::size_t>(params.integer("points"));
  const auto repetitions = static_cast<std::size_t>(params.integer("repetitions"));
  std::vector<Coupling> couplings;
  for (const auto& id : params.choices("couplings"))
    couplings.push_back(parseCoupling(id, "couplings"));
  const Regime& regime = *findRegime(params.choice("regime"));
  const Eigen::MatrixXd points =
      params.real("sigma") * samplePoints(*prepareRegime(params, d), seed, pointCount);
  Eigen::MatrixXd exact(pointCount, pointCount);
  for (std::size_t i = 0; i < pointCount; ++i)
    for (std::size_t j = 0; j < pointCount; ++j)
      exact(i, j) = std::exp(-0.5 * (points.col(i) - points.col(j)).squaredNorm());
  std::vector<std::int64_t> features;
  for (double m : valueGrid(static_cast<double>(params.integer("features-min")),
                            static_cast<double>(params.integer("features-max")),
                            params.integer("features-steps"), false)) {
    const auto rounded = static_cast<std::int64_t>(std::llround(m));
    if (features.empty() || rounded > features.back()) features.push_back(rounded);
  }

  RunResult result;
  Table& table = result.table;
  table.hints.title = "Gram-matrix error, " + std::to_string(pointCount) + " " + regime.info().id +
                      " points, d = " + std::to_string(d) +
                      ", σ = " + formatParameterValue(params.real("sigma"));
  table.hints.xColumn = "features";
  table.hints.xLabel = "random features M";
  table.hints.yLabel = "Σ (K - K̂)², mean ± std of the mean";
  table.columns.push_back({"features", "random features M", {}});
  for (const Coupling coupling : couplings) {
    const std::string& id = couplingId(coupling);
    const std::string& name = couplingName(coupling);
    table.columns.push_back({id + "-mean", name + " mean error", {}});
    table.columns.push_back({id + "-std", name + " std over repetitions", {}});
    table.columns.push_back({id + "-low", name + " mean - std of the mean", {}});
    table.columns.push_back({id + "-high", name + " mean + std of the mean", {}});
    table.hints.series.push_back(
        {name, id + "-mean", id + "-low", id + "-high", id, SeriesStyle::Line, ""});
  }

  std::vector<double> errors(repetitions);
  for (std::size_t k = 0; k < features.size(); ++k) {
    table.columns[0].values.push_back(static_cast<double>(features[k]));
    for (std::size_t c = 0; c < couplings.size(); ++c) {
      const Coupling coupling = couplings[c];
      // The same seed for every M: curves differ by M, not by luck.
      const std::uint64_t runSeed = deriveSeed(seed, c);
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, repetitions), [&](const auto& range) {
        FrequencyScratch scratch;
        for (std::size_t r = range.begin(); r != range.end(); ++r) {
          if (context.cancelled()) return;
          errors[r] =
              squaredFrobeniusError(points, exact, coupling, features[k], runSeed, r, scratch);
        }
      });
      if (stopIfCancelled(context, result)) {
        // Keep only complete rows.
        for (auto& column : table.columns)
          column.values.resize(k);
        return result;
      }
      const MeanAndStd s = summarizeFinite(errors.data(), errors.size());
      const double sem = s.std / std::sqrt(static_cast<double>(repetitions));
      auto* column = &table.columns[1 + 4 * c];
      column[0].values.push_back(s.mean);
      column[1].values.push_back(s.std);
      column[2].values.push_back(s.mean - sem);
      column[3].values.push_back(s.mean + sem);
    }
    context.reportProgress(static_cast<double>(k + 1) / static_cast<double>(features.size()));
    if (k + 1 < features.size()) context.publishPartial(table);
  }
  return result;
}

}  // namespace rfscope
