// The angular hybrid's fast trial decides most τ from the angle of their Box–Muller pair alone
// (separatedByTau): the same answer as projecting the pair itself, for random pairs and for
// angles placed at, inside and just outside the margins around the zero crossings; and whole
// trials equal those of the plain computation (every τ projected), bit for bit.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "core/montecarlo/fast_trial.h"

namespace rfscope {
namespace {

constexpr std::uint64_t kMask52 = (std::uint64_t{1} << 52) - 1;

// Every τ projected, as fastHybridTrial computed it before it read angles (angular, two axes).
bool projectedSeparation(const FastTrialSpec& s, std::uint64_t radiusWord,
                         std::uint64_t angleWord) {
  double t1 = 0, t2 = 0;
  boxMullerPair(uniformFromWords(static_cast<std::uint32_t>(radiusWord >> 32),
                                 static_cast<std::uint32_t>(radiusWord)),
                uniformFromWords(static_cast<std::uint32_t>(angleWord >> 32),
                                 static_cast<std::uint32_t>(angleWord)),
                t1, t2);
  const double onSum = s.sum1 * t1 + s.sum2 * t2;
  const double onDifference = s.diff1 * t1 + s.diff2 * t2;
  return (onSum + onDifference > 0) != (onSum - onDifference > 0);
}

SignedLog projectedHybridTrial(const HybridSpec& h, std::uint64_t trial) {
  const FastTrialSpec& s = h.base;
  TrialStream rng(s.seed, trial);
  PairedNormals<TrialStream> normals(rng);
  EnvelopeSum total;
  for (std::int64_t j = 0; j < s.features; ++j) {
    std::int64_t separated = 0;
    for (std::int64_t k = 0; k < h.taus; ++k) {
      const double t1 = normals.next();
      const double t2 = normals.next();
      const double onSum = s.sum1 * t1 + s.sum2 * t2;
      const double onDifference = s.diff1 * t1 + s.diff2 * t2;
      if ((onSum + onDifference > 0) != (onSum - onDifference > 0)) ++separated;
    }
    const double lambda = static_cast<double>(separated) / static_cast<double>(h.taus);
    const double g1 = normals.next();
    const double g2 = normals.next();
    const double onSum = s.sum1 * g1 + s.sum2 * g2;
    double onDifference = s.diff1 * g1 + s.diff2 * g2;
    if (!h.shared) {
      const double f1 = normals.next();
      const double f2 = normals.next();
      onDifference = s.diff1 * f1 + s.diff2 * f2;
    }
    const double magnitude = onSum < 0 ? -onSum : onSum;
    total.add(h.posLogConstant + magnitude, lambda * 0.5 * (1.0 + std::exp(-2.0 * magnitude)));
    total.add(0.0, (1.0 - lambda) * std::cos(onDifference));
  }
  return total.result(s.logOffset);
}

// Pair frames of x, y with |x| = |y| = r at angle θ (x + y on e₁), and general ones.
std::vector<FastTrialSpec> specs() {
  std::vector<FastTrialSpec> out;
  for (const double r : {0.5, 1.0, 1.5})
    for (const double theta : {1e-9, 0.3, 1.0, 1.5707963267948966, 2.5, 3.14159265})
      out.push_back({{}, 64, 2 * r * std::cos(theta / 2), 0, 0, 2 * r * std::sin(theta / 2), 8});
  out.push_back({{}, 64, 0.7, -0.2, 0.4, 1.1, 8});
  out.push_back({{}, 64, -1.3, 0.9, 2.0, -0.5, 8});
  out.push_back({{}, 64, 1.0, 1e-5, -1.0, 1e-5, 8});  // x + y ≈ 0 or x - y ≈ 0: no angle read
  return out;
}

TEST(HybridTrial, AngleDecidesAsTheProjectionDoes) {
  TrialStream words(7, 1);
  for (const FastTrialSpec& s : specs()) {
    const double size =
        std::fabs(s.sum1) + std::fabs(s.sum2) + std::fabs(s.diff1) + std::fabs(s.diff2);
    const AngularSign plus = angularSign(s.sum1 + s.diff1, s.sum2 + s.diff2, size);
    const AngularSign minus = angularSign(s.sum1 - s.diff1, s.sum2 - s.diff2, size);
    for (int i = 0; i < 20000; ++i) {
      const std::uint64_t radiusWord = words.bits(), angleWord = words.bits();
      ASSERT_EQ(separatedByTau(s, plus, minus, radiusWord, angleWord),
                projectedSeparation(s, radiusWord, angleWord));
    }
    // Angles at the crossings and around the margins' edges (12 low bits random).
    std::vector<std::uint64_t> offsets;
    for (const std::uint64_t edge : {std::uint64_t{0}, kAngularMargin})
      for (std::int64_t delta = -3; delta <= 3; ++delta) {
        offsets.push_back(edge + static_cast<std::uint64_t>(delta));
        offsets.push_back(0 - edge + static_cast<std::uint64_t>(delta));
      }
    for (const AngularSign* sign : {&plus, &minus}) {
      if (!sign->usable) continue;
      for (const std::uint64_t crossing : {sign->start, sign->start + kAngularTurn / 2})
        for (const std::uint64_t offset : offsets) {
          const std::uint64_t angle = (crossing + offset) & kMask52;
          const std::uint64_t angleWord = (angle << 12) | (words.bits() & 0xFFF);
          const std::uint64_t radiusWord = words.bits();
          ASSERT_EQ(separatedByTau(s, plus, minus, radiusWord, angleWord),
                    projectedSeparation(s, radiusWord, angleWord))
              << "angle " << angle << " start " << sign->start;
        }
    }
  }
}

TEST(HybridTrial, TrialsEqualThePlainComputation) {
  for (const FastTrialSpec& base : specs())
    for (const bool shared : {false, true}) {
      HybridSpec h;
      h.base = base;
      h.base.features = 16;
      h.base.seed = 3;
      h.base.logOffset = -0.3;
      h.posLogConstant = -0.7;
      h.taus = 8;
      h.shared = shared;
      for (std::uint64_t trial = 0; trial < 40; ++trial) {
        const SignedLog fast = fastHybridTrial(h, trial);
        const SignedLog plain = projectedHybridTrial(h, trial);
        ASSERT_EQ(fast.logAbs, plain.logAbs);
        ASSERT_EQ(fast.sign, plain.sign);
      }
    }
}

}  // namespace
}  // namespace rfscope
