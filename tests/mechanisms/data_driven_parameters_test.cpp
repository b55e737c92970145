// Data-driven parameters (CRT eqs. 8, 12, 14) and the numerical GERF optimum.

#include <gtest/gtest.h>

#include <cmath>
#include <variant>

#include "core/mechanisms/data_driven_parameters.h"
#include "core/mechanisms/discrete_rf.h"
#include "core/mechanisms/gerf.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/mechanisms/oprf.h"
#include "core/random/philox_stream.h"

namespace rfscope {
namespace {

std::vector<Eigen::VectorXd> gaussianSet(std::uint64_t stream, int count, int d, double sigma,
                                         double shift) {
  PhiloxStream rng(5, stream);
  std::vector<Eigen::VectorXd> set(count, Eigen::VectorXd(d));
  for (auto& v : set)
    for (int l = 0; l < d; ++l)
      v[l] = shift + sigma * rng.normal();
  return set;
}

TEST(DataDrivenParameters, StatisticsEqualBruteForcePairAverages) {
  const auto xs = gaussianSet(1, 30, 7, 0.8, 0.2), ys = gaussianSet(2, 20, 7, 0.5, -0.1);
  const SetStatistics s = setStatistics(xs, ys);
  double sum = 0, diff = 0, pois = 0;
  Eigen::VectorXd absProducts = Eigen::VectorXd::Zero(7);
  for (const auto& x : xs)
    for (const auto& y : ys) {
      sum += (x + y).squaredNorm();
      diff += (x - y).squaredNorm();
      pois += x.cwiseProduct(y).squaredNorm();
      absProducts += x.cwiseProduct(y).cwiseAbs();
    }
  const double pairs = 600;
  EXPECT_NEAR(s.meanSumNormSquared, sum / pairs, 1e-12 * sum / pairs);
  EXPECT_NEAR(s.meanDiffNormSquared, diff / pairs, 1e-12 * diff / pairs);
  EXPECT_NEAR(s.meanPoisStatistic, pois / pairs, 1e-12 * pois / pairs);
  EXPECT_LT((s.meanAbsProducts - absProducts / pairs).norm(), 1e-12);
}

TEST(DataDrivenParameters, OnePairGivesThePerPairOptima) {
  const auto xs = gaussianSet(3, 1, 16, 0.4, 0.0), ys = gaussianSet(4, 1, 16, 0.4, 0.0);
  const SetStatistics s = setStatistics(xs, ys);
  const PairInput pair(xs[0], ys[0]);
  const auto used = [&](const char* id) {
    return findMechanism(id)->logVariance(pair, ParameterSet()).parametersUsed;
  };
  EXPECT_NEAR(dataDrivenOprfA(s), used("oprf").real("A"), 1e-14);
  EXPECT_NEAR(dataDrivenPoisLambda(s), used("pois").real("lambda"), 1e-14);
  EXPECT_NEAR(dataDrivenGeomP(s), used("geom").real("p"), 1e-6);
}

TEST(DataDrivenParameters, OfOnePairAreThatPairsOptima) {
  // With a single pair the averages are the pair's own quantities, so every mechanism's data-driven
  // parameters are its per-pair optimum (the positive variants after the same shift).
  const auto xs = gaussianSet(9, 1, 16, 0.6, 0.1), ys = gaussianSet(10, 1, 16, 0.6, -0.2);
  const PairInput pair(xs[0], ys[0]);
  for (const char* id : {"gerf", "oprf", "pois", "geom", "pois-plus", "geom-plus"}) {
    const Mechanism& mechanism = *findMechanism(id);
    const ParameterSet chosen = dataDrivenParameters(mechanism, xs, ys);
    const ParameterSet optimum = mechanism.logVariance(pair, ParameterSet()).parametersUsed;
    ASSERT_FALSE(chosen.values().empty()) << id;
    for (const auto& [key, value] : chosen.values()) {
      if (std::holds_alternative<double>(value))
        EXPECT_NEAR(std::get<double>(value), optimum.real(key), 1e-6) << id << " " << key;
      else
        EXPECT_EQ(value, *optimum.find(key)) << id << " " << key;
    }
    EXPECT_NEAR(mechanism.logVariance(pair, chosen).logVariance.value(),
                mechanism.logVariance(pair, optimum).logVariance.value(), 1e-9)
        << id;
  }
  for (const char* id : {"trig", "pos", "pos-hyp"})
    EXPECT_TRUE(dataDrivenParameters(*findMechanism(id), xs, ys).values().empty()) << id;
}

TEST(ScalableStatistics, EqualTheStatisticsOfTheScaledAndShiftedSets) {
  const auto xs = gaussianSet(11, 12, 9, 0.7, 0.3), ys = gaussianSet(12, 12, 9, 0.4, -0.2);
  const ScalableStatistics scalable(xs, ys);
  auto expectEqual = [](const SetStatistics& a, const SetStatistics& b) {
    auto near = [](double u, double v) { EXPECT_NEAR(u, v, 1e-13 * (1 + std::abs(v))); };
    EXPECT_EQ(a.dimension, b.dimension);
    near(a.meanXNormSquared, b.meanXNormSquared);
    near(a.meanYNormSquared, b.meanYNormSquared);
    near(a.meanSumNormSquared, b.meanSumNormSquared);
    near(a.meanDiffNormSquared, b.meanDiffNormSquared);
    near(a.meanPoisStatistic, b.meanPoisStatistic);
    ASSERT_EQ(a.meanAbsProducts.size(), b.meanAbsProducts.size());
    for (Eigen::Index l = 0; l < a.meanAbsProducts.size(); ++l)
      near(a.meanAbsProducts[l], b.meanAbsProducts[l]);
  };
  for (const double sigma : {0.05, 1.0, 3.0}) {
    std::vector<Eigen::VectorXd> scaledXs, scaledYs, shiftedXs(xs.size()), shiftedYs(ys.size());
    for (std::size_t i = 0; i < xs.size(); ++i) {
      scaledXs.push_back(sigma * xs[i]);
      scaledYs.push_back(sigma * ys[i]);
      positiveShift(scaledXs[i], scaledYs[i], 0.1, shiftedXs[i], shiftedYs[i]);
    }
    expectEqual(scalable.at(sigma), setStatistics(scaledXs, scaledYs));
    expectEqual(scalable.shiftedAt(sigma, 0.1), setStatistics(shiftedXs, shiftedYs));
  }
}

TEST(DataDrivenParameters, OprfWithAGivenAIsThatGerf) {
  // The data-driven A of OPRF is evaluated by OPRF's own closed form: GERF with real A, s = +1.
  const auto xs = gaussianSet(13, 3, 12, 0.9, 0.1), ys = gaussianSet(14, 3, 12, 0.9, 0.0);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const PairInput pair(xs[i], ys[i]);
    for (const double a : {-3.0, -0.2, -0.01, 0.0}) {
      ParameterSet oprf, gerf;
      oprf.set("A", a);
      gerf.set("A", a);
      gerf.set("A_imag", 0.0);
      gerf.set("s", std::string("+1"));
      const double expected = findMechanism("gerf")->logVariance(pair, gerf).logVariance.value();
      EXPECT_NEAR(findMechanism("oprf")->logVariance(pair, oprf).logVariance.value(), expected,
                  1e-12 * (1 + std::abs(expected)))
          << "A = " << a;
    }
  }
}

TEST(GerfOptimum, NormalRegimeLandsOnOprf) {
  // Math notes: at σ = 1, d = 64 (normal regime) the optimum over complex A and s is s = +1,
  // real A = A*: GERF's optimum equals OPRF. Checked per pair and for the data-driven optimum.
  const auto xs = gaussianSet(5, 8, 64, 1.0, 0.0), ys = gaussianSet(6, 8, 64, 1.0, 0.0);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const PairInput pair(xs[i], ys[i]);
    const VarianceResult gerf = findMechanism("gerf")->logVariance(pair, ParameterSet());
    const VarianceResult oprf = findMechanism("oprf")->logVariance(pair, ParameterSet());
    EXPECT_EQ(gerf.parametersUsed.choice("s"), "+1");
    EXPECT_NEAR(gerf.parametersUsed.real("A_imag"), 0.0, 1e-6);
    EXPECT_NEAR(gerf.parametersUsed.real("A"), oprf.parametersUsed.real("A"), 1e-6);
    EXPECT_NEAR(*gerf.logVariance, *oprf.logVariance, 1e-9);
  }
  const GerfOptimum optimum = dataDrivenGerf(setStatistics(xs, ys));
  EXPECT_EQ(optimum.s, 1);
  EXPECT_NEAR(optimum.a.imag(), 0.0, 1e-6);
  EXPECT_NEAR(optimum.a.real(), dataDrivenOprfA(setStatistics(xs, ys)), 1e-6);
}

TEST(GerfOptimum, NeverWorseThanItsSpecialCases) {
  // The optimum over (A, s) includes TrigRF (A = 0, s = -1) and OPRF (real A*, s = +1).
  for (double sigma : {0.05, 0.3, 1.5}) {
    const auto xs = gaussianSet(7, 4, 8, sigma, 0.0), ys = gaussianSet(8, 4, 8, sigma, 0.0);
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const PairInput pair(xs[i], ys[i]);
      const double gerf = findMechanism("gerf")->logVariance(pair, {}).logVariance.value();
      EXPECT_LE(gerf, findMechanism("oprf")->logVariance(pair, {}).logVariance.value() + 1e-12);
      EXPECT_LE(gerf, findMechanism("trig")->logVariance(pair, {}).logVariance.value() + 1e-12);
    }
  }
}

}  // namespace
}  // namespace rfscope
