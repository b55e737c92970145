// Random-phase Fourier features (trig-phase) against the committed mpmath references
// (tests/reference/trig_phase_references.json, 40 digits): the one-feature variance
// 1 + ½K⁴ - K², the ORF and SimRF cross terms and M-feature variances, and the equal-budget
// comparison with TrigRF's sin/cos pairs.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "core/couplings/trig_orthogonality.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/mechanisms/trig_phase_rf.h"
#include "tests/analytic/reference_data.h"

namespace rfscope {
namespace {

using namespace rfscope::test;

const nlohmann::json& trigPhaseReferences() {
  static const nlohmann::json data = [] {
    std::ifstream in(std::string(RFSCOPE_REFERENCE_DIR) + "/trig_phase_references.json");
    return nlohmann::json::parse(in);
  }();
  return data;
}

// A pair of dimension d at |x - y|² = diff exactly (the geometry given, not recomputed).
struct Pair {
  Eigen::VectorXd x, y;
  PairGeometry geometry;
  Pair(int d, double diff) : x(Eigen::VectorXd::Zero(d)), y(Eigen::VectorXd::Zero(d)) {
    x[0] = std::sqrt(diff);
    geometry = PairGeometry::fromVectors(x, y);
    geometry.diffNormSquared = diff;
  }
  PairInput input() const { return PairInput(x, y, geometry); }
};

TEST(TrigPhaseReference, OneFeatureVarianceMatchesMpmath) {
  const Mechanism& mechanism = *findMechanism("trig-phase");
  const auto& cases = trigPhaseReferences().at("variance");
  ASSERT_GE(cases.size(), 40u);
  double worst = 0;
  for (const auto& c : cases) {
    const Pair pair(c.at("d").get<int>(), c.at("diff").get<double>());
    const VarianceResult r = mechanism.logVariance(pair.input(), {});
    ASSERT_TRUE(r.logVariance);
    const double error = std::abs(*r.logVariance - referenceValue(c.at("log_variance")));
    EXPECT_LE(error, 1e-12) << "d = " << c.at("d") << ", z² = " << c.at("diff");
    worst = std::max(worst, error);
  }
  std::printf("  trig-phase one-feature log variance: max |Δ| %.2e over %zu cases\n", worst,
              cases.size());
}

TEST(TrigPhaseReference, OrthogonalAndSimplexCouplingsMatchMpmath) {
  const Mechanism& mechanism = *findMechanism("trig-phase");
  EXPECT_TRUE(mechanism.hasClosedForm(Coupling::Orthogonal));
  EXPECT_TRUE(mechanism.hasClosedForm(Coupling::Simplex));
  const auto& cases = trigPhaseReferences().at("coupled");
  ASSERT_GE(cases.size(), 20u);
  double worstCovariance = 0, worstLog = 0;
  int compared = 0;
  for (const auto& c : cases) {
    const int d = c.at("d").get<int>();
    const double diff = c.at("diff").get<double>();
    for (const auto& [key, covariance] : {std::pair{"c_orf", trigOrthogonalCovariance(d, diff)},
                                          std::pair{"c_simrf", trigSimplexCovariance(d, diff)}}) {
      const double covarianceError = std::abs(covariance - referenceValue(c.at(key)));
      EXPECT_LE(covarianceError, 1e-12) << key << " d = " << d << ", z² = " << diff;
      worstCovariance = std::max(worstCovariance, covarianceError);
    }
    const Pair pair(d, diff);
    const VarianceResult one = mechanism.logVariance(pair.input(), {});
    for (const Coupling coupling : {Coupling::Iid, Coupling::Orthogonal, Coupling::Simplex}) {
      for (const auto& [m, value] : c.at("log_variance").at(couplingId(coupling)).items()) {
        const std::int64_t features = std::stoll(m);
        const Outcome<CoupledVariance> coupled =
            mechanism.coupledLogVariance(coupling, features, pair.input(), one);
        ASSERT_TRUE(coupled);
        const double logVariance = coupled->logVariance
                                       ? *coupled->logVariance
                                       : *one.logVariance - std::log(double(features));
        const double error = std::abs(logVariance - referenceValue(value));
        EXPECT_LE(error, 1e-10) << couplingId(coupling) << " d = " << d << ", z² = " << diff
                                << ", M = " << m;
        worstLog = std::max(worstLog, error);
        ++compared;
      }
    }
  }
  EXPECT_GE(compared, 60);
  std::printf(
      "  ORF/SimRF cross terms max |Δ| %.2e; M-feature log variance max |Δ| %.2e (%d values)\n",
      worstCovariance, worstLog, compared);
}

TEST(TrigPhaseReference, SinCosPairsAreNeverWorseAtAnEqualBudget) {
  // D numbers: D/2 TrigRF frequencies (a sin/cos pair each) against D random phases.
  const Mechanism& trig = *findMechanism("trig");
  const Mechanism& phase = *findMechanism("trig-phase");
  for (const auto& c : trigPhaseReferences().at("budget")) {
    const Pair pair(4, c.at("diff").get<double>());
    const double pairs = *trig.logVariance(pair.input(), {}).logVariance + std::log(2.0);
    const double phases = *phase.logVariance(pair.input(), {}).logVariance;
    const double expectedPairs = referenceValue(c.at("log_pair_variance_per_number"));
    if (std::isinf(expectedPairs))
      EXPECT_EQ(pairs, expectedPairs);
    else
      EXPECT_NEAR(pairs, expectedPairs, 1e-12);
    EXPECT_NEAR(phases, referenceValue(c.at("log_phase_variance_per_number")), 1e-12);
    EXPECT_NEAR(std::exp(phases) - std::exp(pairs), referenceValue(c.at("difference_per_number")),
                1e-14);
    EXPECT_LE(pairs, phases);
  }
}

TEST(TrigPhaseReference, IsHalfAtTheDiagonalAndOneFarAway) {
  EXPECT_DOUBLE_EQ(trigPhaseLogVariance(0.0), std::log(0.5));
  EXPECT_NEAR(trigPhaseLogVariance(1e-300), std::log(0.5), 1e-15);
  EXPECT_NEAR(trigPhaseLogVariance(50.0), 0.0, 1e-15);
}

}  // namespace
}  // namespace rfscope
