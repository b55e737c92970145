// Outcome: a value or the reason there is none.

#include "core/math/outcome.h"

#include <gtest/gtest.h>

#include <memory>

namespace rfscope {
namespace {

TEST(Outcome, HoldsAValueOrAReason) {
  const Outcome<double> value = 2.5;
  ASSERT_TRUE(value);
  EXPECT_EQ(*value, 2.5);
  EXPECT_TRUE(value.reason().empty());
  const auto none = Outcome<double>::unavailable("no closed form");
  EXPECT_FALSE(none);
  EXPECT_FALSE(none.available());
  EXPECT_EQ(none.reason(), "no closed form");
}

TEST(Outcome, MovesOnlyValuesAndStatuses) {
  Outcome<std::unique_ptr<int>> owned = std::make_unique<int>(7);
  ASSERT_TRUE(owned);
  const std::unique_ptr<int> taken = std::move(*owned);
  EXPECT_EQ(*taken, 7);
  EXPECT_TRUE(fine());
  EXPECT_EQ(Status::unavailable("busy").reason(), "busy");
}

}  // namespace
}  // namespace rfscope
