#include "core/montecarlo/exact_tail.h"

#include <cmath>
#include <complex>
#include <limits>
#include <numbers>
#include <vector>

#include "core/montecarlo/sampling_plan.h"

namespace rfscope {
namespace {

using Complex = std::complex<double>;
constexpr double kInfinity = std::numeric_limits<double>::infinity();
// The interval's skewness budget per batch (see exact_tail.h), and the share of the terms' sum
// below which a central moment has cancelled too far to be trusted.
constexpr double kSkewnessPerBatch = 5;
constexpr double kCancellation = 1e-9;

// c · exp(a|ω|² + bp ωᵀ(x+y) + bq ωᵀ(x-y)) · P^phase, c kept as its complex log; P is the random
// phase's e^{2ib}, which averages to 0 unless the phases of a product cancel.
struct Term {
  Complex logC, a, bp, bq;
  int phase = 0;
};

std::vector<Term> featureTerms(const ExponentialFeatureModel& m) {
  const Complex i(0, 1), half = std::log(0.5);
  if (m.randomPhase)  // cos(ωᵀq) + cos(ωᵀp + 2b)
    return {{half, 0.0, 0.0, i, 0},
            {half, 0.0, 0.0, -i, 0},
            {half, 0.0, i, 0.0, 1},
            {half, 0.0, -i, 0.0, -1}};
  const Complex a(m.alphaRe, m.alphaIm), bp(m.sumRe, m.sumIm), bq(m.diffRe, m.diffIm);
  std::vector<Term> terms;
  if (m.alphaIm == 0 && m.sumIm == 0 && m.diffIm == 0 && m.gammaIm == 0) {
    terms.push_back({0.0, a, bp, bq, 0});  // Re W = W
  } else {                                 // Re W = ½W + ½W̄
    terms.push_back({half + i * m.gammaIm, a, bp, bq, 0});
    terms.push_back({half - i * m.gammaIm, std::conj(a), std::conj(bp), std::conj(bq), 0});
  }
  if (m.antithetic) {  // ½(f(ω) + f(-ω))
    const std::size_t n = terms.size();
    for (std::size_t t = 0; t < n; ++t) {
      terms[t].logC += half;
      terms.push_back({terms[t].logC, terms[t].a, -terms[t].bp, -terms[t].bq, 0});
    }
  }
  return terms;
}

struct Geometry {
  double pp = 0, pq = 0, qq = 0;
  int dimension = 1;
};

// log E[term] (complex), or nullopt where the expectation is infinite (Re a ≥ ½).
std::optional<Complex> logExpectation(const Term& t, const Geometry& g) {
  const Complex oneMinus2A = 1.0 - 2.0 * t.a;
  if (!(oneMinus2A.real() > 0)) return std::nullopt;
  const Complex quadratic = t.bp * t.bp * g.pp + 2.0 * t.bp * t.bq * g.pq + t.bq * t.bq * g.qq;
  return t.logC - 0.5 * g.dimension * std::log(oneMinus2A) + quadratic / (2.0 * oneMinus2A);
}

struct LogMoment {
  double logAbs = -kInfinity;
  int sign = 0;
  bool infinite = false, cancelled = false;
};

// E[(Σ_t terms)^k] from the expectations of every k-fold product of terms.
LogMoment moment(const std::vector<Term>& terms, const Geometry& g, int k) {
  std::vector<Complex> logs;
  bool infinite = false;
  const auto visit = [&](auto&& self, int depth, const Term& product) -> void {
    if (depth == k) {
      if (product.phase != 0) return;
      if (const auto value = logExpectation(product, g))
        logs.push_back(*value);
      else
        infinite = true;
      return;
    }
    for (const Term& t : terms)
      self(self, depth + 1,
           Term{product.logC + t.logC, product.a + t.a, product.bp + t.bp, product.bq + t.bq,
                product.phase + t.phase});
  };
  visit(visit, 0, Term{});
  LogMoment out;
  if (infinite) {
    out.infinite = true;
    return out;
  }
  double largest = -kInfinity;
  for (const Complex& l : logs)
    largest = std::max(largest, l.real());
  double sum = 0, magnitude = 0;
  for (const Complex& l : logs) {
    const Complex v = std::exp(l - largest);
    sum += v.real();
    magnitude += std::abs(v);
  }
  out.cancelled = !(std::abs(sum) > kCancellation * magnitude);
  out.sign = sum > 0 ? 1 : (sum < 0 ? -1 : 0);
  out.logAbs = std::log(std::abs(sum)) + largest;
  return out;
}

}  // namespace

std::optional<ExactTail> exactTail(const SamplingPlan& plan, int batches) {
  if (plan.coupling != Coupling::Iid || plan.model.family != TrialFamily::Exponential)
    return std::nullopt;
  Geometry g;
  g.pp = plan.sum.squaredNorm();
  g.pq = plan.sum.dot(plan.difference);
  g.qq = plan.difference.squaredNorm();
  g.dimension = plan.dimension;
  std::vector<Term> terms = featureTerms(plan.model.exponential);
  // One feature divided by its mean, less 1: the moments below are central and scale-free.
  const LogMoment mean = moment(terms, g, 1);
  if (mean.infinite || mean.cancelled || mean.sign <= 0) return std::nullopt;
  for (Term& t : terms)
    t.logC -= mean.logAbs;
  terms.push_back({Complex(0, std::numbers::pi), 0.0, 0.0, 0.0, 0});  // -1
  const LogMoment m2 = moment(terms, g, 2), m3 = moment(terms, g, 3), m4 = moment(terms, g, 4),
                  m6 = moment(terms, g, 6);
  if (m2.infinite || m2.cancelled || m2.sign <= 0) return std::nullopt;
  ExactTail tail;
  if (m4.infinite) {
    tail.kurtosis = tail.errorSkewness = tail.trialsNeeded = kInfinity;
    return tail;
  }
  if (m3.cancelled || m4.cancelled || m4.sign <= 0) return std::nullopt;
  const double features = static_cast<double>(plan.features);
  // Standardised cumulants of one feature, then of the average of M (κ_j / M^{j/2 - 1}).
  const double beta4One = std::exp(m4.logAbs - 2 * m2.logAbs);
  const double g3 = m3.sign * std::exp(m3.logAbs - 1.5 * m2.logAbs) / std::sqrt(features);
  const double g4 = (beta4One - 3) / features;
  tail.kurtosis = g4 + 3;
  const double logBeta6One = m6.logAbs - 3 * m2.logAbs;
  if (m6.infinite || logBeta6One > 690) {
    tail.errorSkewness = tail.trialsNeeded = kInfinity;
    return tail;
  }
  if (m6.cancelled || m6.sign <= 0) return std::nullopt;
  const double g3One = g3 * std::sqrt(features);
  const double g6 =
      (std::exp(logBeta6One) - 15 * beta4One - 10 * g3One * g3One + 30) / (features * features);
  const double beta6 = g6 + 15 * g4 + 10 * g3 * g3 + 15;
  const double excess = tail.kurtosis - 1;
  if (!(excess > 0)) return std::nullopt;
  tail.errorSkewness = (beta6 - 3 * tail.kurtosis + 2) / std::pow(excess, 1.5);
  const double perBatch = tail.errorSkewness / kSkewnessPerBatch;
  tail.trialsNeeded = batches * perBatch * perBatch;
  return tail;
}

}  // namespace rfscope
