#include "core/mechanisms/discrete_rf.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <boost/math/tools/minima.hpp>

#include "core/math/log_bessel_i0.h"
#include "core/math/log_math.h"
#include "core/mechanisms/mechanism.h"
#include "core/mechanisms/mechanism_parameters.h"
#include "core/random/distributions.h"

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

double dataDrivenPoisLambda(const SetStatistics& stats) {
  return poisLambdaStar(stats.dimension, stats.meanPoisStatistic);
}

double dataDrivenGeomP(const SetStatistics& stats) {
  Eigen::VectorXd arguments(stats.meanAbsProducts.size());
  auto objective = [&](double t) {
    const double p = 1 / (1 + std::exp(-t)), q = 1 / (1 + std::exp(t));
    arguments = (2 / std::sqrt(q)) * stats.meanAbsProducts;
    LogBesselI0Sum bessel;
    bessel.add(arguments.data(), static_cast<std::size_t>(arguments.size()));
    return -stats.dimension * std::log(p) + bessel.value();
  };
  std::uintmax_t iterations = 200;
  const auto r = boost::math::tools::brent_find_minima(objective, -40.0, 40.0, 30, iterations);
  return 1 / (1 + std::exp(-r.first));
}

namespace {

constexpr double kDefaultEpsilon = 0.1;

// λ or p of resolved parameters, checked; the reason when the estimator is not defined.
Outcome<double> lawParameter(DiscreteKind kind, const ParameterSet& params, double automatic) {
  if (kind.distribution == DiscreteDistribution::Poisson) {
    const double lambda = realOr(params, "lambda", automatic);
    if (!(lambda > 0))
      return Outcome<double>::unavailable(
          "PoisRF needs λ > 0 (x_l y_l = 0 for every l gives λ* = 0)");
    return lambda;
  }
  const double p = realOr(params, "p", automatic);
  if (!(p > 0 && p < 1)) return Outcome<double>::unavailable("GeomRF needs 0 < p < 1");
  return p;
}

}  // namespace

Outcome<TrialModel> discreteTrialModel(const Mechanism& mechanism, DiscreteKind kind,
                                       Coupling coupling, const Eigen::VectorXd& xIn,
                                       const Eigen::VectorXd& yIn, const ParameterSet& resolved) {
  if (coupling != Coupling::Iid)
    return Outcome<TrialModel>::unavailable("discrete ω (" + mechanism.info().id +
                                            ") are sampled i.i.d. only");
  const bool poisson = kind.distribution == DiscreteDistribution::Poisson;
  Eigen::VectorXd x = xIn, y = yIn;
  if (kind.shifted) {  // CRT §3.2.3: shift both by c_l = min(x_l, y_l) - ε so that all entries are
                       // > 0
    const double epsilon = realOr(resolved, "epsilon", kDefaultEpsilon);
    for (Eigen::Index l = 0; l < x.size(); ++l) {
      const double c = std::min(x[l], y[l]) - epsilon;
      x[l] -= c;
      y[l] -= c;
    }
  }
  const int d = static_cast<int>(x.size());
  const Outcome<double> law =
      lawParameter(kind, resolved, poisson ? std::sqrt(x.cwiseProduct(y).squaredNorm() / d) : 0);
  if (!law) return Outcome<TrialModel>::unavailable(law.reason());
  const double parameter = *law;
  TrialModel model;
  model.family = TrialFamily::Discrete;
  DiscreteTrialModel& discrete = model.discrete;
  discrete.distribution = kind.distribution;
  discrete.parameter = parameter;
  const double logScale = poisson ? std::log(parameter) : std::log1p(-parameter);
  discrete.weights.resize(d);
  discrete.signs.resize(d);
  for (int l = 0; l < d; ++l) {
    const double product = x[l] * y[l];
    discrete.signs[l] = product > 0 ? 1 : (product < 0 ? -1 : 0);
    discrete.weights[l] = product == 0 ? -std::numeric_limits<double>::infinity()
                                       : std::log(std::fabs(product)) - logScale;
  }
  const double normsSquared = x.squaredNorm() + y.squaredNorm();
  model.logConstant = (poisson ? parameter * d : -d * std::log(parameter)) - 0.5 * normsSquared;
  return model;
}

namespace {

class DiscreteFeatureMap final : public FeatureMap {
 public:
  DiscreteFeatureMap(const FeatureMapSpec& spec, Eigen::MatrixXd counts,
                     Eigen::VectorXd columnConstant, Eigen::VectorXd shift)
      : FeatureMap(spec.dimension, spec.features, spec.features),
        counts_(std::move(counts)),
        positiveCounts_((counts_.array() > 0).cast<double>()),
        columnConstant_(std::move(columnConstant)),
        shift_(std::move(shift)),
        kernel_(spec.kernel),
        rootFeatures_(std::sqrt(static_cast<double>(spec.features))) {
    if (counts_.cols() > kMaskBits) return;
    oddCounts_.assign(static_cast<std::size_t>(counts_.rows()), 0);
    positiveMask_.assign(static_cast<std::size_t>(counts_.rows()), 0);
    for (Eigen::Index k = 0; k < counts_.rows(); ++k)
      for (Eigen::Index l = 0; l < counts_.cols(); ++l) {
        const std::uint64_t bit = std::uint64_t{1} << l;
        if ((static_cast<std::int64_t>(counts_(k, l)) & 1) != 0)
          oddCounts_[static_cast<std::size_t>(k)] |= bit;
        if (counts_(k, l) > 0) positiveMask_[static_cast<std::size_t>(k)] |= bit;
      }
  }

  bool mapsRows() const override { return true; }

 protected:
  void map(Side, const Eigen::Ref<const Eigen::MatrixXd>& x, FeatureMatrix& out) const override {
    out.values.resize(x.rows(), features());
    out.logScale.resize(x.rows());
    compute(x, out.logScale.data(), [&](Eigen::Index first, const Eigen::MatrixXd& tile) {
      for (Eigen::Index k = 0; k < tile.rows(); ++k)
        for (Eigen::Index t = 0; t < tile.cols(); ++t)
          out.values(first + t, k) = tile(k, t);
    });
  }
  // A tile's columns are its points' rows: copied as they are.
  void mapRows(Side, const InputRows& x, FeatureRows<double> out) const override {
    compute(x, out.logScale, [&](Eigen::Index first, const Eigen::MatrixXd& tile) {
      for (Eigen::Index t = 0; t < tile.cols(); ++t)
        std::copy(tile.col(t).data(), tile.col(t).data() + tile.rows(),
                  out.values + (first + t) * out.stride);
    });
    if (out.plain) applyLogScales(out, x.rows(), width());
  }
  void mapRows(Side side, const InputRows& x, FeatureRows<float> out) const override {
    FeatureMap::mapRows(side, x, out);
  }

 private:
  // |x_i|², summed in coordinate order whatever the layout of x (Eigen's sum over a contiguous
  // row-major row may vectorise and add in another order; over a column-major row it does not).
  template <class Input>
  static double rowSquaredNorm(const Input& x, Eigen::Index i) {
    double sum = 0;  // 0 + x_0² = x_0²: Eigen's sequential sum, which starts from x_0²
    for (Eigen::Index l = 0; l < x.cols(); ++l)
      sum += x(i, l) * x(i, l);
    return sum;
  }

  // The features of the rows of x, kTile points at a time: write(first, tile) receives the
  // features of points first, first + 1, … as the columns of tile (M × count); their log-scales
  // go to logScale[first…].
  template <class Input, class Write>
  void compute(const Input& x, double* logScale, Write&& write) const {
    const Eigen::Index rows = x.rows(), m = features();
    // Xᵀ (shifted), and per entry log|x_l| (0 where x_l = 0: those features are zeroed below),
    // the indicator of x_l < 0 and of x_l = 0.
    Eigen::MatrixXd shifted = x.transpose();
    if (shift_.size() > 0) shifted.colwise() -= shift_;
    const Eigen::MatrixXd logAbs =
        (shifted.array() == 0).select(0.0, shifted.array().abs().log()).matrix();
    // Σ_l ω_l [x_l < 0] and Σ_l [ω_l > 0][x_l = 0], M × L — only where some entry is negative
    // or zero (never for the "+" variants' shifted data, whose features are then all positive).
    const bool anyNegative = (shifted.array() < 0).any(), anyZero = (shifted.array() == 0).any();
    // With d ≤ 64 as bit masks per point (bit l: x_l < 0, x_l = 0): then the parity of
    // Σ_l ω_l [x_l < 0] is that of the number of odd ω_l at negative x_l, and some ω_l > 0 meets
    // a zero x_l where the masks share a bit: the same answers as the sums, without the products.
    const bool masks = counts_.cols() <= kMaskBits;
    std::vector<std::uint64_t> negativeMask, zeroMask;
    Eigen::MatrixXd negatives, zeros;
    if (masks) {
      negativeMask.assign(static_cast<std::size_t>(rows), 0);
      zeroMask.assign(static_cast<std::size_t>(rows), 0);
      for (Eigen::Index i = 0; i < rows; ++i)
        for (Eigen::Index l = 0; l < shifted.rows(); ++l) {
          const std::uint64_t bit = std::uint64_t{1} << l;
          if (shifted(l, i) < 0) negativeMask[static_cast<std::size_t>(i)] |= bit;
          if (shifted(l, i) == 0) zeroMask[static_cast<std::size_t>(i)] |= bit;
        }
    } else {
      if (anyNegative) negatives = counts_ * (shifted.array() < 0).cast<double>().matrix();
      if (anyZero) zeros = positiveCounts_ * (shifted.array() == 0).cast<double>().matrix();
    }
    const auto meetsZero = [&](Eigen::Index k, Eigen::Index i) {
      return masks ? (positiveMask_[static_cast<std::size_t>(k)] &
                      zeroMask[static_cast<std::size_t>(i)]) != 0
                   : zeros(k, i) > 0;
    };
    // negatives holds whole numbers (sums of counts), far below 2^53: its parity is exact.
    const auto oddNegatives = [&](Eigen::Index k, Eigen::Index i) {
      return masks ? (std::popcount(oddCounts_[static_cast<std::size_t>(k)] &
                                    negativeMask[static_cast<std::size_t>(i)]) &
                      1) != 0
                   : (static_cast<std::int64_t>(negatives(k, i)) & 1) != 0;
    };
    const Eigen::RowVectorXd shiftedNorms = shifted.colwise().squaredNorm();
    // Log-magnitudes, one column per point, in place of Σ_l ω_l log|x_l| (M × L).
    const Eigen::MatrixXd products = counts_ * logAbs;
    // The rest a tile of kTile points at a time, which stays in the cache from the products to
    // the features: the constants added, the columns exponentiated (exponentiateColumns, column by
    // column), the signs and the division by √M, then the tile handed to write. The same
    // operations on every entry as whole-matrix passes, so the same bits.
    constexpr Eigen::Index kTile = 32;
    Eigen::MatrixXd tile;
    Eigen::VectorXd tileScale;
    for (Eigen::Index i0 = 0; i0 < rows; i0 += kTile) {
      const Eigen::Index count = std::min(kTile, rows - i0);
      tile.resize(m, count);
      for (Eigen::Index t = 0; t < count; ++t) {
        const Eigen::Index i = i0 + t;
        const double rowConstant =
            -0.5 * shiftedNorms[i] + kernelRowLogScale(kernel_, rowSquaredNorm(x, i));
        for (Eigen::Index k = 0; k < m; ++k)
          tile(k, t) = anyZero && meetsZero(k, i)
                           ? kNegativeInfinity
                           : products(k, i) + (columnConstant_[k] + rowConstant);
      }
      exponentiateColumns(tile, tileScale);
      std::copy(tileScale.data(), tileScale.data() + count, logScale + i0);
      if (anyNegative)
        for (Eigen::Index t = 0; t < count; ++t)
          for (Eigen::Index k = 0; k < m; ++k)
            if (oddNegatives(k, i0 + t)) tile(k, t) *= -1.0;
      tile.array() /= rootFeatures_;
      write(i0, tile);
    }
  }

 private:
  static constexpr Eigen::Index kMaskBits = 64;
  Eigen::MatrixXd counts_, positiveCounts_;  // ω (M × d) and its indicator of ω_l > 0
  // For d ≤ 64, per frequency: bit l set where ω_l is odd, and where ω_l > 0 (else empty).
  std::vector<std::uint64_t> oddCounts_, positiveMask_;
  Eigen::VectorXd columnConstant_;  // -½ Σ_l log(ω_l! p_{ω_l}) per frequency
  Eigen::VectorXd shift_;           // c, or empty
  Kernel kernel_;
  double rootFeatures_;
};

}  // namespace

Outcome<std::unique_ptr<FeatureMap>> drawDiscreteFeatureMap(const Mechanism& mechanism,
                                                            DiscreteKind kind,
                                                            const FeatureMapSpec& spec,
                                                            TrialStream& stream) {
  using Result = Outcome<std::unique_ptr<FeatureMap>>;
  const std::string& name = mechanism.info().name;
  if (spec.coupling != Coupling::Iid)
    return Result::unavailable("discrete ω (" + mechanism.info().id + ") are sampled i.i.d. only");
  const bool poisson = kind.distribution == DiscreteDistribution::Poisson;
  const double parameter = requiredReal(spec.parameters, poisson ? "lambda" : "p", name);
  const Outcome<double> law = lawParameter(kind, spec.parameters, parameter);
  if (!law) return Result::unavailable(law.reason());
  if (kind.shifted && spec.shift.size() != spec.dimension)
    throw InvalidParameter("shift", name + " feature maps need the dataset-wide shift c of " +
                                        std::to_string(spec.dimension) +
                                        " entries (e.g. positiveShift(X, Y, ε))");
  const int d = spec.dimension;
  Eigen::MatrixXd counts(spec.features, d);
  Eigen::VectorXd columnConstant(spec.features);
  const double logLaw = std::log(parameter);
  const double logComplement = poisson ? 0.0 : std::log1p(-parameter);
  for (std::int64_t j = 0; j < spec.features; ++j) {
    double logWeights = 0;  // Σ_l log(ω_l! p_{ω_l})
    for (int l = 0; l < d; ++l) {
      const std::int64_t k =
          poisson ? poissonVariate(stream, parameter) : geometricVariate(stream, parameter);
      counts(j, l) = static_cast<double>(k);
      logWeights += poisson ? -parameter + static_cast<double>(k) * logLaw
                            : std::lgamma(static_cast<double>(k) + 1.0) + logLaw +
                                  static_cast<double>(k) * logComplement;
    }
    columnConstant[j] = -0.5 * logWeights;
  }
  return std::unique_ptr<FeatureMap>(
      std::make_unique<DiscreteFeatureMap>(spec, std::move(counts), std::move(columnConstant),
                                           kind.shifted ? spec.shift : Eigen::VectorXd()));
}

}  // namespace rfscope
