#include "core/attention/precision_attention.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/math/reproducible_exp.h"
#include "core/math/reproducible_trig.h"

namespace rfscope {

const char* stabiliserId(Stabiliser s) {
  switch (s) {
    case Stabiliser::None:
      return "none";
    case Stabiliser::NormFactor:
      return "norm-factor";
    case Stabiliser::RowMax:
      return "row-max";
    case Stabiliser::GlobalMax:
      return "global-max";
    case Stabiliser::PerformerMax:
      return "performer-max";
    case Stabiliser::Performer:
      return "performer";
    case Stabiliser::ExponentMax:
      return "exponent-max";
  }
  return "";
}

const char* stabiliserName(Stabiliser s) {
  switch (s) {
    case Stabiliser::None:
      return "no stabiliser";
    case Stabiliser::NormFactor:
      return "‖x‖²/2 after e^x";
    case Stabiliser::RowMax:
      return "row max (both sides)";
    case Stabiliser::GlobalMax:
      return "global max (both sides)";
    case Stabiliser::PerformerMax:
      return "Performer max";
    case Stabiliser::Performer:
      return "Performer max + ε";
    case Stabiliser::ExponentMax:
      return "exponent max";
  }
  return "";
}

bool precisionModelCovers(const FeatureMapRecipe& recipe) {
  return recipe.form == FeatureMapRecipe::Form::GeneralizedExponential &&
         recipe.kernel == Kernel::Softmax && recipe.a.imag() == 0 &&
         (recipe.s == 1 || (recipe.s == -1 && recipe.a.real() == 0 && !recipe.antithetic)) &&
         recipe.a.real() < 0.25;
}

Eigen::MatrixXd precisionProduct(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, Precision p) {
  const Eigen::Index rows = a.rows(), inner = a.cols(), cols = b.cols();
  Eigen::MatrixXd out(rows, cols);
  if (p == Precision::Float64) {
    // Index order, no fused multiply-add: the same bits everywhere.
    std::vector<double> sum(static_cast<std::size_t>(cols));
    for (Eigen::Index i = 0; i < rows; ++i) {
      std::fill(sum.begin(), sum.end(), 0.0);
      for (Eigen::Index k = 0; k < inner; ++k) {
        const double x = a(i, k);
        for (Eigen::Index j = 0; j < cols; ++j) {
          const double product = x * b(k, j);
          sum[static_cast<std::size_t>(j)] += product;
        }
      }
      for (Eigen::Index j = 0; j < cols; ++j)
        out(i, j) = sum[static_cast<std::size_t>(j)];
    }
    return out;
  }
  // float32 accumulation of products that float32 holds exactly (float16/bfloat16 inputs) or
  // rounds once (float32 inputs).
  const Eigen::MatrixXf bf = b.cast<float>();
  std::vector<float> sum(static_cast<std::size_t>(cols));
  for (Eigen::Index i = 0; i < rows; ++i) {
    std::fill(sum.begin(), sum.end(), 0.0f);
    for (Eigen::Index k = 0; k < inner; ++k) {
      const auto x = static_cast<float>(a(i, k));
      for (Eigen::Index j = 0; j < cols; ++j) {
        const float product = x * bf(k, j);
        sum[static_cast<std::size_t>(j)] += product;
      }
    }
    for (Eigen::Index j = 0; j < cols; ++j)
      out(i, j) = roundTo(p, static_cast<double>(sum[static_cast<std::size_t>(j)]));
  }
  return out;
}

namespace {

double rounded(Precision p, double x) {
  return roundTo(p, x);
}

// The max a stabiliser subtracts on one side: per row, one for all rows, or none (0).
enum class MaxKind { None, Row, Global };

MaxKind maxKind(Stabiliser s, bool queries) {
  switch (s) {
    case Stabiliser::None:
    case Stabiliser::NormFactor:
      return MaxKind::None;
    case Stabiliser::RowMax:
      return MaxKind::Row;
    case Stabiliser::GlobalMax:
      return MaxKind::Global;
    case Stabiliser::PerformerMax:
    case Stabiliser::Performer:
    case Stabiliser::ExponentMax:
      return queries ? MaxKind::Row : MaxKind::Global;
  }
  return MaxKind::None;
}

// The maxima of the rows of m (over its columns), or the one maximum of all, per row.
Eigen::VectorXd maxima(const Eigen::MatrixXd& m, MaxKind kind) {
  Eigen::VectorXd out = Eigen::VectorXd::Zero(m.rows());
  if (kind == MaxKind::None || m.size() == 0) return out;
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    double largest = -std::numeric_limits<double>::infinity();
    for (Eigen::Index k = 0; k < m.cols(); ++k)
      largest = std::max(largest, m(i, k));  // NaN entries are skipped
    out[i] = largest;
  }
  if (kind == MaxKind::Global) out.setConstant(out.maxCoeff());
  return out;
}

}  // namespace

Eigen::MatrixXd precisionFeatures(const FeatureMapRecipe& recipe, const Eigen::MatrixXd& raw,
                                  bool queries, const PrecisionSettings& settings) {
  const Precision p = settings.precision;
  const Eigen::Index n = raw.rows(), d = raw.cols(), m = recipe.omega.rows();
  const double a = recipe.a.real();
  const bool trig = recipe.s == -1;
  const double normaliser = rounded(p, std::pow(static_cast<double>(d), -0.25));
  // x = d^{-1/4} q and |x|²/2 = (Σ q_l² / 2) · d^{-1/2}, as performer-pytorch computes them.
  Eigen::MatrixXd x(n, d);
  Eigen::VectorXd half(n);
  const double normaliserSquared = rounded(p, 1.0 / std::sqrt(static_cast<double>(d)));
  for (Eigen::Index i = 0; i < n; ++i) {
    double sumD = 0;
    float sumF = 0;
    for (Eigen::Index l = 0; l < d; ++l) {
      const double q = rounded(p, raw(i, l));
      x(i, l) = rounded(p, normaliser * q);
      const double square = rounded(p, q * q);
      if (p == Precision::Float64)
        sumD += square;
      else
        sumF += static_cast<float>(square);
    }
    const double sum = p == Precision::Float64 ? sumD : rounded(p, static_cast<double>(sumF));
    half[i] = rounded(p, rounded(p, sum / 2) * normaliserSquared);
  }
  Eigen::MatrixXd omega(m, d);
  for (Eigen::Index k = 0; k < m; ++k)
    for (Eigen::Index l = 0; l < d; ++l)
      omega(k, l) = rounded(p, recipe.omega(k, l));
  const Eigen::MatrixXd projections = precisionProduct(x, omega.transpose(), p);  // n × m

  const double ratio =
      rounded(p, 1.0 / std::sqrt(static_cast<double>(recipe.antithetic ? 2 * m : m)));
  const MaxKind kind = maxKind(settings.stabiliser, queries);
  const bool performerEps = settings.stabiliser == Stabiliser::Performer && !trig;
  const double eps = rounded(p, settings.eps);
  const auto finish = [&](double feature) {
    if (performerEps) return rounded(p, ratio * rounded(p, feature + eps));
    return rounded(p, ratio * feature);
  };

  if (trig) {
    // e^{|x|²/2}(cos ωᵀx, sin ωᵀx): the stabilisers act on the magnitude's exponent |x|²/2.
    Eigen::MatrixXd magnitude(n, 1);
    magnitude.col(0) = half;
    const Eigen::VectorXd shift = maxima(magnitude, kind);
    Eigen::MatrixXd out(n, 2 * m);
    for (Eigen::Index i = 0; i < n; ++i) {
      const double g = rounded(p, reproducibleExp(rounded(p, half[i] - shift[i])));
      for (Eigen::Index k = 0; k < m; ++k) {
        double sine = 0, cosine = 0;
        reproducibleSinCos(projections(i, k), sine, cosine);
        out(i, k) = finish(rounded(p, g * rounded(p, cosine)));
        out(i, m + k) = finish(rounded(p, g * rounded(p, sine)));
      }
    }
    return out;
  }

  // P: ωᵀx, ±ωᵀx (hyperbolic), or Bωᵀx + (A|ω|² + log D) (OPRF).
  const Eigen::Index width = recipe.antithetic ? 2 * m : m;
  Eigen::MatrixXd exponentPart(n, width);
  if (a == 0) {
    exponentPart.leftCols(m) = projections;
    if (recipe.antithetic) exponentPart.rightCols(m) = -projections;
  } else {
    const double b = rounded(p, std::sqrt(1 - 4 * a));
    const double logD = 0.25 * static_cast<double>(recipe.omega.cols()) * std::log(1 - 4 * a);
    for (Eigen::Index k = 0; k < m; ++k) {
      const double constant = rounded(p, a * recipe.omega.row(k).squaredNorm() + logD);
      for (Eigen::Index i = 0; i < n; ++i)
        exponentPart(i, k) = rounded(p, rounded(p, b * projections(i, k)) + constant);
    }
    if (recipe.antithetic)
      for (Eigen::Index k = 0; k < m; ++k) {
        const double constant = rounded(p, a * recipe.omega.row(k).squaredNorm() + logD);
        for (Eigen::Index i = 0; i < n; ++i)
          exponentPart(i, m + k) = rounded(p, rounded(p, -b * projections(i, k)) + constant);
      }
  }
  Eigen::MatrixXd out(n, width);
  if (settings.stabiliser == Stabiliser::ExponentMax) {
    Eigen::MatrixXd exponent(n, width);
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index k = 0; k < width; ++k)
        exponent(i, k) = rounded(p, exponentPart(i, k) - half[i]);
    const Eigen::VectorXd shift = maxima(exponent, kind);
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index k = 0; k < width; ++k)
        out(i, k) = finish(rounded(p, reproducibleExp(rounded(p, exponent(i, k) - shift[i]))));
    return out;
  }
  const Eigen::VectorXd shift = maxima(exponentPart, kind);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index k = 0; k < width; ++k) {
      double feature = 0;
      if (settings.stabiliser == Stabiliser::NormFactor) {
        feature = rounded(p, rounded(p, reproducibleExp(exponentPart(i, k))) *
                                 rounded(p, reproducibleExp(-half[i])));
      } else {
        double e = rounded(p, exponentPart(i, k) - half[i]);
        if (kind != MaxKind::None) e = rounded(p, e - shift[i]);
        feature = rounded(p, reproducibleExp(e));
      }
      out(i, k) = finish(feature);
    }
  return out;
}

PrecisionAttention precisionAttention(const Eigen::MatrixXd& queryFeatures,
                                      const Eigen::MatrixXd& keyFeatures,
                                      const Eigen::MatrixXd& values, bool causal, Precision p) {
  const Eigen::Index n = queryFeatures.rows(), keys = keyFeatures.rows(), dv = values.cols();
  const Eigen::Index width = keyFeatures.cols();
  Eigen::MatrixXd augmented(keys, dv + 1);  // [V | 1]
  for (Eigen::Index j = 0; j < keys; ++j) {
    for (Eigen::Index c = 0; c < dv; ++c)
      augmented(j, c) = roundTo(p, values(j, c));
    augmented(j, dv) = 1;
  }
  Eigen::MatrixXd sums(n, dv + 1);
  if (!causal) {
    const Eigen::MatrixXd context = precisionProduct(keyFeatures.transpose(), augmented, p);
    sums = precisionProduct(queryFeatures, context, p);
  } else {
    Eigen::MatrixXd running = Eigen::MatrixXd::Zero(width, dv + 1);
    for (Eigen::Index i = 0; i < n; ++i) {
      for (Eigen::Index w = 0; w < width; ++w)
        for (Eigen::Index c = 0; c <= dv; ++c)
          running(w, c) =
              roundTo(p, running(w, c) + roundTo(p, keyFeatures(i, w) * augmented(i, c)));
      sums.row(i) = precisionProduct(queryFeatures.row(i), running, p);
    }
  }
  PrecisionAttention out;
  out.normaliser = sums.col(dv);
  out.output.resize(n, dv);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double inverse = roundTo(p, 1.0 / out.normaliser[i]);
    for (Eigen::Index c = 0; c < dv; ++c)
      out.output(i, c) = roundTo(p, sums(i, c) * inverse);
  }
  return out;
}

}  // namespace rfscope
