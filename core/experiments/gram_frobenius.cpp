#include "core/experiments/gram_frobenius.h"

#include <cmath>
#include <string>

#include "core/data/regime.h"
#include "core/experiments/cell_runner.h"
#include "core/experiments/common_parameters.h"
#include "core/experiments/experiment_support.h"
#include "core/mechanisms/data_driven_parameters.h"
#include "core/mechanisms/feature_map.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/random/trial_stream.h"

namespace rfscope {
namespace {

std::vector<ParameterChoice> positiveMechanismChoices() {
  std::vector<ParameterChoice> choices;
  for (const Mechanism* m : allMechanisms())
    if (m->info().positive) choices.push_back({m->info().id, m->info().name});
  return choices;
}

// The feature map's spec for the points (rows of x): parameters chosen from the points'
// statistics (CRT §3; pairs of consecutive points), the positive variants' one shift from all
// the points.
FeatureMapSpec featureSpec(const Mechanism& mechanism, const Eigen::MatrixXd& x,
                           Coupling coupling) {
  FeatureMapSpec spec;
  spec.coupling = coupling;
  spec.dimension = static_cast<int>(x.cols());
  std::vector<Eigen::VectorXd> xs, ys;
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    xs.push_back(x.row(i).transpose());
    ys.push_back(x.row((i + 1) % x.rows()).transpose());
  }
  spec.parameters = dataDrivenParameters(mechanism, xs, ys);
  if (spec.parameters.contains("epsilon"))
    spec.shift = positiveShift(x, x, spec.parameters.real("epsilon"));
  return spec;
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
  auto mechanisms =
      multiChoiceParameter("mechanisms", "Mechanisms", positiveMechanismChoices(), {"pos"},
                           "mechanisms with positive features (their parameters from the points)");
  auto chosen = multiChoiceParameter("couplings", "Couplings", couplingChoices(),
                                     {"iid", "orf", "simrf"}, "how the frequencies are coupled");
  auto low = integerParameter("features-min", "Features from", 8, 1, 100000, "smallest M");
  auto high = integerParameter("features-max", "Features to", 256, 1, 100000, "largest M");
  auto steps = integerParameter("features-steps", "Feature steps", 16, 1, 500,
                                "number of M values (evenly spaced, rounded)");
  mechanisms.group = chosen.group = low.group = high.group = steps.group = "Estimator";
  auto repetitions = integerParameter("repetitions", "Repetitions", 50, 2, 100000,
                                      "independent draws of the features per M");
  repetitions.group = "Sampling";
  specs.insert(specs.end(),
               {sigma, points, mechanisms, chosen, low, high, steps, repetitions, seedParameter()});
  return specs;
}

std::optional<MemoryEstimate> GramFrobenius::memoryEstimate(const ParameterSet& params) const {
  const GramFrobeniusSettings s = parse(params);
  const std::size_t cells =
      s.features.size() * s.mechanisms.size() * s.couplings.size() * s.repetitions;
  const double n = static_cast<double>(s.points);
  MemoryEstimate estimate =
      featureMatricesEstimate(cells, 3.5, n, "points", static_cast<double>(s.features.back()),
                              s.mechanisms, "features-max");
  estimate.bytes += concurrentCells(cells) * 2 * n * n * sizeof(double);
  estimate.breakdown += ", and 2 Gram matrices of " + std::to_string(s.points) + "² per cell";
  return estimate;
}

GramFrobeniusSettings GramFrobenius::parse(const ParameterSet& params) const {
  GramFrobeniusSettings s;
  s.dimension = static_cast<int>(params.integer("d"));
  s.regime = parseRegime(params);
  s.sigma = params.real("sigma");
  s.points = static_cast<std::size_t>(params.integer("points"));
  for (const auto& id : params.choices("mechanisms"))
    s.mechanisms.push_back(findMechanism(id));
  for (const auto& id : params.choices("couplings"))
    s.couplings.push_back(parseCoupling(id, "couplings"));
  s.featuresMin = params.integer("features-min");
  s.featuresMax = params.integer("features-max");
  for (double m : valueGrid(static_cast<double>(s.featuresMin), static_cast<double>(s.featuresMax),
                            params.integer("features-steps"), false)) {
    const auto rounded = static_cast<std::int64_t>(std::llround(m));
    if (s.features.empty() || rounded > s.features.back()) s.features.push_back(rounded);
  }
  s.repetitions = static_cast<std::size_t>(params.integer("repetitions"));
  s.seed = static_cast<std::uint64_t>(params.integer("seed"));
  return s;
}

std::vector<ParameterError> GramFrobenius::crossValidate(const ParameterSet& params) const {
  const GramFrobeniusSettings settings = parse(params);
  if (settings.featuresMin > settings.featuresMax)
    return {{"features-max", "parameter 'features-max': must not be below features-min"}};
  // Every mechanism must have a feature map under every coupling (checked on generic points).
  const Eigen::MatrixXd probe = Eigen::MatrixXd::Constant(2, settings.dimension, 0.1);
  for (const Mechanism* mechanism : settings.mechanisms)
    for (const Coupling coupling : settings.couplings) {
      TrialStream stream(0, 0);
      const auto map = mechanism->drawFeatureMap(featureSpec(*mechanism, probe, coupling), stream);
      if (!map)
        return {{"couplings", "parameter 'couplings': " + mechanism->info().id + " under " +
                                  couplingId(coupling) + ": " + map.reason()}};
    }
  return regimeErrors(params, settings.dimension);
}

ParameterSet GramFrobenius::testParameters(TestLoad load) const {
  if (load == TestLoad::Light)
    return defaultsWith({{"d", std::int64_t{8}},
                         {"points", std::int64_t{10}},
                         {"features-min", std::int64_t{8}},
                         {"features-max", std::int64_t{20}},
                         {"features-steps", std::int64_t{3}},
                         {"repetitions", std::int64_t{20}}});
  return defaultsWith({{"repetitions", std::int64_t{100000}}});
}

Computed<GramFrobeniusResult> GramFrobenius::compute(
    const GramFrobeniusSettings& settings, ResultContext<GramFrobeniusResult>& context) const {
  const Eigen::MatrixXd columns =  // one point per column
      settings.sigma * samplePoints(*prepareRegime(settings.regime, settings.dimension),
                                    settings.seed, settings.points);
  const Eigen::MatrixXd points = columns.transpose();  // one per row, as feature maps take them
  const auto n = static_cast<Eigen::Index>(settings.points);
  Eigen::MatrixXd exact(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j)
      exact(i, j) = std::exp(-0.5 * (columns.col(i) - columns.col(j)).squaredNorm());

  Computed<GramFrobeniusResult> computed;
  GramFrobeniusResult& result = computed.result;
  std::vector<FeatureMapSpec> specs;
  std::vector<std::uint64_t> seeds;  // the same for every M: curves differ by M, not by luck
  for (EstimatorSeries& series : estimatorSeries(settings.mechanisms, settings.couplings)) {
    specs.push_back(featureSpec(*series.mechanism, points, series.coupling));
    seeds.push_back(deriveSeed(settings.seed, series.couplingIndex, series.mechanismIndex));
    const std::string key =
        settings.mechanisms.size() > 1 ? series.key : couplingId(series.coupling);
    result.estimators.push_back({std::move(series), key, {}, {}, {}});
  }

  // One row per M, one cell per (estimator, repetition).
  const std::size_t estimators = result.estimators.size(), repetitions = settings.repetitions;
  std::vector<double> errors(settings.features.size() * estimators * repetitions);
  CellWork work;
  work.computeCells = [&](std::size_t begin, std::size_t end) {
    for (std::size_t cell = begin; cell != end; ++cell) {
      if (context.cancelled()) return;
      const std::size_t row = cell / (estimators * repetitions);
      const std::size_t s = cell / repetitions % estimators, r = cell % repetitions;
      FeatureMapSpec spec = specs[s];
      spec.features = settings.features[row];
      // One draw of M frequencies in ⌈M/d⌉ independent blocks (the last one partial).
      TrialStream stream(seeds[s], r);
      const auto map = result.estimators[s].series.mechanism->drawFeatureMap(spec, stream);
      const FeatureMatrix features = (*map)->queries(points);
      errors[cell] = (exact - kernelEstimates(features, features)).squaredNorm();
    }
  };
  work.commitRows = [&](std::size_t first, std::size_t last) {
    for (std::size_t row = first; row < last; ++row) {
      result.features.push_back(static_cast<double>(settings.features[row]));
      for (std::size_t s = 0; s < estimators; ++s) {
        const MeanAndStd summary =
            summarizeFinite(&errors[(row * estimators + s) * repetitions], repetitions);
        GramEstimatorErrors& e = result.estimators[s];
        e.mean.push_back(summary.mean);
        e.spread.push_back(summary.std);
        e.standardError.push_back(summary.std / std::sqrt(static_cast<double>(repetitions)));
      }
    }
  };
  GridRows rows{{&result.features}, [&] { context.publishPartialResult(result); }};
  for (GramEstimatorErrors& e : result.estimators)
    rows.columns.insert(rows.columns.end(), {&e.mean, &e.spread, &e.standardError});
  CellGrid grid;
  grid.rows = settings.features.size();
  grid.cellsPerRow = estimators * repetitions;
  grid.distributable = true;
  computed.status = runCellGrid(context, grid, work, rows);
  return computed;
}

Presentation GramFrobenius::present(const GramFrobeniusSettings& settings,
                                    const GramFrobeniusResult& result) const {
  Presentation shown;
  Table& table = shown.table;
  table.hints.title = "Gram-matrix error, " + std::to_string(settings.points) + " " +
                      settings.regime.chosen->info().id +
                      " points, d = " + std::to_string(settings.dimension) +
                      ", σ = " + formatParameterValue(settings.sigma);
  table.hints.xColumn = "features";
  table.hints.xLabel = "random features M";
  table.hints.yLabel = "Σ (K - K̂)², mean ± std of the mean";
  table.hints.xShortLabel = "M";
  table.hints.yShortLabel = "Σ (K - K̂)²";
  table.addColumn("features", "random features M", result.features);
  for (const GramEstimatorErrors& e : result.estimators) {
    // Columns named by coupling alone when there is one mechanism; legends by what differs.
    const std::string name =
        settings.mechanisms.size() > 1 ? e.series.name : couplingName(e.series.coupling);
    const BandColumns band = addBandSeries(table, e.key, name,
                                           {" mean error", " std over repetitions",
                                            " mean - std of the mean", " mean + std of the mean"},
                                           e.series.colorKey, SeriesStyle::Line);
    table.hints.series[band.series].label = e.series.label;
    for (std::size_t row = 0; row < e.mean.size(); ++row)
      band.append(table, e.mean[row], e.spread[row], e.mean[row] - e.standardError[row],
                  e.mean[row] + e.standardError[row]);
  }
  return shown;
}

}  // namespace rfscope
