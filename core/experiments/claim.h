#pragma once
// What a figure claims, as data a program checks: one sentence for people, and assertions over the
// figure's table — orderings of series, gaps, values within an interval, monotonicity, a value
// inside a band — each evaluated to "holds" or "does not hold" with the numbers behind it
// ("OPRF 0.31 above PosRF 0.29 at sigma = 0.3"). Presets declare their claim; the CLI's --check,
// the app and the tests evaluate it on the table the run produced.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/experiments/table.h"

namespace rfscope {

// The rows an assertion looks at: the row whose x is nearest to a value (±infinity: the largest
// or smallest x; named categories: exactly that x), the rows with x in a range, or every row.
struct Rows {
  std::optional<double> at;
  std::optional<double> from, to;
};
inline Rows atX(double x) {
  return {x, std::nullopt, std::nullopt};
}
inline Rows overX(double from, double to) {
  return {std::nullopt, from, to};
}
inline Rows everyRow() {
  return {};
}

struct AssertionVerdict {
  bool holds = false;
  std::string detail;  // the numbers: where it fails first, or the closest call where it holds
};

using AssertionCheck = std::function<AssertionVerdict(const Table&)>;

struct Assertion {
  std::string text;  // "OPRF below PosRF at σ = 1 by at least e^75"
  AssertionCheck check;
};

struct Claim {
  std::string text;  // one sentence for people; empty: the preset claims nothing checkable
  std::vector<Assertion> assertions;
};

struct ClaimVerdict {
  bool holds = true;  // every assertion holds
  std::vector<AssertionVerdict> assertions;
};

ClaimVerdict checkClaim(const Claim& claim, const Table& table);

// The claim and its verdict as lines of text: the sentence, then per assertion "holds" or
// "does not hold" with its numbers, then the verdict.
std::string claimReport(const Claim& claim, const ClaimVerdict& verdict);

// lower + margin ≤ upper on the rows (columns by key; margin in the columns' units, e.g. a log
// gap).
AssertionCheck below(std::string lower, std::string upper, Rows rows, double margin = 0);
// lower · factor ≤ upper on the rows (positive quantities: errors, variances, counts).
AssertionCheck belowByFactor(std::string lower, std::string upper, Rows rows, double factor);
// low ≤ column ≤ high on the rows.
AssertionCheck within(std::string column, Rows rows, double low, double high);
// The column never falls (rises) from one row to the next over the rows, beyond `slack`.
AssertionCheck increasing(std::string column, Rows rows, double slack = 0);
AssertionCheck decreasing(std::string column, Rows rows, double slack = 0);
// columnLow ≤ column ≤ columnHigh on the rows (a value inside another series' band).
AssertionCheck insideBand(std::string column, std::string bandLow, std::string bandHigh, Rows rows);
// |a - b| ≤ tolerance on the rows.
AssertionCheck closeTo(std::string a, std::string b, Rows rows, double tolerance);
// low ≤ a / b ≤ high on the rows (b > 0).
AssertionCheck ratioWithin(std::string a, std::string b, Rows rows, double low, double high);
// One column at two rows: low ≤ value(at xA) / value(at xB) ≤ high (a fall over a range of M, or
// two categories of a bar chart).
AssertionCheck rowRatioWithin(std::string column, double xA, double xB, double low, double high);
// Band a (lowA..highA) narrower than band b (lowB..highB) by `factor` on the rows.
AssertionCheck narrowerBand(std::string lowA, std::string highA, std::string lowB,
                            std::string highB, Rows rows, double factor = 1);

}  // namespace rfscope
