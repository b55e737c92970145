#pragma once
// Shared helpers for the Monte Carlo tests: pairs drawn from fixed seeds and requests.

#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <Eigen/Core>

#include "core/mechanisms/mechanism_registry.h"
#include "core/montecarlo/monte_carlo_result.h"
#include "core/montecarlo/sampling_plan.h"
#include "core/random/philox_stream.h"

namespace rfscope::testing {

// x, y ~ N(0, σ² I_d), from a stream far above the ones trials use.
inline void drawPair(int d, double sigma, std::uint64_t seed, Eigen::VectorXd& x,
                     Eigen::VectorXd& y) {
  PhiloxStream stream(seed, std::uint64_t{1} << 50);
  x.resize(d);
  y.resize(d);
  for (int i = 0; i < d; ++i)
    x[i] = sigma * stream.normal();
  for (int i = 0; i < d; ++i)
    y[i] = sigma * stream.normal();
}

inline MonteCarloRequest makeRequest(const std::string& mechanism, const std::string& coupling,
                                     int d, double sigma, std::int64_t features,
                                     std::int64_t trials, std::uint64_t seed = 7) {
  MonteCarloRequest request;
  request.mechanism = findMechanism(mechanism);
  request.coupling = parseCoupling(coupling);
  request.features = features;
  request.trials = trials;
  request.seed = seed;
  drawPair(d, sigma, 1000 + static_cast<std::uint64_t>(d), request.x, request.y);
  return request;
}

// Two results of the same request, equal to the last bit: moments, error, quantiles, histogram.
inline void expectIdentical(const MonteCarloResult& a, const MonteCarloResult& b) {
  EXPECT_EQ(a.trials, b.trials);
  EXPECT_EQ(a.moments.count, b.moments.count);
  EXPECT_EQ(a.moments.logScale, b.moments.logScale);
  EXPECT_EQ(a.moments.mean, b.moments.mean);
  EXPECT_EQ(a.moments.m2, b.moments.m2);
  EXPECT_EQ(a.moments.m4, b.moments.m4);
  EXPECT_EQ(a.logVariance, b.logVariance);
  EXPECT_EQ(a.relativeStdErr, b.relativeStdErr);
  ASSERT_EQ(a.quantiles.size(), b.quantiles.size());
  for (std::size_t i = 0; i < a.quantiles.size(); ++i)
    EXPECT_EQ(a.quantiles[i].value.logAbs, b.quantiles[i].value.logAbs);
  EXPECT_EQ(a.histogram.counts, b.histogram.counts);
}

}  // namespace rfscope::testing
