#include "core/random/philox_stream.h"

#include <gtest/gtest.h>

namespace rfscope {
namespace {

TEST(PhiloxStream, SameKeySameNumbersDifferentStreamDifferentNumbers) {
  PhiloxStream a(7, 3), b(7, 3), c(7, 4), d(8, 3);
  for (int i = 0; i < 100; ++i) {
    const double x = a.normal();
    EXPECT_EQ(x, b.normal());
    EXPECT_NE(x, c.normal());
    EXPECT_NE(x, d.normal());
  }
}

TEST(PhiloxStream, StartingBlockSkipsAhead) {
  PhiloxStream whole(11, 0), skipped(11, 0, 1);  // one block = 4 words = 2 uniforms
  whole.uniform();
  whole.uniform();
  for (int i = 0; i < 10; ++i)
    EXPECT_EQ(whole.uniform(), skipped.uniform());
}

TEST(PhiloxStream, NormalMomentsWithinConfidenceBounds) {
  // n = 1e6 draws: the sample mean has sd 1e-3 and the sample variance sd sqrt(2/n) = 1.41e-3;
  // 5 sd bounds fail with probability < 1e-6 for a correct generator.
  PhiloxStream stream(2024, 1);
  const int n = 1000000;
  double sum = 0, sumSquares = 0, sumFourth = 0;
  for (int i = 0; i < n; ++i) {
    const double z = stream.normal();
    sum += z;
    sumSquares += z * z;
    sumFourth += z * z * z * z;
  }
  EXPECT_NEAR(sum / n, 0.0, 5e-3);
  EXPECT_NEAR(sumSquares / n, 1.0, 5 * std::sqrt(2.0 / n));
  EXPECT_NEAR(sumFourth / n, 3.0, 5 * std::sqrt(96.0 / n));  // Var z⁴ = 105 - 9
}

TEST(PhiloxStream, UniformStaysInsideTheOpenInterval) {
  PhiloxStream stream(0, 0);
  for (int i = 0; i < 100000; ++i) {
    const double u = stream.uniform();
    ASSERT_GT(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
}

}  // namespace
}  // namespace rfscope
