#pragma once
// Normal quantiles for the tests' confidence intervals on Monte Carlo means: a statistical test
// with a fixed seed fails only where the estimate lies outside its interval.

namespace rfscope::test {

inline constexpr double kZ999 = 3.2905;  // two-sided 99.9%: P(|Z| > kZ999) = 0.001

}  // namespace rfscope::test
