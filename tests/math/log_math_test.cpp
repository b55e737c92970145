#include "core/math/log_math.h"

#include <gtest/gtest.h>

namespace rfscope {
namespace {

TEST(LogMath, LogAddExpDoesNotOverflow) {
  EXPECT_DOUBLE_EQ(logAddExp(1000.0, 1000.0), 1000.0 + std::log(2.0));
  EXPECT_DOUBLE_EQ(logAddExp(-1000.0, kNegativeInfinity), -1000.0);
  EXPECT_NEAR(logAddExp(0.0, -40.0), std::exp(-40.0), 1e-30);
}

TEST(LogMath, LogSubExpIsAccurateNearCancellation) {
  // log(e^a - e^b) with b = a - t, t = 2^-40 exactly: a + log(1 - e^{-t}) = a + log t - t/2 +
  // O(t²).
  const double t = std::ldexp(1.0, -40);
  EXPECT_NEAR(logSubExp(700.0, 700.0 - t), 700.0 + std::log(t) - t / 2, 1e-12);
  EXPECT_EQ(logSubExp(3.0, 3.0), kNegativeInfinity);
  EXPECT_TRUE(std::isnan(logSubExp(1.0, 2.0)));
  EXPECT_DOUBLE_EQ(logSubExp(5.0, kNegativeInfinity), 5.0);
}

TEST(LogMath, LogExpm1CoversTinyAndHugeArguments) {
  EXPECT_NEAR(logExpm1(1e-300), std::log(1e-300), 1e-12);
  EXPECT_NEAR(logExpm1(1e-8), std::log(1e-8) + 0.5e-8, 1e-15);
  EXPECT_DOUBLE_EQ(logExpm1(800.0), 800.0);  // e^800 overflows a double; its log does not
  EXPECT_NEAR(logExpm1(1.0), std::log(std::exp(1.0) - 1.0), 1e-15);
}

}  // namespace
}  // namespace rfscope
