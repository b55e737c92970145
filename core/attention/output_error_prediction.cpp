#include "core/attention/output_error_prediction.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include <tbb/parallel_for.h>

#include "core/attention/rf_attention.h"
#include "core/couplings/coupling.h"
#include "core/mechanisms/feature_map_recipe.h"
#include "core/random/trial_stream.h"

namespace rfscope {
namespace {

// Frequencies per drawn map (whole units) and the fewest units of a batch (QuadratureBudget).
constexpr std::int64_t kMapFrequencies = 256;
constexpr std::int64_t kMinUnits = 256;

int unitSize(const FeatureMapSpec& spec) {
  return spec.coupling == Coupling::Iid ? 1 : frequencyDimension(spec.coupling, spec.dimension);
}

// One map's sums over its units, per M: Σ_u value_u(M) and Σ_u value_u(M)².
struct MapSums {
  std::vector<double> sum, sumSquares, spread;
  double normaliser = 0;  // Σ over rows and units of s_u / b
};

struct PredictionSetup {
  const AttentionProblem& problem;
  const std::vector<Eigen::Index>& rows;
  Eigen::MatrixXd queryRows;        // x_i of `rows`
  Eigen::MatrixXd outputs;          // o_i
  Eigen::VectorXd logNormalisers;   // log D_i
  Eigen::MatrixXd augmentedValues;  // [V | 1]
  const std::vector<std::int64_t>& features;
  std::vector<int> remainders;  // the r = M mod b in use, ascending
  int unit = 1;
  bool saturated = false;
};

// Row i's per-frequency sums [N_k | S_k]·factor: frequency k's columns are k, k + F, ... (F the
// map's frequencies), Σ_t query(k + tF) · keySums(k + tF, ·).
void frequencySums(const Eigen::Ref<const Eigen::RowVectorXd>& query,
                   const Eigen::MatrixXd& keySums, double factor, std::int64_t frequencies,
                   Eigen::MatrixXd& out) {
  const Eigen::Index columnsPerFrequency = keySums.rows() / frequencies;
  out.setZero(frequencies, keySums.cols());
  for (Eigen::Index t = 0; t < columnsPerFrequency; ++t)
    out.array() += keySums.middleRows(t * frequencies, frequencies).array().colwise() *
                   query.segment(t * frequencies, frequencies).transpose().array();
  out *= factor;
}

MapSums mapSums(const PredictionSetup& s, const FeatureMap& map) {
  const std::int64_t frequencies = map.features();
  const std::int64_t units = frequencies / s.unit;
  const std::size_t grid = s.features.size();
  const Eigen::Index dv = s.outputs.cols();
  const FeatureMatrix queries = map.queries(s.queryRows);
  const FeatureMatrix keys = map.keys(s.problem.keys);
  double keyScale = 0;
  const Eigen::MatrixXd keyFeatures = commonScaleKeys(keys, keyScale);
  Eigen::MatrixXd keySums;  // width × (d_v + 1): Σ_j φ(y_j) [v_j, 1] over the keys row i sees
  Eigen::Index seen = 0;
  if (!s.problem.causal) {
    keySums.noalias() = keyFeatures.transpose() * s.augmentedValues;
    seen = s.problem.keys.rows();
  } else {
    keySums.setZero(keyFeatures.cols(), s.augmentedValues.cols());
  }
  std::vector<double> value(static_cast<std::size_t>(units) * grid, 0.0);
  std::vector<double> spread(grid, 0.0);
  double normaliser = 0;
  // Per M of the grid: full units n, the remainder r and which partial sums hold it.
  std::vector<double> count(grid), size(grid);
  std::vector<int> remainder(grid), partialIndex(grid, -1);
  for (std::size_t m = 0; m < grid; ++m) {
    count[m] = static_cast<double>(s.features[m] / s.unit);
    remainder[m] = static_cast<int>(s.features[m] % s.unit);
    size[m] = static_cast<double>(s.features[m]);
    if (remainder[m] > 0)
      partialIndex[m] = static_cast<int>(
          std::lower_bound(s.remainders.begin(), s.remainders.end(), remainder[m]) -
          s.remainders.begin());
  }
  // |e_u|² and s_u of every unit (and of its first r frequencies), from per-unit sums [N | S]/D_i.
  struct UnitTerms {
    Eigen::VectorXd error, sums;
  };
  const auto unitTerms = [&](const Eigen::MatrixXd& c, const Eigen::RowVectorXd& o) {
    UnitTerms t;
    t.sums = c.col(dv);
    t.error = (c.leftCols(dv) - t.sums * o).rowwise().squaredNorm();
    return t;
  };
  Eigen::MatrixXd perFrequency, blockSums(units, dv + 1);
  std::vector<UnitTerms> partials(s.remainders.size());
  for (std::size_t k = 0; k < s.rows.size(); ++k) {
    const Eigen::Index row = s.rows[k];
    for (; seen < s.problem.keyCount(row); ++seen)  // causal: the prefix up to this row
      keySums.noalias() += keyFeatures.row(seen).transpose() * s.augmentedValues.row(seen);
    // Per-unit sums carry M·(1/M) = 1 per frequency: undo the map's 1/M and bring e^{ℓ_i + ℓ_K}
    // and 1/D_i together in logs.
    const auto i = static_cast<Eigen::Index>(k);
    const double factor = static_cast<double>(frequencies) *
                          std::exp(queries.logScale(i) + keyScale - s.logNormalisers(i));
    frequencySums(queries.values.row(i), keySums, factor, frequencies, perFrequency);
    const Eigen::RowVectorXd o = s.outputs.row(i);
    for (std::size_t p = 0; p < s.remainders.size(); ++p) {  // the first r of every block
      for (std::int64_t u = 0; u < units; ++u)
        blockSums.row(u) = perFrequency.middleRows(u * s.unit, s.remainders[p]).colwise().sum();
      partials[p] = unitTerms(blockSums, o);
    }
    if (s.unit > 1)
      for (std::int64_t u = 0; u < units; ++u)
        blockSums.row(u) = perFrequency.middleRows(u * s.unit, s.unit).colwise().sum();
    const UnitTerms full = unitTerms(s.unit > 1 ? blockSums : perFrequency, o);
    normaliser += full.sums.sum() / s.unit;
    for (std::int64_t u = 0; u < units; ++u) {
      const double fullError = full.error(u), fullS = full.sums(u);
      double* out = value.data() + static_cast<std::size_t>(u) * grid;
      for (std::size_t m = 0; m < grid; ++m) {
        const double M = size[m];
        const auto term = [&](double error, double sums, double unitSize) {
          if (!s.saturated) return error / (M * M);
          const double denominator = M - unitSize + sums;
          return denominator > 0 ? error / (denominator * denominator) : 0.0;
        };
        double v = count[m] * term(fullError, fullS, s.unit);
        double spreadTerm = count[m] * (fullS - s.unit) * (fullS - s.unit);
        if (remainder[m] > 0) {
          const UnitTerms& partial = partials[static_cast<std::size_t>(partialIndex[m])];
          const double r = remainder[m], partialS = partial.sums(u);
          v += term(partial.error(u), partialS, r);
          spreadTerm += (partialS - r) * (partialS - r);
        }
        out[m] += v;
        spread[m] += spreadTerm / (M * M);
      }
    }
  }
  MapSums sums;
  sums.sum.assign(grid, 0.0);
  sums.sumSquares.assign(grid, 0.0);
  sums.spread = std::move(spread);
  sums.normaliser = normaliser;
  for (std::int64_t u = 0; u < units; ++u)
    for (std::size_t m = 0; m < grid; ++m) {
      const double v = value[static_cast<std::size_t>(u) * grid + m];
      sums.sum[m] += v;
      sums.sumSquares[m] += v * v;
    }
  return sums;
}

}  // namespace

Status hasOutputErrorPrediction(const Mechanism& mechanism, const FeatureMapSpec& spec) {
  if (isQuasiMonteCarlo(spec.coupling))
    return Status::unavailable("quasi-Monte Carlo points are not independent units");
  if (hasFixedNorms(spec.coupling))
    return Status::unavailable("fixed-norm blocks are biased (their mean is not the softmax)");
  FeatureMapSpec probe = spec;
  probe.features = unitSize(spec);
  TrialStream stream(0, 0);
  const auto map = mechanism.drawFeatureMap(probe, stream);
  if (!map) return Status::unavailable(map.reason());
  FeatureMapRecipe recipe;
  if (!(*map)->describe(recipe) || (*map)->width() % (*map)->features() != 0)
    return Status::unavailable("its features have no per-frequency columns");
  return fine();
}

Outcome<OutputErrorPrediction> predictOutputError(
    const AttentionProblem& problem, const ExactAttention& exact,
    const std::vector<Eigen::Index>& rows, const Mechanism& mechanism, const FeatureMapSpec& spec,
    const std::vector<std::int64_t>& features, std::uint64_t seed, const QuadratureBudget& budget,
    const std::function<bool()>& cancelled) {
  if (const Status available = hasOutputErrorPrediction(mechanism, spec); !available)
    return Outcome<OutputErrorPrediction>::unavailable(available.reason());
  PredictionSetup setup{
      problem, rows, {}, {}, {}, {}, features, {}, unitSize(spec), mechanism.info().positive};
  const auto count = static_cast<Eigen::Index>(rows.size());
  setup.queryRows.resize(count, problem.queries.cols());
  setup.outputs.resize(count, problem.values.cols());
  setup.logNormalisers.resize(count);
  for (Eigen::Index k = 0; k < count; ++k) {
    setup.queryRows.row(k) = problem.queries.row(rows[static_cast<std::size_t>(k)]);
    setup.outputs.row(k) = exact.output.row(rows[static_cast<std::size_t>(k)]);
    setup.logNormalisers(k) = exact.logNormaliser(rows[static_cast<std::size_t>(k)]);
  }
  setup.augmentedValues.resize(problem.values.rows(), problem.values.cols() + 1);
  setup.augmentedValues << problem.values, Eigen::VectorXd::Ones(problem.values.rows());
  std::set<int> remainders;
  for (const std::int64_t m : features)
    if (m % setup.unit != 0) remainders.insert(static_cast<int>(m % setup.unit));
  setup.remainders.assign(remainders.begin(), remainders.end());

  const std::int64_t unit = setup.unit;
  const double projectionWork = static_cast<double>(count + problem.keys.rows()) *
                                static_cast<double>(problem.queries.cols());
  const std::int64_t perMap = std::max(unit, kMapFrequencies / unit * unit);
  const auto mapsFor = [&](std::int64_t frequencies) {
    const std::int64_t units = std::max(kMinUnits, frequencies / unit);
    return (units * unit + perMap - 1) / perMap;
  };
  FeatureMapSpec mapSpec = spec;
  mapSpec.features = perMap;
  const std::size_t grid = features.size();
  std::vector<double> sum(grid, 0.0), sumSquares(grid, 0.0), spread(grid, 0.0);
  double normaliser = 0, total = 0;
  // The quadrature's mean of P at M number k and its standard error.
  const auto estimate = [&](std::size_t k) {
    const double mean = sum[k] / total;
    const double variance = std::max(0.0, (sumSquares[k] - sum[k] * mean) / (total - 1));
    return std::pair{mean, std::sqrt(variance / total)};
  };
  std::int64_t done = 0;
  const auto stopped = [&] { return cancelled && cancelled(); };
  for (std::int64_t maps = mapsFor(budget.first);; maps *= 2) {
    std::vector<MapSums> perMapSums(static_cast<std::size_t>(maps - done));
    tbb::parallel_for(done, maps, [&](std::int64_t i) {
      if (stopped()) return;
      TrialStream stream(seed, static_cast<std::uint64_t>(i));
      const auto map = mechanism.drawFeatureMap(mapSpec, stream);
      perMapSums[static_cast<std::size_t>(i - done)] = mapSums(setup, **map);
    });
    if (stopped()) return Outcome<OutputErrorPrediction>::unavailable("cancelled");
    // Summed in map order: the same numbers for any number of threads.
    for (const MapSums& m : perMapSums) {
      normaliser += m.normaliser;
      for (std::size_t k = 0; k < grid; ++k) {
        sum[k] += m.sum[k];
        sumSquares[k] += m.sumSquares[k];
        spread[k] += m.spread[k];
      }
    }
    done = maps;
    total = static_cast<double>(maps * (perMap / unit));
    // The largest relative standard error of √P, SE(P)/(2P), among the M that the whole budget
    // could bring to the target (the error falls like 1/√frequencies).
    const double frequencies = static_cast<double>(maps * perMap);
    const double shrink =
        std::sqrt(frequencies / std::min(static_cast<double>(budget.most),
                                         std::max(frequencies, budget.maxWork / projectionWork)));
    double worst = 0;
    for (std::size_t k = 0; k < grid; ++k)
      if (const auto [mean, error] = estimate(k);
          mean > 0 && error / (2 * mean) * shrink <= budget.targetError)
        worst = std::max(worst, error / (2 * mean));
    if (worst <= budget.targetError || maps >= mapsFor(budget.most) ||
        2.0 * static_cast<double>(maps * perMap) * projectionWork > budget.maxWork)
      break;
  }
  const double normSquared = setup.outputs.squaredNorm();
  OutputErrorPrediction out;
  out.saturated = setup.saturated;
  out.units = static_cast<std::int64_t>(total);
  out.unitSize = setup.unit;
  out.normaliserCoverage = normaliser / total / static_cast<double>(count);
  for (std::size_t k = 0; k < grid; ++k) {
    const auto [mean, error] = estimate(k);
    out.relativeSquared.push_back(mean / normSquared);
    out.standardError.push_back(error / normSquared);
    out.spreadSquared.push_back(spread[k] / total / static_cast<double>(count));
  }
  return out;
}

}  // namespace rfscope
