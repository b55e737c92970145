#pragma once
// A smooth function on [a, b] replaced by its Chebyshev interpolant: for integrands whose every
// evaluation is expensive (a ₁F₁ with a large first parameter costs ~0.1 ms) while the quadrature
// around them needs a thousand points. The interpolant is built on Chebyshev–Lobatto points
// t_j = cos(πj/N), whose set for N is half the set for 2N, so doubling N reuses every value; it is
// accepted once the last three Chebyshev coefficients are below a relative tolerance of the
// largest sample (for an analytic function they fall geometrically, squaring with every doubling,
// and the interpolation error is then of the order of the first neglected one) — or once they stop
// falling below noiseLimit of it: then they are the samples' own rounding (a ₁F₁ in a hard region
// is good to ~1e-14), which the interpolant reproduces (its Lebesgue constant is ~log N) and more
// nodes cannot remove.

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <optional>
#include <vector>

namespace rfscope {

class ChebyshevInterpolant {
 public:
  // The interpolant of f on [a, b] (a < b) with at most maxNodes + 1 nodes (a power of two, >= 8),
  // or std::nullopt when its coefficients have neither fallen below tolerance × max |f(t_j)| nor
  // levelled off below noiseLimit × max |f(t_j)| by then (then f is not smooth enough at this
  // resolution: the caller evaluates f directly).
  static std::optional<ChebyshevInterpolant> fit(const std::function<double(double)>& f, double a,
                                                 double b, double tolerance, double noiseLimit,
                                                 int maxNodes) {
    const double mid = 0.5 * (a + b), half = 0.5 * (b - a);
    const auto at = [&](int j, int n) { return mid + half * std::cos(std::numbers::pi * j / n); };
    int n = 8;
    double previousTail = std::numeric_limits<double>::infinity();
    std::vector<double> values(n + 1);
    for (int j = 0; j <= n; ++j)
      values[j] = f(at(j, n));
    for (;;) {
      ChebyshevInterpolant p(mid, half, coefficients(values));
      double scale = 0;
      for (const double v : values)
        scale = std::max(scale, std::abs(v));
      const auto& c = p.coefficients_;
      const double tail = std::max({std::abs(c[n]), std::abs(c[n - 1]), std::abs(c[n - 2])});
      if (!std::isfinite(scale)) return std::nullopt;
      if (tail <= tolerance * scale) return p;
      if (tail <= noiseLimit * scale && tail >= 0.25 * previousTail) return p;
      if (2 * n > maxNodes) return std::nullopt;
      previousTail = tail;
      std::vector<double> refined(2 * n + 1);
      for (int j = 0; j <= 2 * n; ++j)
        refined[j] = j % 2 == 0 ? values[j / 2] : f(at(j, 2 * n));
      values = std::move(refined);
      n *= 2;
    }
  }

  double operator()(double x) const {
    // Clenshaw's recurrence for Σ' c_k T_k(t).
    const double t = (x - mid_) / half_;
    double next = 0, current = 0;
    for (std::size_t k = coefficients_.size() - 1; k >= 1; --k) {
      const double previous = 2 * t * current - next + coefficients_[k];
      next = current;
      current = previous;
    }
    return t * current - next + coefficients_[0];
  }

 private:
  ChebyshevInterpolant(double mid, double half, std::vector<double> coefficients)
      : mid_(mid), half_(half), coefficients_(std::move(coefficients)) {}

  // c_k = (2/N) Σ''_j f_j cos(πjk/N) (the end terms halved), with c_0 and c_N halved as well,
  // so that the interpolant is Σ_k c_k T_k(t) (a direct O(N²) transform: N <= a few hundred).
  static std::vector<double> coefficients(const std::vector<double>& values) {
    const int n = static_cast<int>(values.size()) - 1;
    std::vector<double> c(n + 1);
    for (int k = 0; k <= n; ++k) {
      double sum = 0;
      for (int j = 0; j <= n; ++j) {
        const double term = values[j] * std::cos(std::numbers::pi * ((j * k) % (2 * n)) / n);
        sum += (j == 0 || j == n) ? 0.5 * term : term;
      }
      c[k] = 2.0 / n * sum;
    }
    c[0] *= 0.5;
    c[n] *= 0.5;
    return c;
  }

  double mid_, half_;
  std::vector<double> coefficients_;
};

}  // namespace rfscope
