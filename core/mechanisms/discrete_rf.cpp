#include "core/mechanisms/discrete_rf.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <boost/math/tools/minima.hpp>

#include "core/analytic/log_bessel_i0.h"
#include "core/analytic/log_math.h"

namespace rfscope {
namespace {

// a_l = x_l y_l, or for the positive variants (ε > 0) of the shifted pair, whose entries are ε and
// ε + |x_l - y_l| (the very numbers positiveShift() computes): no shifted copies are needed.
double product(double x, double y, double epsilon) {
  return epsilon > 0 ? epsilon * (epsilon + std::abs(x - y)) : x * y;
}

// -d log p + Σ log I₀(2|a_l|/√(1-p)) - 2Σa_l, with 1 - p passed separately (exact near p = 1).
double geomExponent(const Eigen::VectorXd& x, const Eigen::VectorXd& y, double epsilon, double p,
                    double q) {
  const double scale = 2 / std::sqrt(q);
  LogBesselI0Sum bessel;
  double products = 0;
  // In chunks, as array expressions (vectorised): a_l, then z_l = scale |a_l|.
  constexpr Eigen::Index kChunk = 64;
  double productBuffer[kChunk], argumentBuffer[kChunk];
  for (Eigen::Index first = 0; first < x.size(); first += kChunk) {
    const Eigen::Index size = std::min(kChunk, x.size() - first);
    const auto xs = x.segment(first, size).array(), ys = y.segment(first, size).array();
    Eigen::Map<Eigen::ArrayXd> a(productBuffer, size), arguments(argumentBuffer, size);
    if (epsilon > 0)
      a = epsilon * (epsilon + (xs - ys).abs());  // as product() computes it
    else
      a = xs * ys;
    products += a.sum();
    arguments = scale * a.abs();
    bessel.add(argumentBuffer, static_cast<std::size_t>(size));
  }
  return -static_cast<double>(x.size()) * std::log(p) + bessel.value() - 2 * products;
}

}  // namespace

double logBesselI0(double z) {
  LogBesselI0Sum sum;
  sum.add(z);
  return sum.value();
}

double poisStatistic(const Eigen::VectorXd& x, const Eigen::VectorXd& y) {
  return x.cwiseProduct(y).squaredNorm();
}

double poisLambdaStar(int dimension, double statistic) {
  return std::sqrt(statistic / dimension);
}

double poisLogVariance(const Eigen::VectorXd& x, const Eigen::VectorXd& y, double diffNormSquared,
                       double lambda, double epsilon) {
  double g = 0;  // λd + S/λ - 2xᵀy = Σ (λ - a_l)²/λ: a sum of squares, free of cancellation
  auto add = [&](double a) { g += (lambda - a) * (lambda - a); };
  if (epsilon > 0)
    for (Eigen::Index l = 0; l < x.size(); ++l)
      add(product(x[l], y[l], epsilon));
  else
    for (Eigen::Index l = 0; l < x.size(); ++l)
      add(x[l] * y[l]);
  g /= lambda;
  if (!(g > 0)) return kNegativeInfinity;
  return -diffNormSquared + logExpm1(g);
}

double poisOptimalLogVariance(const Eigen::VectorXd& x, const Eigen::VectorXd& y,
                              double diffNormSquared, double epsilon, double* lambda) {
  const bool shifted = epsilon > 0;
  const Eigen::Index d = x.size();
  // Pass 1: the mean of what the deviations are taken from (products, or gaps when shifted).
  long double base = 0;
  for (Eigen::Index l = 0; l < d; ++l)
    base += shifted ? std::abs(x[l] - y[l]) : x[l] * y[l];
  const double mean = static_cast<double>(base / d);
  // Pass 2: Σa², Σa and Σ(a - ā)² in long double (g can be ~1e5 while the log must hold 1e-10).
  long double squares = 0, sum = 0, spread = 0;
  for (Eigen::Index l = 0; l < d; ++l) {
    const double gap = std::abs(x[l] - y[l]);
    const double a = shifted ? epsilon * (epsilon + gap) : x[l] * y[l];
    const double deviation = shifted ? epsilon * (gap - mean) : a - mean;
    squares += static_cast<long double>(a) * a;
    sum += a;
    spread += static_cast<long double>(deviation) * deviation;
  }
  const long double dd = d;
  const long double root = std::sqrt(dd * squares);
  *lambda = static_cast<double>(std::sqrt(squares / dd));
  const double g = static_cast<double>(sum > 0 ? 2 * dd * spread / (root + sum) : 2 * (root - sum));
  if (!(g > 0)) return kNegativeInfinity;
  return -diffNormSquared + logExpm1(g);
}

double geomPStar(const Eigen::VectorXd& x, const Eigen::VectorXd& y) {
  std::uintmax_t iterations = 200;
  const auto r = boost::math::tools::brent_find_minima(
      [&](double t) {
        // p = 1/(1+e^{-t}) and 1-p = 1/(1+e^{t}), each without cancellation.
        return geomExponent(x, y, 0.0, 1 / (1 + std::exp(-t)), 1 / (1 + std::exp(t)));
      },
      -40.0, 40.0, 30, iterations);
  // Where the infimum is at p → 1 (x_l y_l = 0 for every l, e.g. y = 0), 1/(1 + e^{-40}) rounds to
  // 1, which no geometric law has: the largest double below 1 instead.
  return std::min(1 / (1 + std::exp(-r.first)), std::nextafter(1.0, 0.0));
}

double geomLogVariance(const Eigen::VectorXd& x, const Eigen::VectorXd& y, double diffNormSquared,
                       double p, double epsilon) {
  const double g = geomExponent(x, y, epsilon, p, 1 - p);
  if (!(g > 0)) return kNegativeInfinity;
  return -diffNormSquared + logExpm1(g);
}

void positiveShift(const Eigen::VectorXd& x, const Eigen::VectorXd& y, double epsilon,
                   Eigen::VectorXd& xShifted, Eigen::VectorXd& yShifted) {
  xShifted.resize(x.size());
  yShifted.resize(y.size());
  for (Eigen::Index l = 0; l < x.size(); ++l) {
    const double low = std::min(x[l], y[l]);
    xShifted[l] = (x[l] - low) + epsilon;
    yShifted[l] = (y[l] - low) + epsilon;
  }
}

}  // namespace rfscope
