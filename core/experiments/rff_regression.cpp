#include "core/experiments/rff_regression.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>

#include "core/couplings/frequencies.h"
#include "core/data/train_test_data.h"
#include "core/data/uci_datasets.h"
#include "core/experiments/cell_runner.h"
#include "core/experiments/classification_dataset.h"
#include "core/experiments/common_parameters.h"
#include "core/experiments/experiment_support.h"
#include "core/params/invalid_parameter.h"
#include "core/random/trial_stream.h"

namespace rfscope {
namespace {

using FeatureKind = FourierFeatureKind;
constexpr FeatureKind kKinds[] = {FeatureKind::SinCos, FeatureKind::RandomPhase};
const char* kindColour(FeatureKind kind) {
  return kind == FeatureKind::SinCos ? "trig" : "pos";
}
const char* kindId(FeatureKind kind) {
  return kind == FeatureKind::SinCos ? "sincos" : "phase";
}
const char* kindName(FeatureKind kind) {
  return kind == FeatureKind::SinCos ? "sin/cos pairs" : "random phases";
}

// The toy set: 20 points of sin(1.5x) + 0.1·N(0, 1), x uniform on [-3, 3]; the grid [-4, 4].
constexpr int kToyPoints = 20;
constexpr double kToyNoise = 0.1;
constexpr int kToyGrid = 201;
double toyTruth(double x) {
  return std::sin(1.5 * x);
}

// φ of the rows of x (inputs already scaled by σ): rows × budget, φ(x)ᵀφ(y) an unbiased estimate
// of exp(-|x - y|²/2).
Eigen::MatrixXd fourierFeatures(FeatureKind kind, const Eigen::MatrixXd& x, std::int64_t budget,
                                TrialStream& stream) {
  const auto d = static_cast<int>(x.cols());
  const double scale = std::sqrt(2.0 / static_cast<double>(budget));
  Eigen::MatrixXd phi(x.rows(), budget);
  if (kind == FeatureKind::SinCos) {
    const std::int64_t pairs = budget / 2;
    const Eigen::MatrixXd projections =
        x * frequencies(Coupling::Iid, d, pairs, stream).transpose();
    phi.leftCols(pairs) = scale * projections.array().cos().matrix();
    phi.rightCols(pairs) = scale * projections.array().sin().matrix();
  } else {
    const Eigen::MatrixXd omega = frequencies(Coupling::Iid, d, budget, stream);
    Eigen::RowVectorXd phases(budget);
    for (std::int64_t k = 0; k < budget; ++k)
      phases(k) = 2 * std::numbers::pi * stream.uniform();
    phi = scale * ((x * omega.transpose()).rowwise() + phases).array().cos().matrix();
  }
  return phi;
}

struct Posterior {
  Eigen::VectorXd mean, sd;  // of the latent function at the test points
};

// Bayesian linear regression on the features, prior w ~ N(0, I), noise variance ν²:
// B = ΦᵀΦ + ν²I, mean = φ*ᵀB⁻¹Φᵀy, var = ν² φ*ᵀB⁻¹φ*.
Posterior weightSpacePosterior(const Eigen::MatrixXd& train, const Eigen::VectorXd& y,
                               const Eigen::MatrixXd& test, double noiseVariance, bool withSd) {
  Eigen::MatrixXd b = train.transpose() * train;
  b.diagonal().array() += noiseVariance;
  const Eigen::LLT<Eigen::MatrixXd> llt(b);
  Posterior posterior;
  posterior.mean = test * llt.solve(train.transpose() * y);
  if (withSd) {
    const Eigen::MatrixXd v = llt.matrixL().solve(test.transpose());
    posterior.sd = (noiseVariance * v.colwise().squaredNorm().transpose()).array().sqrt();
  }
  return posterior;
}

// exp(-|a_i - b_j|²/2), coordinate by coordinate (no cancellation).
Eigen::MatrixXd gaussianKernel(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  Eigen::MatrixXd k(a.rows(), b.rows());
  for (Eigen::Index j = 0; j < b.rows(); ++j)
    for (Eigen::Index i = 0; i < a.rows(); ++i)
      k(i, j) = std::exp(-0.5 * (a.row(i) - b.row(j)).squaredNorm());
  return k;
}

// The exact GP: mean = K*ᵀ(K + ν²I)⁻¹y, var = 1 - K*ᵀ(K + ν²I)⁻¹K*.
Posterior exactPosterior(const Eigen::MatrixXd& train, const Eigen::VectorXd& y,
                         const Eigen::MatrixXd& test, double noiseVariance, bool withSd) {
  Eigen::MatrixXd k = gaussianKernel(train, train);
  k.diagonal().array() += noiseVariance;
  const Eigen::LLT<Eigen::MatrixXd> llt(k);
  const Eigen::MatrixXd cross = gaussianKernel(train, test);
  Posterior posterior;
  posterior.mean = cross.transpose() * llt.solve(y);
  if (withSd) {
    const Eigen::MatrixXd v = llt.matrixL().solve(cross);
    posterior.sd = (1.0 - v.colwise().squaredNorm().transpose().array()).max(0.0).sqrt();
  }
  return posterior;
}

ToyRegressionResult::Posterior values(const Posterior& posterior) {
  return {std::vector<double>(posterior.mean.begin(), posterior.mean.end()),
          std::vector<double>(posterior.sd.begin(), posterior.sd.end())};
}

ToyRegressionResult computeToy(const RffRegressionSettings& settings) {
  TrialStream data(deriveSeed(settings.seed, 0x7079), 0);
  Eigen::MatrixXd x(kToyPoints, 1);
  Eigen::VectorXd y(kToyPoints);
  for (int i = 0; i < kToyPoints; ++i) {
    x(i, 0) = -3 + 6 * data.uniform();
    y(i) = toyTruth(x(i, 0)) + kToyNoise * data.normal();
  }
  Eigen::MatrixXd grid(kToyGrid, 1);
  for (int g = 0; g < kToyGrid; ++g)
    grid(g, 0) = -4 + 8.0 * g / (kToyGrid - 1);
  const double noiseVariance = settings.noise * settings.noise;
  const Eigen::MatrixXd scaledX = settings.sigma * x, scaledGrid = settings.sigma * grid;
  ToyRegressionResult result;
  std::vector<int> order(kToyPoints);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return x(a, 0) < x(b, 0); });
  for (const int i : order) {
    result.trainX.push_back(x(i, 0));
    result.trainY.push_back(y(i));
  }
  result.x.assign(grid.data(), grid.data() + kToyGrid);
  for (int g = 0; g < kToyGrid; ++g)
    result.truth.push_back(toyTruth(grid(g, 0)));
  result.exact = values(exactPosterior(scaledX, y, scaledGrid, noiseVariance, true));
  for (const FeatureKind kind : kKinds) {
    TrialStream stream(deriveSeed(settings.seed, static_cast<std::uint64_t>(kind) + 1), 0);
    const Eigen::MatrixXd phiTrain = fourierFeatures(kind, scaledX, settings.bandFeatures, stream);
    TrialStream same(deriveSeed(settings.seed, static_cast<std::uint64_t>(kind) + 1), 0);
    const Eigen::MatrixXd phiGrid = fourierFeatures(kind, scaledGrid, settings.bandFeatures, same);
    result.kinds.push_back(values(weightSpacePosterior(phiTrain, y, phiGrid, noiseVariance, true)));
  }
  return result;
}

void presentToy(const RffRegressionSettings& settings, const ToyRegressionResult& result,
                Table& table) {
  table.hints.title =
      "GP regression posterior, exact vs D = " + std::to_string(settings.bandFeatures) +
      " random features (" + std::to_string(result.trainX.size()) + " training points)";
  table.hints.xColumn = "x";
  table.hints.xLabel = "x";
  table.hints.yLabel = "posterior mean ± 2 sd of f(x)";
  table.hints.yShortLabel = "f(x)";
  // One x column for the grid and the training points, merged in increasing x: grid columns are
  // empty at training rows and the training column at grid rows (lines skip empty cells).
  std::vector<std::size_t> gridRow, trainRow;
  std::vector<double> x;
  for (std::size_t g = 0, t = 0; g < result.x.size() || t < result.trainX.size();) {
    const bool takeGrid =
        t == result.trainX.size() || (g < result.x.size() && result.x[g] <= result.trainX[t]);
    (takeGrid ? gridRow : trainRow).push_back(x.size());
    x.push_back(takeGrid ? result.x[g++] : result.trainX[t++]);
  }
  const auto spread = [&](const std::vector<std::size_t>& rows, const std::vector<double>& v) {
    std::vector<double> column(x.size(), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t i = 0; i < rows.size(); ++i)
      column[rows[i]] = v[i];
    return column;
  };
  table.addColumn("x", "x", x);
  table.addColumn("training-y", "training targets sin(1.5x) + noise",
                  spread(trainRow, result.trainY));
  table.addColumn("truth", "sin(1.5x)", spread(gridRow, result.truth));
  table.hints.series.push_back(
      {"truth sin(1.5x)", "truth", "", "", "truth", SeriesStyle::Line, "", false});
  const auto addBand = [&](const std::string& key, const std::string& name,
                           const std::string& colour, const ToyRegressionResult::Posterior& p) {
    std::vector<double> low, high;
    for (std::size_t g = 0; g < p.mean.size(); ++g) {
      low.push_back(p.mean[g] - 2 * p.sd[g]);
      high.push_back(p.mean[g] + 2 * p.sd[g]);
    }
    table.addColumn(key + "-mean", name + " posterior mean", spread(gridRow, p.mean));
    table.addColumn(key + "-low", name + " mean - 2 sd", spread(gridRow, low));
    table.addColumn(key + "-high", name + " mean + 2 sd", spread(gridRow, high));
    table.hints.series.push_back(
        {name, key + "-mean", key + "-low", key + "-high", colour, SeriesStyle::Line, "", false});
  };
  addBand("exact", "exact GP", "exact", result.exact);
  for (std::size_t k = 0; k < result.kinds.size(); ++k)
    addBand(kindId(kKinds[k]), kindName(kKinds[k]), kindColour(kKinds[k]), result.kinds[k]);
  // Drawn last, over the bands.
  table.hints.series.push_back(
      {"training points", "training-y", "", "", "data", SeriesStyle::Points, "", false});
}

RunStatus computeAbalone(const RffRegressionSettings& settings,
                         ResultContext<RffRegressionResult>& context, RffRegressionResult& whole) {
  AbaloneRegressionResult& result = whole.emplace<AbaloneRegressionResult>();
  TrainTestData split = splitAndStandardise(
      loadAbaloneRegression(), {.trainFraction = settings.trainFraction, .seed = settings.seed});
  const LabelledDataset train = firstRows(split.train, settings.trainPoints);
  result.trainPoints = static_cast<std::int64_t>(train.size());
  const Eigen::VectorXd& rings = *train.target;
  const double mean = rings.mean();
  const double sd = std::sqrt((rings.array() - mean).square().mean());
  const Eigen::VectorXd y = (rings.array() - mean) / sd;  // the kernel's variance is 1
  const Eigen::MatrixXd x = settings.sigma * train.features;
  const Eigen::MatrixXd test = settings.sigma * split.test.features;
  const Eigen::VectorXd& truth = *split.test.target;
  const double noiseVariance = settings.noise * settings.noise;
  const auto rmse = [&](const Eigen::VectorXd& standardised) {
    return std::sqrt(((mean + sd * standardised.array()) - truth.array()).square().mean());
  };
  const double exact = rmse(exactPosterior(x, y, test, noiseVariance, false).mean);

  const std::size_t repeats = settings.repeats, kinds = std::size(kKinds);
  result.kinds.resize(kinds);
  std::vector<double> errors(settings.features.size() * kinds * repeats);
  CellWork work;
  work.computeCells = [&](std::size_t begin, std::size_t end) {
    for (std::size_t cell = begin; cell != end; ++cell) {
      if (context.cancelled()) return;
      const std::size_t row = cell / (kinds * repeats);
      const std::size_t k = cell / repeats % kinds, r = cell % repeats;
      const std::int64_t budget = settings.features[row];
      const std::uint64_t seed = deriveSeed(settings.seed, k + 1);
      TrialStream trainStream(seed, r), testStream(seed, r);
      const Eigen::MatrixXd phiTrain = fourierFeatures(kKinds[k], x, budget, trainStream);
      const Eigen::MatrixXd phiTest = fourierFeatures(kKinds[k], test, budget, testStream);
      errors[cell] = rmse(weightSpacePosterior(phiTrain, y, phiTest, noiseVariance, false).mean);
    }
  };
  work.commitRows = [&](std::size_t first, std::size_t last) {
    for (std::size_t row = first; row < last; ++row) {
      result.features.push_back(static_cast<double>(settings.features[row]));
      result.exact.push_back(exact);
      for (std::size_t k = 0; k < kinds; ++k) {
        const MeanAndStd s = summarizeFinite(&errors[(row * kinds + k) * repeats], repeats);
        result.kinds[k].mean.push_back(s.mean);
        result.kinds[k].spread.push_back(s.std);
        result.kinds[k].standardError.push_back(s.std / std::sqrt(static_cast<double>(repeats)));
      }
    }
  };
  GridRows rows{{&result.features, &result.exact}, [&] { context.publishPartialResult(whole); }};
  for (AbaloneRegressionResult::Rmse& kind : result.kinds)
    rows.columns.insert(rows.columns.end(), {&kind.mean, &kind.spread, &kind.standardError});
  CellGrid grid;
  grid.rows = settings.features.size();
  grid.cellsPerRow = kinds * repeats;
  grid.distributable = true;  // commitRows writes the result's rows only
  return runCellGrid(context, grid, work, rows);
}

void presentAbalone(const RffRegressionSettings& settings, const AbaloneRegressionResult& result,
                    Table& table) {
  table.hints.title = "GP regression on abalone rings, L = " + std::to_string(result.trainPoints) +
                      ", σ = " + formatParameterValue(settings.sigma) +
                      ", noise = " + formatParameterValue(settings.noise);
  table.hints.xColumn = "features";
  table.hints.xLabel = "feature budget D";
  table.hints.xLog = true;
  table.hints.yLabel = "test RMSE (rings), mean ± std of the mean";
  table.hints.xShortLabel = "D";
  table.hints.yShortLabel = "test RMSE (rings)";
  table.addColumn("features", "feature budget D", result.features);
  table.addColumn("rmse-exact", "exact GP test RMSE", result.exact);
  table.hints.series.push_back(
      {"exact GP", "rmse-exact", "", "", "exact", SeriesStyle::Line, "", false});
  for (std::size_t k = 0; k < result.kinds.size(); ++k) {
    const FeatureKind kind = kKinds[k];
    const BandColumns band = addBandSeries(
        table, std::string("rmse-") + kindId(kind), kindName(kind),
        {" mean RMSE", " std over draws", " mean - std of the mean", " mean + std of the mean"},
        kindColour(kind), SeriesStyle::LineAndPoints);
    const AbaloneRegressionResult::Rmse& e = result.kinds[k];
    for (std::size_t row = 0; row < e.mean.size(); ++row)
      band.append(table, e.mean[row], e.spread[row], e.mean[row] - e.standardError[row],
                  e.mean[row] + e.standardError[row]);
  }
}

}  // namespace

const ExperimentInfo& RffRegression::info() const {
  static const ExperimentInfo info{
      "rff-regression", "GP regression with random Fourier features", "RFF (Rahimi & Recht 2007)",
      "The weight-space view: Bayesian linear regression on random Fourier features against the "
      "exact GP — the posterior band on a 1-D toy set, and test RMSE vs features on abalone; "
      "sin/cos pairs vs random phases at the same feature budget"};
  return info;
}

std::vector<ParameterSpec> RffRegression::parameters() const {
  auto task = choiceParameter(
      "task", "Task", {{"toy", "1-D toy set: posterior band"}, {"abalone", "abalone: RMSE vs D"}},
      "toy", "what to regress");
  auto sigma =
      realParameter("sigma", "σ", 1.0, 0.01, 100, "input scale: kernel exp(-σ²|x-y|²/2)", true);
  auto noise =
      realParameter("noise", "Noise sd", 0.1, 0.001, 10,
                    "noise standard deviation of the model (abalone: in target sds)", true);
  auto fraction = realParameter("train-fraction", "Training fraction", 0.9, 0.01, 0.99,
                                "abalone: share of the points used for training");
  auto points =
      integerParameter("train-points", "Training points", 1000, 10, 4177,
                       "abalone: at most this many training points (the exact GP is O(L³))");
  task.group = sigma.group = noise.group = fraction.group = points.group = "Data";
  auto band = integerParameter("band-features", "Band features D", 10, 2, 10000,
                               "toy: feature budget (even: sin/cos uses D/2 frequencies)");
  auto features = textParameter("features", "Feature budgets", "4,8,16,32,64,128,256",
                                "abalone: feature budgets D, comma-separated, even");
  band.group = features.group = "Estimator";
  auto repeats = integerParameter("repeats", "Repeats", 10, 2, 10000,
                                  "abalone: independent draws of the features per D");
  repeats.group = "Sampling";
  // Each task's own controls only: the toy set has its 20 points and one band; abalone its split
  // and its grid of budgets.
  band.visibleWhenKey = "task";
  band.visibleWhenValues = {"toy"};
  for (ParameterSpec* spec : {&fraction, &points, &features, &repeats}) {
    spec->visibleWhenKey = "task";
    spec->visibleWhenValues = {"abalone"};
  }
  return {task, sigma, noise, fraction, points, band, features, repeats, seedParameter()};
}

ParameterSet RffRegression::testParameters(TestLoad load) const {
  if (load == TestLoad::Light) return Experiment::testParameters(load);
  // Many draws per feature budget: long enough to be cancelled half-way, in short cells.
  return defaultsWith({{"task", std::string("abalone")},
                       {"train-points", std::int64_t{300}},
                       {"repeats", std::int64_t{10000}}});
}

RffRegressionSettings RffRegression::parse(const ParameterSet& params) const {
  RffRegressionSettings s;
  s.task = choiceValue<RegressionTask>(
      params, "task", {{"toy", RegressionTask::Toy}, {"abalone", RegressionTask::Abalone}});
  s.sigma = params.real("sigma");
  s.noise = params.real("noise");
  s.bandFeatures = params.integer("band-features");
  s.features = parseFeatureList(params.choice("features"), "features");
  s.trainPoints = params.integer("train-points");
  s.trainFraction = params.real("train-fraction");
  s.repeats = static_cast<std::size_t>(params.integer("repeats"));
  s.seed = static_cast<std::uint64_t>(params.integer("seed"));
  return s;
}

std::vector<ParameterError> RffRegression::crossValidate(const ParameterSet& params) const {
  if (params.integer("band-features") % 2 != 0)
    return {{"band-features", "parameter 'band-features': must be even (sin/cos pairs)"}};
  try {
    for (const std::int64_t budget : parseFeatureList(params.choice("features"), "features"))
      if (budget % 2 != 0 || budget > 4096)
        return {{"features", "parameter 'features': " + std::to_string(budget) +
                                 " is not an even budget up to 4096"}};
  } catch (const InvalidParameter& e) {
    return {{e.parameter(), e.what()}};
  }
  return {};
}

Computed<RffRegressionResult> RffRegression::compute(
    const RffRegressionSettings& settings, ResultContext<RffRegressionResult>& context) const {
  Computed<RffRegressionResult> computed;
  if (settings.task == RegressionTask::Toy)
    computed.result = computeToy(settings);
  else
    computed.status = computeAbalone(settings, context, computed.result);
  return computed;
}

Presentation RffRegression::present(const RffRegressionSettings& settings,
                                    const RffRegressionResult& result) const {
  Presentation shown;
  if (const auto* toy = std::get_if<ToyRegressionResult>(&result))
    presentToy(settings, *toy, shown.table);
  else
    presentAbalone(settings, std::get<AbaloneRegressionResult>(result), shown.table);
  return shown;
}

}  // namespace rfscope
