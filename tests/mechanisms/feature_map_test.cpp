// Feature maps (core/mechanisms/feature_map.h) of every mechanism:
//   - at a single pair, drawn from the stream of trial t, they give the full Monte Carlo path's
//     trial value (to rounding): this ties every feature map to the validated Monte Carlo;
//   - they are unbiased, with the closed-form variance, inside 99.9% intervals (fixed seeds);
//   - they do not overflow where exp(ωᵀx) does not fit in a double, and stay right in logs;
//   - shapes, symmetry, positivity, determinism and independence of the rows.

#include "core/mechanisms/feature_map.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/analytic/analytic_variance.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/montecarlo/sampling_plan.h"
#include "core/params/invalid_parameter.h"
#include "core/random/philox_stream.h"
#include "core/random/trial_stream.h"

namespace rfscope {
namespace {

constexpr std::uint64_t kSeed = 17;

Eigen::MatrixXd gaussianRows(std::uint64_t stream, Eigen::Index rows, int d, double sigma,
                             double shift = 0) {
  PhiloxStream rng(9, stream);
  Eigen::MatrixXd x(rows, d);
  for (Eigen::Index i = 0; i < rows; ++i)
    for (int l = 0; l < d; ++l)
      x(i, l) = shift + sigma * rng.normal();
  return x;
}

// The parameter sets each mechanism is checked with: its automatic optima, and explicit values
// that reach the other branches (GERF with s = -1 and complex A, shared hybrids).
std::vector<ParameterSet> parameterVariants(const Mechanism& mechanism) {
  std::vector<ParameterSet> variants{ParameterSet()};
  const auto has = [&](const std::string& key) {
    for (const auto& spec : mechanism.parameters())
      if (spec.key == key) return true;
    return false;
  };
  if (has("A_imag")) {
    ParameterSet trigLike, complexPositive;
    trigLike.set("A", 0.05);
    trigLike.set("A_imag", 0.1);
    trigLike.set("s", std::string("-1"));
    complexPositive.set("A", -0.2);
    complexPositive.set("A_imag", 0.3);
    complexPositive.set("s", std::string("+1"));
    variants.push_back(trigLike);
    variants.push_back(complexPositive);
  }
  if (has("dense_a")) {
    ParameterSet dense;
    dense.set("dense_a", true);
    variants.push_back(dense);
  }
  if (has("shared")) {
    ParameterSet shared;
    shared.set("shared", true);
    shared.set("n", std::int64_t{3});
    variants.push_back(shared);
  }
  return variants;
}

std::string describe(const Mechanism& m, Coupling c, Kernel k, const ParameterSet& p) {
  std::string out = m.info().id + " / " + couplingId(c) + " / " + std::string(kernelId(k));
  for (const auto& [key, value] : p.values())
    out += " " + key + "=" + formatParameterValue(value);
  return out;
}

FeatureMapSpec specFor(const MonteCarloRequest& request, const ParameterSet& resolved) {
  FeatureMapSpec spec;
  spec.kernel = request.kernel;
  spec.coupling = request.coupling;
  spec.features = request.features;
  spec.dimension = static_cast<int>(request.x.size());
  spec.parameters = resolved;
  if (resolved.contains("epsilon"))  // the positive variants: one pair, so the pair's own shift
    spec.shift =
        positiveShift(request.x.transpose(), request.y.transpose(), resolved.real("epsilon"));
  return spec;
}

// The full-path request for 32 features of `id` at the pair (x, y) (first rows), seed kSeed.
MonteCarloRequest fullPathRequest(const char* id, Kernel kernel, const Eigen::MatrixXd& x,
                                  const Eigen::MatrixXd& y) {
  MonteCarloRequest request;
  request.mechanism = findMechanism(id);
  request.kernel = kernel;
  request.features = 32;
  request.x = x.row(0).transpose();
  request.y = y.row(0).transpose();
  request.seed = kSeed;
  request.path = SamplingPath::Full;
  return request;
}

// K̂ of the feature map and of the trial, each relative to Σ_k |q_k k_k| (their common scale): a
// cancelling sum (TrigRF, complex GERF) is compared to rounding of its terms, not of its result.
void expectSameEstimate(const FeatureMatrix& q, const FeatureMatrix& k, const SignedLog& trial,
                        const std::string& label) {
  Eigen::MatrixXi sign;
  const double logEstimate = logKernelEstimates(q, k, &sign)(0, 0);
  FeatureMatrix absQ{q.values.cwiseAbs(), q.logScale}, absK{k.values.cwiseAbs(), k.logScale};
  const double logScale = logKernelEstimates(absQ, absK)(0, 0);
  ASSERT_TRUE(std::isfinite(logScale)) << label;
  const double mapped = sign(0, 0) == 0 ? 0.0 : sign(0, 0) * std::exp(logEstimate - logScale);
  const double sampled = trial.sign == 0 ? 0.0 : trial.sign * std::exp(trial.logAbs - logScale);
  EXPECT_NEAR(mapped, sampled, 1e-11) << label;
}

// ---- Feature maps equal the full Monte Carlo path, trial by trial ----

TEST(FeatureMap, EqualsTheFullMonteCarloTrialForEveryMechanismAndCoupling) {
  int compared = 0;
  for (const int d : {5, 8}) {
    const Eigen::MatrixXd x = gaussianRows(1, 1, d, 0.45), y = gaussianRows(2, 1, d, 0.45);
    for (const Mechanism* mechanism : allMechanisms())
      for (const ParameterSet& parameters : parameterVariants(*mechanism))
        for (const CouplingInfo& coupling : allCouplings())
          for (const Kernel kernel : {Kernel::Gaussian, Kernel::Softmax}) {
            MonteCarloRequest request;
            request.mechanism = mechanism;
            request.kernel = kernel;
            request.coupling = coupling.coupling;
            request.features = 7;
            request.parameters = parameters;
            request.x = x.row(0).transpose();
            request.y = y.row(0).transpose();
            request.trials = 3;
            request.seed = kSeed;
            request.path = SamplingPath::Full;
            const std::string label = describe(*mechanism, coupling.coupling, kernel, parameters);
            const auto plan = makeSamplingPlan(request);
            const FeatureMapSpec spec = specFor(request, plan ? plan->parametersUsed : parameters);
            TrialScratch scratch;
            for (std::uint64_t t = 0; t < 3; ++t) {
              TrialStream stream(kSeed, t);
              if (!plan) {  // what Monte Carlo does not sample has no feature map either
                EXPECT_FALSE(mechanism->drawFeatureMap(spec, stream))
                    << label << ": " << plan.reason();
                break;
              }
              const auto map = mechanism->drawFeatureMap(spec, stream);
              ASSERT_TRUE(map) << label << ": " << map.reason();
              expectSameEstimate((*map)->queries(x), (*map)->keys(y),
                                 sampleTrial(*plan, t, scratch),
                                 label + " trial " + std::to_string(t));
              ++compared;
            }
          }
  }
  EXPECT_GT(compared, 500);
}

TEST(FeatureMap, EqualsTheTrialWhereExpOfTheProjectionsOverflows) {
  // |x|² ≈ 50 under the softmax kernel, and σ so large that exp(ωᵀx) > 1e308 (|ωᵀx| in the
  // thousands): the features stay bounded with a large log-scale, and K̂ in logs is the trial's.
  // At σ = 300 the features of one row span more than a double's range, so the pair is a close
  // one (y = x + δ), whose largest terms share their ω (see feature_map.h on flushed entries).
  const int d = 16;
  for (const double sigma : {1.77, 300.0}) {
    const Eigen::MatrixXd x = gaussianRows(3, 1, d, sigma);
    const Eigen::MatrixXd y = sigma < 100 ? gaussianRows(4, 1, d, sigma)
                                          : Eigen::MatrixXd(x + gaussianRows(4, 1, d, 0.5));
    for (const char* id : {"pos", "oprf", "pos-hyp", "gerf", "trig", "hybrid-angular"})
      for (const Kernel kernel : {Kernel::Gaussian, Kernel::Softmax}) {
        const MonteCarloRequest request = fullPathRequest(id, kernel, x, y);
        const std::string label =
            std::string(id) + " σ = " + std::to_string(sigma) + " " + std::string(kernelId(kernel));
        const auto plan = makeSamplingPlan(request);
        ASSERT_TRUE(plan) << label;
        TrialStream stream(kSeed, 0);
        const auto map =
            request.mechanism->drawFeatureMap(specFor(request, plan->parametersUsed), stream);
        ASSERT_TRUE(map) << label;
        const FeatureMatrix q = (*map)->queries(x), k = (*map)->keys(y);
        for (const FeatureMatrix* f : {&q, &k}) {
          EXPECT_TRUE(f->values.allFinite()) << label;
          EXPECT_LE(f->values.cwiseAbs().maxCoeff(), 1.0 + 1e-12) << label;
          EXPECT_TRUE(f->logScale.allFinite()) << label;
        }
        TrialScratch scratch;
        const SignedLog trial = sampleTrial(*plan, 0, scratch);
        Eigen::MatrixXi sign;
        const double logEstimate = logKernelEstimates(q, k, &sign)(0, 0);
        EXPECT_EQ(sign(0, 0), trial.sign) << label;
        EXPECT_NEAR(logEstimate, trial.logAbs, 1e-9 * (1 + std::abs(trial.logAbs))) << label;
      }
  }
}

TEST(FeatureMap, RowScalesBeyondCodyWaitesRangeStayFiniteAndExact) {
  // Entries ~1e6 (|x| ≈ 4e6, exponents ~1e13 under the softmax kernel): a row's scale is far
  // beyond k·ln 2 with an int k (2^31 steps); it was cast to int regardless (undefined; the
  // attention of such rows came out NaN). The scale is then the row's largest exponent itself,
  // and K̂ in logs still the trial's at a close pair.
  const int d = 16;
  const Eigen::MatrixXd x = gaussianRows(3, 1, d, 1e6);
  const Eigen::MatrixXd y = x + gaussianRows(4, 1, d, 1e-3);
  for (const char* id : {"pos", "oprf", "pos-hyp"}) {
    const MonteCarloRequest request = fullPathRequest(id, Kernel::Softmax, x, y);
    const auto plan = makeSamplingPlan(request);
    ASSERT_TRUE(plan) << id;
    TrialStream stream(kSeed, 0);
    const auto map =
        request.mechanism->drawFeatureMap(specFor(request, plan->parametersUsed), stream);
    ASSERT_TRUE(map) << id;
    const FeatureMatrix q = (*map)->queries(x), k = (*map)->keys(y);
    for (const FeatureMatrix* f : {&q, &k}) {
      EXPECT_TRUE(f->values.allFinite()) << id;
      // The largest entry is the 1/√M normaliser (with the scale, e^0 of the largest exponent).
      EXPECT_EQ(f->values.cwiseAbs().maxCoeff(), 1 / std::sqrt(double(f->values.cols()))) << id;
      ASSERT_TRUE(f->logScale.allFinite()) << id;
      EXPECT_GT(std::abs(f->logScale[0]), 1e6) << id;
    }
    TrialScratch scratch;
    const SignedLog trial = sampleTrial(*plan, 0, scratch);
    Eigen::MatrixXi sign;
    const double logEstimate = logKernelEstimates(q, k, &sign)(0, 0);
    EXPECT_EQ(sign(0, 0), 1) << id;
    // The exponents themselves carry |e|·2^-53 ≈ 1e-3 of rounding at |e| ≈ 1e13.
    EXPECT_NEAR(logEstimate, trial.logAbs, 1e-14 * std::abs(trial.logAbs)) << id;
  }
}

// ---- Unbiased, with the closed-form variance ----

struct Moments {
  Eigen::ArrayXd mean, variance, varianceError;  // per pair; varianceError: standard error
};

// K̂ at the pairs (x_i, y_i) over `draws` independent draws of the feature map.
Moments sampleMoments(const Mechanism& mechanism, const FeatureMapSpec& spec,
                      const Eigen::MatrixXd& x, const Eigen::MatrixXd& y, int draws) {
  const Eigen::Index pairs = x.rows();
  Eigen::MatrixXd values(draws, pairs);
  for (int t = 0; t < draws; ++t) {
    TrialStream stream(kSeed + 1, static_cast<std::uint64_t>(t));
    const auto map = mechanism.drawFeatureMap(spec, stream);
    values.row(t) = kernelEstimates((*map)->queries(x), (*map)->keys(y)).diagonal().transpose();
  }
  Moments m;
  m.mean = values.colwise().mean().transpose().array();
  const Eigen::MatrixXd centred = values.rowwise() - m.mean.matrix().transpose();
  m.variance = centred.array().square().colwise().sum().transpose() / (draws - 1);
  const Eigen::ArrayXd fourth = centred.array().pow(4).colwise().mean().transpose();
  m.varianceError = ((fourth - m.variance.square()) / draws).sqrt();
  return m;
}

TEST(FeatureMap, IsUnbiasedWithTheClosedFormVariance) {
  constexpr double kZ = 3.29;  // two-sided 99.9%
  constexpr int kDraws = 6000;
  const int d = 4;
  const Eigen::MatrixXd x = gaussianRows(5, 3, d, 0.4), y = gaussianRows(6, 3, d, 0.4);
  struct Case {
    const char* id;
    Coupling coupling;
    std::int64_t features;
    Kernel kernel;
  };
  for (const Case& c : {Case{"trig", Coupling::Iid, 1, Kernel::Gaussian},
                        Case{"trig", Coupling::Orthogonal, 4, Kernel::Gaussian},
                        Case{"trig-phase", Coupling::Iid, 1, Kernel::Gaussian},
                        Case{"trig-phase", Coupling::Orthogonal, 4, Kernel::Softmax},
                        Case{"pos", Coupling::Iid, 2, Kernel::Softmax},
                        Case{"pos", Coupling::Simplex, 4, Kernel::Gaussian},
                        Case{"pos-hyp", Coupling::Iid, 1, Kernel::Gaussian},
                        Case{"oprf", Coupling::Iid, 1, Kernel::Softmax},
                        Case{"gerf", Coupling::Iid, 1, Kernel::Gaussian},
                        Case{"pois", Coupling::Iid, 1, Kernel::Gaussian},
                        Case{"geom", Coupling::Iid, 1, Kernel::Gaussian},
                        Case{"hybrid-angular", Coupling::Iid, 1, Kernel::Softmax},
                        Case{"hybrid-gaussian", Coupling::Iid, 1, Kernel::Gaussian}}) {
    const Mechanism& mechanism = *findMechanism(c.id);
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
      // Each pair with its own optimum (a mismatched λ gives PoisRF tails too heavy for an
      // interval on the variance).
      const Eigen::VectorXd xi = x.row(i).transpose(), yi = y.row(i).transpose();
      FeatureMapSpec spec;
      spec.kernel = c.kernel;
      spec.coupling = c.coupling;
      spec.features = c.features;
      spec.dimension = d;
      spec.parameters = resolveParameters(mechanism, PairInput(xi, yi), {});
      const Moments m = sampleMoments(mechanism, spec, x.row(i), y.row(i), kDraws);
      EstimatorSpec estimator;
      estimator.mechanism = &mechanism;
      estimator.kernel = c.kernel;
      estimator.coupling = c.coupling;
      estimator.features = c.features;
      estimator.parameters = spec.parameters;
      const AnalyticAnswer exact = evaluateAnalytic(estimator, xi, yi);
      ASSERT_TRUE(exact.variance) << c.id << ": " << exact.variance.reason();
      const double kernel = std::exp(exact.logKernelValue);
      const double variance = std::exp(exact.variance->logVariance);
      const std::string label =
          std::string(c.id) + " / " + couplingId(c.coupling) + " pair " + std::to_string(i);
      EXPECT_NEAR(m.mean[0], kernel, kZ * std::sqrt(variance / kDraws)) << label;
      EXPECT_NEAR(m.variance[0], variance, kZ * m.varianceError[0]) << label;
    }
  }
}

// ---- Shapes, symmetry, positivity, determinism ----

Eigen::Index expectedWidth(const Mechanism& mechanism, const ParameterSet& resolved,
                           std::int64_t m) {
  const std::string& id = mechanism.info().id;
  const std::int64_t n = resolved.contains("n") ? resolved.integer("n") : 0;
  if (id == "hybrid-angular") return m * (4 + 4 * n);
  if (id == "hybrid-gaussian") return m * (2 + 8 * n);
  const bool complexGerf =
      resolved.contains("A_imag") && (resolved.real("A_imag") != 0 || resolved.choice("s") == "-1");
  if (id == "trig" || id == "pos-hyp" || complexGerf) return 2 * m;
  return m;
}

TEST(FeatureMap, ShapesSymmetryPositivityAndDeterminism) {
  const int d = 6;
  const std::int64_t m = 9;
  const Eigen::MatrixXd x = gaussianRows(7, 11, d, 0.5, 0.3), y = gaussianRows(8, 4, d, 0.5, 0.3);
  for (const Mechanism* mechanism : allMechanisms())
    for (const ParameterSet& parameters : parameterVariants(*mechanism)) {
      const Eigen::VectorXd x0 = x.row(0).transpose(), y0 = y.row(0).transpose();
      FeatureMapSpec spec;
      spec.features = m;
      spec.dimension = d;
      spec.parameters = resolveParameters(*mechanism, PairInput(x0, y0), parameters);
      if (spec.parameters.contains("epsilon")) spec.shift = positiveShift(x, y, 0.1);
      const std::string label = describe(*mechanism, Coupling::Iid, Kernel::Gaussian, parameters);
      TrialStream stream(kSeed, 5), again(kSeed, 5);
      const auto map = mechanism->drawFeatureMap(spec, stream);
      const auto same = mechanism->drawFeatureMap(spec, again);
      ASSERT_TRUE(map && same) << label;
      const FeatureMap& f = **map;
      EXPECT_EQ(f.width(), expectedWidth(*mechanism, spec.parameters, m)) << label;
      const FeatureMatrix q = f.queries(x), k = f.keys(y);
      EXPECT_EQ(q.values.rows(), x.rows());
      EXPECT_EQ(q.values.cols(), f.width());
      EXPECT_EQ(q.logScale.size(), x.rows());
      EXPECT_EQ(k.values.rows(), y.rows());
      EXPECT_EQ(k.values.cols(), f.width());
      EXPECT_LE(q.values.cwiseAbs().maxCoeff(), 1.0 + 1e-12) << label;
      // The same stream draws the same map; rows do not depend on the other rows.
      EXPECT_EQ((*same)->queries(x).values, q.values) << label;
      const FeatureMatrix top = f.queries(x.topRows(4)), bottom = f.queries(x.bottomRows(7));
      EXPECT_EQ(top.values, q.values.topRows(4)) << label;
      EXPECT_EQ(bottom.values, q.values.bottomRows(7)) << label;
      EXPECT_EQ(bottom.logScale, q.logScale.tail(7)) << label;
      if (f.symmetric()) {
        EXPECT_EQ(f.keys(x).values, q.values) << label;
      } else {
        EXPECT_NE(f.keys(x).values, q.values) << label;
      }
      if (mechanism->info().positive) {
        EXPECT_GE(q.values.minCoeff(), 0.0) << label;
        EXPECT_GE(k.values.minCoeff(), 0.0) << label;
      }
      if (mechanism->info().bounded && !mechanism->info().positive) {  // TrigRF: |f| ≤ 1 as is
        EXPECT_EQ(q.logScale, Eigen::VectorXd::Zero(x.rows())) << label;
      }
    }
}

TEST(FeatureMap, EstimatesCombineFeaturesAndScales) {
  FeatureMatrix q{Eigen::MatrixXd(2, 2), Eigen::VectorXd(2)},
      k{Eigen::MatrixXd(1, 2), Eigen::VectorXd(1)};
  q.values << 0.5, -0.25, 1.0, 0.0;
  q.logScale << 3 * std::log(2.0), 700.0;
  k.values << 0.5, 1.0;
  k.logScale << -2 * std::log(2.0);
  const Eigen::MatrixXd plain = kernelEstimates(q, k);
  EXPECT_EQ(plain(0, 0), 0.0);  // (0.25 - 0.25) · 2
  EXPECT_EQ(plain(1, 0), std::exp(700.0 - 2 * std::log(2.0)) * 0.5);
  Eigen::MatrixXi sign;
  const Eigen::MatrixXd logs = logKernelEstimates(q, k, &sign);
  EXPECT_EQ(sign(0, 0), 0);
  EXPECT_EQ(sign(1, 0), 1);
  EXPECT_NEAR(logs(1, 0), 700.0 - 3 * std::log(2.0), 1e-12);
}

TEST(FeatureMap, PositiveVariantsNeedTheirShift) {
  FeatureMapSpec spec;
  spec.dimension = 3;
  spec.parameters.set("lambda", 0.5);
  spec.parameters.set("epsilon", 0.1);
  TrialStream stream(kSeed, 0);
  EXPECT_THROW(findMechanism("pois-plus")->drawFeatureMap(spec, stream), InvalidParameter);
  spec.shift = Eigen::VectorXd::Constant(3, -1.0);
  EXPECT_TRUE(findMechanism("pois-plus")->drawFeatureMap(spec, stream));
}

}  // namespace
}  // namespace rfscope

namespace rfscope {
namespace {

// PoisRF+ and GeomRF+ maps shift every point by ONE data-wide c (classification uses this), not by
// each pair's own min(x, y) - ε as their closed forms do. Their estimate at a pair is then PoisRF
// (GeomRF) at (x - c, y - c), whose variance is that mechanism's closed form there: the mean over
// many draws must lie in the 99.9% interval around K that this variance gives. The set spreads
// over ±3 standard deviations, so the shift is several times the pair's own (heavier tails).
TEST(FeatureMap, DataWideShiftKeepsPositiveDiscreteMapsUnbiased) {
  const int d = 3;
  const std::int64_t m = 32, draws = 4000;
  const Eigen::MatrixXd set = gaussianRows(21, 40, d, 0.35);
  const Eigen::VectorXd c = positiveShift(set, set, 0.1);
  const Eigen::VectorXd x = set.row(0).transpose(), y = set.row(1).transpose();
  const double kernel = std::exp(-0.5 * (x - y).squaredNorm());
  struct Case {
    const char* plus;
    const char* plain;
    const char* key;
    double value;
  };
  for (const Case& k :
       {Case{"pois-plus", "pois", "lambda", 0.6}, Case{"geom-plus", "geom", "p", 0.5}}) {
    const Mechanism& mechanism = *findMechanism(k.plus);
    ParameterSet parameters;
    parameters.set("epsilon", 0.1);
    parameters.set(k.key, k.value);
    FeatureMapSpec spec;
    spec.features = m;
    spec.dimension = d;
    spec.parameters = resolveParameters(mechanism, PairInput(x, y), parameters);
    spec.shift = c;
    double sum = 0;
    for (std::int64_t t = 0; t < draws; ++t) {
      TrialStream stream(kSeed, static_cast<std::uint64_t>(t));
      const auto map = mechanism.drawFeatureMap(spec, stream);
      ASSERT_TRUE(map) << k.plus;
      sum += kernelEstimates((*map)->queries(x.transpose()), (*map)->keys(y.transpose()))(0, 0);
    }
    ParameterSet plainParameters;
    plainParameters.set(k.key, k.value);
    const Eigen::VectorXd xs = x - c, ys = y - c;
    const auto logVariance =
        findMechanism(k.plain)->logVariance(PairInput(xs, ys), plainParameters).logVariance;
    ASSERT_TRUE(logVariance) << k.plain;
    const double standardError = std::sqrt(std::exp(*logVariance) / static_cast<double>(m * draws));
    // Heavy tails, but a finite and resolvable variance here (relative standard error ~ 1%).
    EXPECT_LT(standardError, 0.05 * kernel) << k.plus;
    EXPECT_NEAR(sum / static_cast<double>(draws), kernel, 3.29 * standardError) << k.plus;
  }
}

}  // namespace
}  // namespace rfscope
