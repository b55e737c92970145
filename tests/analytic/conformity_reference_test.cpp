// RF-conformity, its deficit 1 - ρe^{-u} and the block-coupled MSE of positive features against
// mpmath (ORF through ₁F₁, SimRF through eq. 24 summed at rising precision), for d from 2 to 1024
// and v from 1e-8 to 10 — including tiny v and the cancelling inner sum of eq. (24) at d = 3, v
// = 6.

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "core/couplings/positive_conformity.h"
#include "tests/analytic/reference_data.h"

namespace rfscope {
namespace {

using namespace rfscope::test;

TEST(ConformityReference, ConformityDeficitAndCoupledMseMatchMpmath) {
  double worstConformity = 0, worstDeficit = 0, worstVariance = 0;
  std::size_t checked = 0;
  for (const auto& c : analyticReferences().at("conformity")) {
    const Coupling kind = parseCoupling(c.at("coupling").get<std::string>());
    const int d = c.at("d");
    const double u = c.at("u"), diff = c.at("diff");
    const std::string label =
        c.at("coupling").get<std::string>() + " d=" + std::to_string(d) + " u=" + std::to_string(u);
    const Outcome<Conformity> r = positiveConformity(kind, d, u);
    ASSERT_TRUE(r) << label << ": " << r.reason();
    const double conformityError =
        std::abs(r->logConformity - referenceValue(c.at("log_conformity")));
    const double deficitError =
        std::abs(std::log(r->deficit) - referenceValue(c.at("log_deficit")));
    EXPECT_LE(conformityError, test::kReferenceLogTolerance) << label;
    EXPECT_LE(deficitError, test::kReferenceLogTolerance) << label << ": h = " << r->deficit;
    worstConformity = std::max(worstConformity, conformityError);
    worstDeficit = std::max(worstDeficit, deficitError);
    for (const auto& [m, expected] : c.at("log_variance").items()) {
      const double got = coupledPositiveLogVariance(kind, d, std::stoll(m), diff, u);
      const double error = std::abs(got - referenceValue(expected));
      EXPECT_LE(error, test::kReferenceLogTolerance) << label << " M=" << m;
      worstVariance = std::max(worstVariance, error);
      ++checked;
    }
  }
  EXPECT_GT(checked, 300u);
  std::printf("  max |Δ log ρ| = %.2e, max |Δ log(1-ρe^-u)| = %.2e, max |Δ log MSE| = %.2e\n",
              worstConformity, worstDeficit, worstVariance);
}

TEST(Conformity, OrderingAndLimits) {
  // SimRF < ORF < IID for every d, v (SimRF Cor. 3.3, 4.4), IID is e^u exactly.
  for (int d : {2, 3, 16, 128}) {
    for (double v : {0.01, 1.0, 5.0}) {
      const double u = v * v;
      const double iid = positiveConformity(Coupling::Iid, d, u)->logConformity;
      const double orf = positiveConformity(Coupling::Orthogonal, d, u)->logConformity;
      const double sim = positiveConformity(Coupling::Simplex, d, u)->logConformity;
      EXPECT_EQ(iid, u);
      EXPECT_LT(orf, iid) << d << " " << v;
      EXPECT_LT(sim, orf) << d << " " << v;
    }
  }
  // One feature: every coupling is the i.i.d. PosRF variance K² expm1(u).
  EXPECT_NEAR(coupledPositiveLogVariance(Coupling::Simplex, 8, 1, 0.3, 2.0),
              -0.3 + std::log(std::expm1(2.0)), 1e-14);
}

TEST(Conformity, SmallVPrefactor) {
  EXPECT_NEAR(simplexSmallVPrefactor(64), 0.0077817464, 1e-10);
  // At small v and M = d the SimRF/IID MSE ratio tends to the prefactor.
  const double u = 1e-12;
  for (int d : {4, 64, 1024}) {
    const double sim = coupledPositiveLogVariance(Coupling::Simplex, d, d, 0.0, u);
    const double iid = coupledPositiveLogVariance(Coupling::Iid, d, d, 0.0, u);
    EXPECT_NEAR(std::exp(sim - iid) / simplexSmallVPrefactor(d), 1.0, 1e-9) << d;
  }
}

TEST(Conformity, OrthogonalityGapAndDensities) {
  // Gap = MSE_IID - MSE_ORF, positive (SimRF Cor. 4.4).
  const int d = 16;
  const double u = 2.0, diff = 0.7;
  const double gap = std::exp(positiveOrthogonalityLogGap(d, d, diff, u));
  const double iid = std::exp(coupledPositiveLogVariance(Coupling::Iid, d, d, diff, u));
  const double orf = std::exp(coupledPositiveLogVariance(Coupling::Orthogonal, d, d, diff, u));
  EXPECT_GT(gap, 0);
  EXPECT_NEAR(gap, iid - orf, 1e-12 * iid);
  // Each density integrates to 1, and E[w²] is 2d (IID, ORF) or 2d - 2(E w)²/(d-1) (SimRF).
  for (Coupling kind : {Coupling::Iid, Coupling::Orthogonal, Coupling::Simplex}) {
    double mass = 0, second = 0;
    const double step = 4e-3;  // midpoint rule: error ~1e-7
    for (double w = step / 2; w < 16; w += step) {
      const double p = std::exp(logPairNormDensity(kind, d, w));
      mass += p * step;
      second += p * w * w * step;
    }
    EXPECT_NEAR(mass, 1.0, 1e-6);
    const double expected = kind == Coupling::Simplex
                                ? 2 * d * (1 - (1 - simplexSmallVPrefactor(d)) / (d - 1))
                                : 2.0 * d;
    EXPECT_NEAR(second, expected, 1e-5);
  }
}

}  // namespace
}  // namespace rfscope
