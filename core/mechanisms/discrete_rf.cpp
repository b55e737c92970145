#include "core/mechanisms/discrete_rf.h"

#include <cmath>
#include <cstdint>
#include <numbers>

#include <boost/math/special_functions/bessel.hpp>
#include <boost/math/tools/minima.hpp>

#include "core/analytic/log_math.h"

namespace rfscope {
namespace {

// -d log p + Σ log I₀(2|a_l|/√(1-p)) - 2Σa_l, with 1 - p passed separately (exact near p = 1).
double geomExponent(const Eigen::VectorXd& x, const Eigen::VectorXd& y, double p, double q) {
  const double scale = 2 / std::sqrt(q);
  double sum = -static_cast<double>(x.size()) * std::log(p);
  for (Eigen::Index l = 0; l < x.size(); ++l) {
    const double a = x[l] * y[l];
    sum += logBesselI0(scale * std::abs(a)) - 2 * a;
  }
  return sum;
}

}  // namespace

double logBesselI0(double z) {
  if (z < 0.5) {
    // I₀(z) - 1 = Σ_{k≥1} (z²/4)^k / (k!)², summed to double precision.
    const double t = z * z / 4;
    double term = t, sum = t;
    for (int k = 2; k < 12 && term > 1e-18 * sum; ++k) {
      term *= t / (static_cast<double>(k) * k);
      sum += term;
    }
    return std::log1p(sum);
  }
  if (z < 700) return std::log(boost::math::cyl_bessel_i(0, z));
  // Hankel expansion: I₀(z) = e^z/√(2πz) (1 + 1/(8z) + 9/(128z²) + 225/(3072z³) + …).
  const double r = 1 / z;
  const double series = r * (1.0 / 8 + r * (9.0 / 128 + r * (225.0 / 3072 + r * 11025.0 / 98304)));
  return z - 0.5 * std::log(2 * std::numbers::pi * z) + std::log1p(series);
}

double poisStatistic(const Eigen::VectorXd& x, const Eigen::VectorXd& y) {
  return x.cwiseProduct(y).squaredNorm();
}

double poisLambdaStar(int dimension, double statistic) {
  return std::sqrt(statistic / dimension);
}

double poisLogVariance(const Eigen::VectorXd& x, const Eigen::VectorXd& y, double diffNormSquared,
                       double lambda) {
  double g = 0;  // λd + S/λ - 2xᵀy = Σ (λ - a_l)²/λ: a sum of squares, free of cancellation
  for (Eigen::Index l = 0; l < x.size(); ++l) {
    const double e = lambda - x[l] * y[l];
    g += e * e;
  }
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
        return geomExponent(x, y, 1 / (1 + std::exp(-t)), 1 / (1 + std::exp(t)));
      },
      -40.0, 40.0, 30, iterations);
  return 1 / (1 + std::exp(-r.first));
}

double geomLogVariance(const Eigen::VectorXd& x, const Eigen::VectorXd& y, double diffNormSquared,
                       double p) {
  const double g = geomExponent(x, y, p, 1 - p);
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
