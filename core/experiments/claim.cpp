#include "core/experiments/claim.h"

#include <cmath>
#include <iomanip>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace rfscope {
namespace {

std::string number(double value) {
  std::ostringstream out;
  out << std::setprecision(4) << value;
  return out.str();
}

// A column's name for people: the label of the series it draws, else its own label, else its key.
std::string nameOf(const Table& table, const std::string& key) {
  for (const SeriesHint& series : table.hints.series)
    if (series.yColumn == key) return series.label;
  const Column* column = table.column(key);
  return column && !column->label.empty() ? column->label : key;
}

const std::vector<double>& values(const Table& table, const std::string& key) {
  const Column* column = table.column(key);
  if (!column)
    throw std::logic_error("the figure does not show '" + key +
                           "', which the claim compares (a series left out?)");
  return column->values;
}

// "sigma = 0.3", or the x value's name ("at car").
std::string whereText(const Table& table, std::size_t row) {
  const double x = values(table, table.hints.xColumn)[row];
  for (const auto& [value, name] : table.hints.xValueNames)
    if (value == x) return "at " + name;
  return "at " + table.hints.xColumn + " = " + number(x);
}

// x closer to target than y; ±infinity as a target means the largest or smallest x.
bool nearer(double x, double y, double target) {
  if (std::isinf(target)) return target > 0 ? x > y : x < y;
  return std::fabs(x - target) < std::fabs(y - target);
}

// The rows an assertion looks at, among those where every column it reads has a value (a table
// may interleave series on different grids, NaN where a series has no point).
std::vector<std::size_t> selectRows(const Table& table, const Rows& rows,
                                    const std::vector<const std::vector<double>*>& columns = {}) {
  const std::vector<double>& x = values(table, table.hints.xColumn);
  const auto defined = [&](std::size_t r) {
    for (const std::vector<double>* column : columns)
      if (std::isnan((*column)[r])) return false;
    return true;
  };
  std::vector<std::size_t> out;
  if (rows.at) {
    // Categories (named x values: datasets, estimators) are matched exactly: a missing bar is
    // missing, not its neighbour.
    const bool categories = !table.hints.xValueNames.empty();
    std::optional<std::size_t> best;
    for (std::size_t r = 0; r < x.size(); ++r)
      if (defined(r) && (!categories || x[r] == *rows.at) &&
          (!best || nearer(x[r], x[*best], *rows.at)))
        best = r;
    if (best) out.push_back(*best);
    return out;
  }
  for (std::size_t r = 0; r < x.size(); ++r)
    if ((!rows.from || x[r] >= *rows.from) && (!rows.to || x[r] <= *rows.to) && defined(r))
      out.push_back(r);
  return out;
}

// Holds where `ok(row)` holds on every selected row; the detail names the first row where it does
// not, or the row where it holds by the least `slack(row)`.
AssertionVerdict everyRowHolds(const Table& table, const Rows& rows,
                               const std::vector<const std::vector<double>*>& columns,
                               const std::function<bool(std::size_t)>& ok,
                               const std::function<double(std::size_t)>& slack,
                               const std::function<std::string(std::size_t)>& describe) {
  const std::vector<std::size_t> selected = selectRows(table, rows, columns);
  if (selected.empty()) return {false, "no row of the table is in the range the claim names"};
  std::size_t closest = selected.front();
  for (const std::size_t row : selected) {
    if (!ok(row)) return {false, describe(row) + " " + whereText(table, row)};
    if (slack(row) < slack(closest)) closest = row;
  }
  return {true, describe(closest) + " " + whereText(table, closest)};
}

}  // namespace

ClaimVerdict checkClaim(const Claim& claim, const Table& table) {
  ClaimVerdict verdict;
  for (const Assertion& assertion : claim.assertions) {
    try {
      verdict.assertions.push_back(assertion.check(table));
    } catch (const std::logic_error& e) {  // a series the claim compares is not in the figure
      verdict.assertions.push_back({false, e.what()});
    }
    verdict.holds = verdict.holds && verdict.assertions.back().holds;
  }
  return verdict;
}

std::string claimReport(const Claim& claim, const ClaimVerdict& verdict) {
  std::string out = "claim: " + claim.text + "\n";
  std::size_t holding = 0;
  for (std::size_t i = 0; i < verdict.assertions.size(); ++i) {
    const AssertionVerdict& a = verdict.assertions[i];
    holding += a.holds ? 1 : 0;
    out += std::string(a.holds ? "  holds          " : "  does not hold  ") +
           claim.assertions[i].text + ": " + a.detail + "\n";
  }
  out += std::string("verdict: ") + (verdict.holds ? "holds" : "does not hold") + " (" +
         std::to_string(holding) + " of " + std::to_string(verdict.assertions.size()) +
         " assertions hold)\n";
  return out;
}

AssertionCheck below(std::string lower, std::string upper, Rows rows, double margin) {
  return [lower, upper, rows, margin](const Table& table) {
    const auto& l = values(table, lower);
    const auto& u = values(table, upper);
    return everyRowHolds(
        table, rows, {&l, &u}, [&](std::size_t r) { return l[r] + margin <= u[r]; },
        [&](std::size_t r) { return u[r] - l[r]; },
        [&](std::size_t r) {
          return nameOf(table, lower) + " " + number(l[r]) +
                 (l[r] <= u[r] ? " below " : " above ") + nameOf(table, upper) + " " +
                 number(u[r]) + " (gap " + number(u[r] - l[r]) + ")";
        });
  };
}

AssertionCheck belowByFactor(std::string lower, std::string upper, Rows rows, double factor) {
  return [lower, upper, rows, factor](const Table& table) {
    const auto& l = values(table, lower);
    const auto& u = values(table, upper);
    return everyRowHolds(
        table, rows, {&l, &u}, [&](std::size_t r) { return l[r] > 0 && l[r] * factor <= u[r]; },
        [&](std::size_t r) { return u[r] / l[r]; },
        [&](std::size_t r) {
          return nameOf(table, lower) + " " + number(l[r]) +
                 (l[r] <= u[r] ? " below " : " above ") + nameOf(table, upper) + " " +
                 number(u[r]) + " (ratio " + number(u[r] / l[r]) + ")";
        });
  };
}

AssertionCheck within(std::string column, Rows rows, double low, double high) {
  return [column, rows, low, high](const Table& table) {
    const auto& v = values(table, column);
    return everyRowHolds(
        table, rows, {&v}, [&](std::size_t r) { return v[r] >= low && v[r] <= high; },
        [&](std::size_t r) { return std::min(v[r] - low, high - v[r]); },
        [&](std::size_t r) {
          return nameOf(table, column) + " " + number(v[r]) + " (interval " + number(low) + " .. " +
                 number(high) + ")";
        });
  };
}

namespace {

AssertionCheck monotone(std::string column, Rows rows, double slack, int direction) {
  return [column, rows, slack, direction](const Table& table) {
    const auto& v = values(table, column);
    const std::vector<std::size_t> selected = selectRows(table, rows, {&v});
    if (selected.size() < 2) return AssertionVerdict{false, "fewer than two rows in the range"};
    for (std::size_t k = 1; k < selected.size(); ++k) {
      const double step = direction * (v[selected[k]] - v[selected[k - 1]]);
      if (step < -slack || std::isnan(step))
        return AssertionVerdict{
            false, nameOf(table, column) + " goes from " + number(v[selected[k - 1]]) + " to " +
                       number(v[selected[k]]) + " " + whereText(table, selected[k])};
    }
    return AssertionVerdict{true, nameOf(table, column) + " from " + number(v[selected.front()]) +
                                      " to " + number(v[selected.back()])};
  };
}

}  // namespace

AssertionCheck increasing(std::string column, Rows rows, double slack) {
  return monotone(std::move(column), rows, slack, +1);
}

AssertionCheck decreasing(std::string column, Rows rows, double slack) {
  return monotone(std::move(column), rows, slack, -1);
}

AssertionCheck insideBand(std::string column, std::string bandLow, std::string bandHigh,
                          Rows rows) {
  return [column, bandLow, bandHigh, rows](const Table& table) {
    const auto& v = values(table, column);
    const auto& lo = values(table, bandLow);
    const auto& hi = values(table, bandHigh);
    return everyRowHolds(
        table, rows, {&v, &lo, &hi}, [&](std::size_t r) { return v[r] >= lo[r] && v[r] <= hi[r]; },
        [&](std::size_t r) { return std::min(v[r] - lo[r], hi[r] - v[r]); },
        [&](std::size_t r) {
          return nameOf(table, column) + " " + number(v[r]) + " (band " + number(lo[r]) + " .. " +
                 number(hi[r]) + ")";
        });
  };
}

AssertionCheck closeTo(std::string a, std::string b, Rows rows, double tolerance) {
  return [a, b, rows, tolerance](const Table& table) {
    const auto& x = values(table, a);
    const auto& y = values(table, b);
    return everyRowHolds(
        table, rows, {&x, &y}, [&](std::size_t r) { return std::fabs(x[r] - y[r]) <= tolerance; },
        [&](std::size_t r) { return tolerance - std::fabs(x[r] - y[r]); },
        [&](std::size_t r) {
          return nameOf(table, a) + " " + number(x[r]) + " and " + nameOf(table, b) + " " +
                 number(y[r]) + " (difference " + number(x[r] - y[r]) + ", tolerance " +
                 number(tolerance) + ")";
        });
  };
}

AssertionCheck ratioWithin(std::string a, std::string b, Rows rows, double low, double high) {
  return [a, b, rows, low, high](const Table& table) {
    const auto& x = values(table, a);
    const auto& y = values(table, b);
    return everyRowHolds(
        table, rows, {&x, &y},
        [&](std::size_t r) { return y[r] > 0 && x[r] / y[r] >= low && x[r] / y[r] <= high; },
        [&](std::size_t r) { return std::min(x[r] / y[r] - low, high - x[r] / y[r]); },
        [&](std::size_t r) {
          return nameOf(table, a) + " " + number(x[r]) + " / " + nameOf(table, b) + " " +
                 number(y[r]) + " = " + number(x[r] / y[r]) + " (interval " + number(low) + " .. " +
                 number(high) + ")";
        });
  };
}

AssertionCheck rowRatioWithin(std::string column, double xA, double xB, double low, double high) {
  return [column, xA, xB, low, high](const Table& table) {
    const auto& v = values(table, column);
    const std::vector<std::size_t> a = selectRows(table, atX(xA), {&v});
    const std::vector<std::size_t> b = selectRows(table, atX(xB), {&v});
    if (a.empty() || b.empty()) return AssertionVerdict{false, "the table has no rows"};
    const double ratio = v[a[0]] / v[b[0]];
    const bool holds = v[b[0]] > 0 && ratio >= low && ratio <= high;
    return AssertionVerdict{holds, nameOf(table, column) + " " + number(v[a[0]]) + " " +
                                       whereText(table, a[0]) + " / " + number(v[b[0]]) + " " +
                                       whereText(table, b[0]) + " = " + number(ratio) +
                                       " (interval " + number(low) + " .. " + number(high) + ")"};
  };
}

AssertionCheck narrowerBand(std::string lowA, std::string highA, std::string lowB,
                            std::string highB, Rows rows, double factor) {
  return [lowA, highA, lowB, highB, rows, factor](const Table& table) {
    const auto& la = values(table, lowA);
    const auto& ha = values(table, highA);
    const auto& lb = values(table, lowB);
    const auto& hb = values(table, highB);
    const auto widthA = [&](std::size_t r) { return ha[r] - la[r]; };
    const auto widthB = [&](std::size_t r) { return hb[r] - lb[r]; };
    return everyRowHolds(
        table, rows, {&la, &ha, &lb, &hb},
        [&](std::size_t r) { return widthA(r) * factor <= widthB(r); },
        [&](std::size_t r) { return widthB(r) - widthA(r) * factor; },
        [&](std::size_t r) {
          return "band width " + number(widthA(r)) + " against " + number(widthB(r)) +
                 " (at most 1/" + number(factor) + " of it)";
        });
  };
}

}  // namespace rfscope
