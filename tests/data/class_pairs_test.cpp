#include "core/data/class_pairs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

namespace rfscope {
namespace {

TEST(ClassPairs, SameClassPairsTwoDifferentItemsOfOneClassUniformly) {
  // Class 7 has one item (never paired), class 1 three, class 4 two.
  const std::vector<std::uint8_t> labels{1, 7, 4, 1, 4, 1};
  const ClassPairs classes(labels);
  EXPECT_EQ(classes.ruleError(PairRule::SameClass), "");
  std::map<std::uint64_t, int> xCounts;
  const int n = 5000;
  for (int p = 0; p < n; ++p) {
    const RowPair rows = classes.draw(3, static_cast<std::uint64_t>(p), PairRule::SameClass);
    EXPECT_NE(rows.x, rows.y);
    EXPECT_EQ(labels[rows.x], labels[rows.y]);
    ++xCounts[rows.x];
  }
  EXPECT_EQ(xCounts.count(1), 0u);
  // x uniform over the five pairable items: binomial counts within 5 standard deviations.
  const double sd = std::sqrt(n * 0.2 * 0.8);
  for (std::uint64_t item : {0, 2, 3, 4, 5})
    EXPECT_NEAR(xCounts[item], n / 5.0, 5 * sd) << item;
}

TEST(ClassPairs, DifferentClassesNeverShareALabel) {
  const std::vector<std::uint8_t> labels{0, 0, 0, 9, 5, 5};
  const ClassPairs classes(labels);
  std::map<std::uint64_t, int> yCounts;
  for (int p = 0; p < 3000; ++p) {
    const RowPair rows = classes.draw(4, static_cast<std::uint64_t>(p), PairRule::DifferentClasses);
    EXPECT_NE(labels[rows.x], labels[rows.y]);
    ++yCounts[rows.y];
  }
  EXPECT_EQ(yCounts.size(), 6u);  // every item can be the partner
}

TEST(ClassPairs, AnyIsTheUnrestrictedDrawAndDrawsAreDeterministic) {
  const ClassPairs classes({1, 2, 3, 4});
  for (std::uint64_t p = 0; p < 20; ++p) {
    const RowPair a = classes.draw(5, p, PairRule::Any), b = drawDistinctRows(5, p, 4);
    EXPECT_EQ(a.x, b.x);
    EXPECT_EQ(a.y, b.y);
    const RowPair c = classes.draw(5, p, PairRule::DifferentClasses),
                  d = classes.draw(5, p, PairRule::DifferentClasses);
    EXPECT_EQ(c.x, d.x);
    EXPECT_EQ(c.y, d.y);
  }
}

TEST(ClassPairs, ImpossibleRulesAreExplained) {
  EXPECT_NE(ClassPairs({1, 2, 3}).ruleError(PairRule::SameClass), "");
  EXPECT_NE(ClassPairs({4, 4, 4}).ruleError(PairRule::DifferentClasses), "");
  EXPECT_NE(ClassPairs({4}).ruleError(PairRule::Any), "");
  EXPECT_EQ(ClassPairs({4, 4}).ruleError(PairRule::SameClass), "");
}

}  // namespace
}  // namespace rfscope
