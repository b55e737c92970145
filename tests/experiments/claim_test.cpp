// Claims over a table: each assertion holds or not on the rows it names, with the numbers.

#include "core/experiments/claim.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace rfscope {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// σ = 0.1 .. 0.4; OPRF below PosRF except at σ = 0.1; a band around "exact"; a sparse series.
Table sampleTable() {
  Table table;
  table.hints.xColumn = "sigma";
  table.addColumn("sigma", "σ", {0.1, 0.2, 0.3, 0.4});
  table.addColumn("pos", "PosRF", {1.0, 2.0, 3.0, 4.0});
  table.addColumn("oprf", "OPRF", {1.5, 1.0, -2.0, -10.0});
  table.addColumn("low", "low", {0.9, 0.8, 0.7, 0.6});
  table.addColumn("high", "high", {1.1, 1.2, 1.3, 1.4});
  table.addColumn("exact", "exact", {1.0, 1.0, 1.0, 1.5});
  table.addColumn("mc", "Monte Carlo", {kNaN, 1.0, kNaN, 0.5});
  table.hints.series.push_back(
      {"OPRF (closed form)", "oprf", "", "", "oprf", SeriesStyle::Line, "", false});
  return table;
}

TEST(Claim, BelowHoldsOnTheRowsItNamesAndSaysWhereItFailsFirst) {
  const Table table = sampleTable();
  EXPECT_TRUE(below("oprf", "pos", overX(0.2, 0.4))(table).holds);
  const AssertionVerdict everywhere = below("oprf", "pos", everyRow())(table);
  EXPECT_FALSE(everywhere.holds);
  // The series' legend label names it, the row its x.
  EXPECT_NE(everywhere.detail.find("OPRF (closed form) 1.5 above PosRF 1"), std::string::npos)
      << everywhere.detail;
  EXPECT_NE(everywhere.detail.find("sigma = 0.1"), std::string::npos) << everywhere.detail;
  // A gap: 14 at σ = 0.4, 5 at 0.3.
  EXPECT_TRUE(below("oprf", "pos", atX(0.4), 14)(table).holds);
  EXPECT_FALSE(below("oprf", "pos", atX(0.3), 5.5)(table).holds);
}

TEST(Claim, AtXTakesTheNearestRow) {
  const Table table = sampleTable();
  EXPECT_TRUE(within("pos", atX(0.29), 2.9, 3.1)(table).holds);
  EXPECT_FALSE(within("pos", atX(0.26), 1.9, 2.1)(table).holds);
}

TEST(Claim, InfiniteXMeansTheEndsAndCategoriesMatchExactly) {
  Table table = sampleTable();
  EXPECT_TRUE(within("pos", atX(std::numeric_limits<double>::infinity()), 4, 4)(table).holds);
  EXPECT_TRUE(within("pos", atX(-std::numeric_limits<double>::infinity()), 1, 1)(table).holds);
  // Named x values are categories (bars): a category without a value is not its neighbour's.
  table.hints.xValueNames = {{0.1, "a"}, {0.2, "b"}, {0.3, "c"}, {0.4, "d"}};
  const AssertionVerdict missing = within("mc", atX(0.3), 0, 10)(table);
  EXPECT_FALSE(missing.holds);
  EXPECT_TRUE(within("mc", atX(0.4), 0.5, 0.5)(table).holds);
  EXPECT_NE(within("pos", atX(0.2), 2, 2)(table).detail.find("at b"), std::string::npos);
}

TEST(Claim, RowsWithoutAValueAreLeftOut) {
  const Table table = sampleTable();
  // mc has values at σ = 0.2 and 0.4 only: the nearest row with one, and ranges skip the NaNs.
  EXPECT_TRUE(within("mc", atX(0.33), 0.4, 0.6)(table).holds);
  EXPECT_TRUE(decreasing("mc", everyRow())(table).holds);
  EXPECT_FALSE(within("mc", overX(0.05, 0.15), 0, 10)(table).holds);  // no value in the range
}

TEST(Claim, MonotonicityBandsRatiosAndRowRatios) {
  const Table table = sampleTable();
  EXPECT_TRUE(increasing("pos", everyRow())(table).holds);
  EXPECT_FALSE(decreasing("pos", everyRow())(table).holds);
  EXPECT_FALSE(increasing("oprf", overX(0.1, 0.15))(table).holds);  // one row shows no trend
  EXPECT_TRUE(insideBand("exact", "low", "high", overX(0.1, 0.3))(table).holds);
  EXPECT_FALSE(insideBand("exact", "low", "high", everyRow())(table).holds);
  EXPECT_TRUE(ratioWithin("pos", "exact", atX(0.2), 1.9, 2.1)(table).holds);
  EXPECT_TRUE(rowRatioWithin("pos", 0.4, 0.1, 3.9, 4.1)(table).holds);
  EXPECT_FALSE(rowRatioWithin("pos", 0.1, 0.4, 3.9, 4.1)(table).holds);
  EXPECT_TRUE(closeTo("pos", "exact", atX(0.1), 1e-12)(table).holds);
  EXPECT_TRUE(narrowerBand("low", "high", "oprf", "pos", atX(0.4), 10)(table).holds);
  EXPECT_TRUE(belowByFactor("exact", "pos", atX(0.4), 2.5)(table).holds);
  EXPECT_FALSE(belowByFactor("exact", "pos", atX(0.4), 3)(table).holds);
}

TEST(Claim, AClaimHoldsWhenEveryAssertionDoes) {
  const Table table = sampleTable();
  Claim claim{"OPRF below PosRF from σ = 0.2, and PosRF rises",
              {{"OPRF below PosRF", below("oprf", "pos", overX(0.2, 1))},
               {"PosRF rises", increasing("pos", everyRow())}}};
  const ClaimVerdict holds = checkClaim(claim, table);
  EXPECT_TRUE(holds.holds);
  ASSERT_EQ(holds.assertions.size(), 2u);
  claim.assertions.push_back({"OPRF below PosRF everywhere", below("oprf", "pos", everyRow())});
  const ClaimVerdict fails = checkClaim(claim, table);
  EXPECT_FALSE(fails.holds);
  EXPECT_TRUE(fails.assertions[0].holds);
  EXPECT_FALSE(fails.assertions[2].holds);
}

}  // namespace
}  // namespace rfscope
