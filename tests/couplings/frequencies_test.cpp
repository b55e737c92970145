// frequencies(): the M × n matrix of every coupling, drawn exactly as the Monte Carlo full path
// draws it (so that feature maps and trials from one stream see the same ω), with the geometry
// each coupling promises.

#include "core/couplings/frequencies.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include <boost/math/special_functions/erf.hpp>

#include "core/params/invalid_parameter.h"
#include "core/random/trial_stream.h"

namespace rfscope {
namespace {

TrialStream stream(std::uint64_t trial) {
  return TrialStream(42, trial);
}

TEST(Frequencies, ShapeIsFeaturesTimesFrequencyDimension) {
  for (const CouplingInfo& info : allCouplings()) {
    for (const std::int64_t m : {1, 5, 7, 12}) {
      TrialStream rng = stream(1);
      const Eigen::MatrixXd omega = frequencies(info.coupling, 6, m, rng);
      EXPECT_EQ(omega.rows(), m) << info.id;
      EXPECT_EQ(omega.cols(), frequencyDimension(info.coupling, 6)) << info.id;
      EXPECT_TRUE(omega.allFinite()) << info.id;
    }
  }
}

TEST(Frequencies, SameStreamSameFrequencies) {
  for (const CouplingInfo& info : allCouplings()) {
    TrialStream a = stream(3), b = stream(3), c = stream(4);
    const Eigen::MatrixXd first = frequencies(info.coupling, 5, 9, a);
    EXPECT_EQ(first, frequencies(info.coupling, 5, 9, b)) << info.id;
    EXPECT_NE(first, frequencies(info.coupling, 5, 9, c)) << info.id;
  }
}

TEST(Frequencies, IidRowsAreConsecutivePairedNormals) {
  // M × d = 15: eight pairs, the second value of the last one unused.
  TrialStream rng = stream(7), reference = stream(7);
  const Eigen::MatrixXd omega = frequencies(Coupling::Iid, 5, 3, rng);
  PairedNormals<TrialStream> normals(reference);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 5; ++j)
      EXPECT_EQ(omega(i, j), normals.next());
  EXPECT_EQ(rng.normal(), reference.normal());  // exactly eight pairs were drawn
}

TEST(Frequencies, BlocksAreWholeBlocksCutToTheFeaturesNeeded) {
  // M = 2d + 1: three blocks drawn whole, the last one cut to one row; the stream then stands
  // where three drawFullBlock calls leave it.
  for (Coupling coupling :
       {Coupling::Orthogonal, Coupling::Simplex, Coupling::SimplexPlus, Coupling::OrthogonalFast,
        Coupling::SimplexFast, Coupling::OrthogonalFixedNorm, Coupling::OrthogonalNormCoupled}) {
    const int d = 4;
    TrialStream rng = stream(9), reference = stream(9);
    const Eigen::MatrixXd omega = frequencies(coupling, d, 2 * d + 1, rng);
    FrequencyScratch scratch;
    for (int block = 0; block < 3; ++block) {
      drawFullBlock(coupling, d, kDefaultSimplexPlusIterations, reference, scratch);
      const int rows = block < 2 ? d : 1;
      EXPECT_EQ(omega.middleRows(block * d, rows), scratch.omega.topRows(rows))
          << couplingId(coupling) << " block " << block;
    }
    EXPECT_EQ(rng.normal(), reference.normal()) << couplingId(coupling);
  }
}

TEST(Frequencies, OrthogonalBlocksAreOrthogonalAndSimplexBlocksHaveTheSimplexAngle) {
  const int d = 8;
  for (Coupling coupling :
       {Coupling::Orthogonal, Coupling::OrthogonalFast, Coupling::Simplex, Coupling::SimplexFast,
        Coupling::OrthogonalFixedNorm, Coupling::OrthogonalNormCoupled}) {
    TrialStream rng = stream(11);
    const Eigen::MatrixXd omega = frequencies(coupling, d, d, rng);
    const Eigen::MatrixXd directions = omega.rowwise().normalized();
    const Eigen::MatrixXd cosines = directions * directions.transpose();
    const double expected = isOrthogonalBlock(coupling) ? 0.0 : -1.0 / (d - 1);
    for (int i = 0; i < d; ++i)
      for (int j = 0; j < d; ++j)
        EXPECT_NEAR(cosines(i, j), i == j ? 1.0 : expected, 1e-12)
            << couplingId(coupling) << " " << i << " " << j;
  }
}

TEST(Frequencies, FixedNormBlocksAreOrfsDirectionsScaledBySqrtD) {
  // The same Haar rotation as orf from the same stream (orf then draws its χ_d norms), every row
  // of norm √d: √d R.
  const int d = 6;
  TrialStream fixed = stream(15), chi = stream(15);
  const Eigen::MatrixXd omega = frequencies(Coupling::OrthogonalFixedNorm, d, 2 * d, fixed);
  FrequencyScratch scratch;
  drawFullBlock(Coupling::Orthogonal, d, kDefaultSimplexPlusIterations, chi, scratch);
  for (int i = 0; i < 2 * d; ++i)
    EXPECT_NEAR(omega.row(i).norm(), std::sqrt(d), 1e-13) << i;
  EXPECT_LT((omega.topRows(d).rowwise().normalized() - scratch.omega.rowwise().normalized())
                .cwiseAbs()
                .maxCoeff(),
            1e-13);
}

TEST(Frequencies, StructuredCouplingsWorkInThePaddedDimension) {
  TrialStream rng = stream(13);
  const Eigen::MatrixXd omega = frequencies(Coupling::OrthogonalFast, 5, 8, rng);
  ASSERT_EQ(omega.cols(), 8);
  const Eigen::MatrixXd gram = omega * omega.transpose();
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < i; ++j)
      EXPECT_NEAR(gram(i, j) / std::sqrt(gram(i, i) * gram(j, j)), 0.0, 1e-12);
}

// ---- Randomised quasi-Monte Carlo ----

double standardNormalCdf(double w) {
  return 0.5 * boost::math::erfc(-w / std::sqrt(2.0));
}

TEST(Frequencies, SobolPointsOfOneDrawAreStratifiedInEveryCoordinate) {
  // The first 2^k Sobol points put one point in each interval [j/2^k, (j+1)/2^k) of every
  // coordinate, and a digital shift or Owen's nested scrambling keeps that: Φ(ω) recovers the
  // points.
  const int d = 7;
  const std::int64_t m = 32;
  for (std::uint64_t trial = 0; trial < 10; ++trial) {
    TrialStream rng = stream(trial);
    const Coupling coupling = trial % 2 ? Coupling::QmcSobolOwen : Coupling::QmcSobol;
    const Eigen::MatrixXd omega = frequencies(coupling, d, m, rng);
    for (int i = 0; i < d; ++i) {
      std::set<int> cells;
      for (std::int64_t j = 0; j < m; ++j)
        cells.insert(static_cast<int>(std::floor(standardNormalCdf(omega(j, i)) * m)));
      EXPECT_EQ(cells.size(), static_cast<std::size_t>(m)) << "coordinate " << i;
    }
  }
}

TEST(Frequencies, HaltonPointsOfOneDrawAreAShiftedHaltonSequence) {
  // Coordinate 0 is base 2 (van der Corput) shifted mod 1: its 2^k points stay evenly spaced.
  const std::int64_t m = 16;
  TrialStream rng = stream(2);
  const Eigen::MatrixXd omega = frequencies(Coupling::QmcHalton, 3, m, rng);
  std::vector<double> u;
  for (std::int64_t j = 0; j < m; ++j)
    u.push_back(standardNormalCdf(omega(j, 0)));
  std::sort(u.begin(), u.end());
  for (std::int64_t j = 1; j < m; ++j)
    EXPECT_NEAR(u[j] - u[j - 1], 1.0 / m, 1e-12);
}

TEST(Frequencies, QuasiMonteCarloFrequenciesAreStandardNormalOverDraws) {
  // Randomised, every ω_j is exactly N(0, I): over 4000 draws each coordinate of a fixed row has
  // mean 0 and variance 1 within 99.9% intervals.
  constexpr int kDraws = 4000;
  constexpr double kZ = 3.29;
  for (const Coupling coupling :
       {Coupling::QmcSobol, Coupling::QmcHalton, Coupling::QmcSobolOwen}) {
    for (const std::int64_t row : {0, 5}) {
      double sum = 0, squares = 0, fourth = 0;
      for (int t = 0; t < kDraws; ++t) {
        TrialStream rng = stream(static_cast<std::uint64_t>(t));
        const double w = frequencies(coupling, 4, 8, rng)(row, 3);
        sum += w;
        squares += w * w;
        fourth += w * w * w * w;
      }
      const double mean = sum / kDraws, second = squares / kDraws;
      EXPECT_NEAR(mean, 0.0, kZ / std::sqrt(double(kDraws))) << couplingId(coupling);
      EXPECT_NEAR(second, 1.0, kZ * std::sqrt((fourth / kDraws - 1.0) / kDraws))
          << couplingId(coupling);
    }
  }
}

TEST(Frequencies, SobolAboveItsLargestDimensionIsAnErrorNamingTheCoupling) {
  TrialStream rng = stream(1);
  try {
    frequencies(Coupling::QmcSobol, kMaxSobolDimension + 1, 2, rng);
    FAIL() << "no exception";
  } catch (const InvalidParameter& e) {
    EXPECT_EQ(e.parameter(), "coupling");
  }
}

}  // namespace
}  // namespace rfscope
