#include "core/attention/attention_prediction.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <tbb/parallel_for.h>

#include "core/analytic/analytic_variance.h"
#include "core/math/log_math.h"
#include "core/mechanisms/dense_exponential.h"

namespace rfscope {
namespace {

// The excess c of the mechanism's same-query covariance (same_query_covariance.h), with the
// constant d ℓ(r) of the Optimal form for this dimension.
using ExcessForm = SameQueryCovariance::Form;

struct CovarianceModel {
  ExcessForm form = ExcessForm::ExpSum;
  double r = 1;         // Optimal: 1 - 8A
  double constant = 0;  // Optimal: d ℓ(r); Dense: Σ ℓ(r_l)
  // Dense: the transformed keys ỹ = T2y and their Grams ỹ_jᵀDỹ_k, ỹ_jᵀỹ_k, D = diag(1/r).
  std::shared_ptr<const DerfParameters> dense;
  Eigen::ArrayXd inverseR;
  Eigen::MatrixXd transformedKeys, weightedGram, plainGram;
};

// ℓ(r) = log((1 + r)/2) - ½ log r ≥ 0 without cancellation near r = 1.
double logHalfSumOverRoot(double r) {
  const double root = std::sqrt(r);
  return std::log1p((r - 1) * (r - 1) / (2 * root * (1 + root) * (1 + root)));
}

// log(cosh t - 1), never overflowing.
double logCoshMinusOne(double t) {
  const double a = std::abs(t);
  if (a == 0) return kNegativeInfinity;
  return a - kLn2 + 2 * std::log(-std::expm1(-a));
}

Outcome<CovarianceModel> covarianceModel(const Mechanism& mechanism, const ParameterSet& resolved,
                                         Coupling coupling, int dimension) {
  if (coupling != Coupling::Iid)
    return Outcome<CovarianceModel>::unavailable(
        "no closed form for the covariances of coupled features at different pairs (Monte Carlo "
        "only)");
  const auto covariance = mechanism.sameQueryCovariance(resolved);
  if (!covariance) return Outcome<CovarianceModel>::unavailable(covariance.reason());
  CovarianceModel model;
  model.form = covariance->form;
  model.r = covariance->r;
  if (model.form == ExcessForm::Optimal) model.constant = dimension * logHalfSumOverRoot(model.r);
  if (model.form == ExcessForm::Dense) {
    model.dense = covariance->dense;
    const Eigen::ArrayXd r = 1.0 - 8.0 * model.dense->a.array();
    model.inverseR = r.inverse();
    for (const double rl : r)
      model.constant += logHalfSumOverRoot(rl);
  }
  return model;
}

// The Dense form's key Grams (O(L²d), once per problem), or why there are none.
Status prepareDenseKeys(CovarianceModel& model, const AttentionProblem& problem) {
  if (model.form != ExcessForm::Dense) return fine();
  if (model.dense->a.size() != problem.keys.cols())
    return Status::unavailable("the DERF matrices do not match the dimension of the keys");
  model.transformedKeys = problem.keys * model.dense->t2.transpose();
  const Eigen::MatrixXd weighted = model.transformedKeys * model.inverseR.matrix().asDiagonal();
  model.weightedGram = weighted * model.transformedKeys.transpose();
  model.plainGram = model.transformedKeys * model.transformedKeys.transpose();
  return fine();
}

// The Dense form's φ for key j against the keys 0..n-1 of query x:
// φ = Σ ℓ(r_l) + [(q_j + q_k)ᵀD(q_j + q_k) - |q_j - q_k|²]/4, q = x̃ + ỹ, x̃ = T1x.
struct DenseRow {
  double nu = 0;     // x̃ᵀDx̃
  Eigen::ArrayXd s;  // x̃ᵀDỹ_k
};
DenseRow denseRow(const CovarianceModel& model, const Eigen::VectorXd& x, Eigen::Index n) {
  const Eigen::VectorXd xt = model.dense->t1 * x;
  const Eigen::VectorXd weighted = (model.inverseR * xt.array()).matrix();
  return {xt.dot(weighted), (model.transformedKeys.topRows(n) * weighted).array()};
}
Eigen::ArrayXd denseArguments(const CovarianceModel& model, const DenseRow& row, Eigen::Index j,
                              Eigen::Index n) {
  const Eigen::ArrayXd weightedDiagonal = model.weightedGram.diagonal().head(n).array();
  const Eigen::ArrayXd plainDiagonal = model.plainGram.diagonal().head(n).array();
  const Eigen::ArrayXd sumPart = 4 * row.nu + 4 * (row.s[j] + row.s) + weightedDiagonal[j] +
                                 weightedDiagonal + 2 * model.weightedGram.col(j).head(n).array();
  const Eigen::ArrayXd diffPart =
      plainDiagonal[j] + plainDiagonal - 2 * model.plainGram.col(j).head(n).array();
  return model.constant + (sumPart - diffPart) / 4;
}

// The argument t of the excess (σ, δ or φ) for key j against the keys 0..n-1.
Eigen::ArrayXd excessArguments(const CovarianceModel& model, double nu,
                               const Eigen::ArrayXd& logits, const Eigen::ArrayXd& norms,
                               Eigen::Index j, const Eigen::ArrayXd& products) {
  switch (model.form) {
    case ExcessForm::CoshDifference:
    case ExcessForm::PhaseDifference:
      return nu - logits[j] - logits + products;
    case ExcessForm::ExpSum:
    case ExcessForm::CoshSum:
      return nu + logits[j] + logits + products;
    case ExcessForm::Dense:  // denseArguments
      return {};
    case ExcessForm::Optimal: {
      const Eigen::ArrayXd sumSquared =
          4 * (nu + logits[j] + logits) + norms[j] + norms + 2 * products;
      const Eigen::ArrayXd diffSquared = norms[j] + norms - 2 * products;
      return model.constant + (sumSquared - model.r * diffSquared) / (4 * model.r);
    }
  }
  return {};
}

// sign and log|c| of the excess at argument t.
double logAbsExcess(const CovarianceModel& model, double t, double& sign) {
  if (model.form == ExcessForm::CoshDifference || model.form == ExcessForm::CoshSum) {
    sign = t == 0 ? 0 : 1;
    return logCoshMinusOne(t);
  }
  if (model.form == ExcessForm::PhaseDifference) {  // e^t + ½e^-t - 1 ≥ √2 - 1: no cancellation
    sign = 1;
    if (t >= 0) return t + std::log1p(0.5 * std::exp(-2 * t) - std::exp(-t));
    return -t - kLn2 + std::log1p(2 * std::exp(2 * t) - 2 * std::exp(t));
  }
  sign = t > 0 ? 1 : (t < 0 ? -1 : 0);
  if (t > 0) return logExpm1(t);
  return std::log(-std::expm1(t));
}

RowPrediction predictRow(const AttentionProblem& problem, const KeyGram& gram,
                         const CovarianceModel& model, Eigen::Index i) {
  const Eigen::Index n = problem.keyCount(i);
  const Eigen::VectorXd x = problem.queries.row(i).transpose();
  const double nu = x.squaredNorm();
  const Eigen::ArrayXd logits = (problem.keys.topRows(n) * x).array();
  const Eigen::ArrayXd norms = gram.normSquared.head(n).array();
  Eigen::Index star = 0;
  const double largest = logits.maxCoeff(&star);
  const double logD = largest + std::log((logits - largest).exp().sum());
  const Eigen::ArrayXd logA = logits - logD;
  const Eigen::ArrayXd a = logA.exp();

  // The dominant key apart: ε = 1 - A_*, q = Σ_{k≠*} A_k², w* = v_* - o, all from small weights.
  const auto values = problem.values.topRows(n);
  double epsilon = 0, q = 0;
  Eigen::VectorXd wStar = Eigen::VectorXd::Zero(values.cols());
  for (Eigen::Index k = 0; k < n; ++k) {
    if (k == star) continue;
    epsilon += a[k];
    q += a[k] * a[k];
    wStar += a[k] * (values.row(star) - values.row(k)).transpose();
  }
  const double aStar = a[star];
  const double normA = aStar * aStar + q;
  Eigen::MatrixXd w = values.rowwise() - values.row(star);  // v_j - o = (v_j - v_*) + w*
  w.rowwise() += wStar.transpose();
  w.row(star) = wStar.transpose();

  double t = 0, f = 0, varD = 0;
  Eigen::ArrayXd row(n);
  DenseRow dense;
  if (model.form == ExcessForm::Dense) dense = denseRow(model, x, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    const Eigen::ArrayXd arguments =
        model.form == ExcessForm::Dense
            ? denseArguments(model, dense, j, n)
            : excessArguments(model, nu, logits, norms, j, gram.products.col(j).head(n).array());
    if (model.form == ExcessForm::ExpSum || model.form == ExcessForm::Optimal ||
        model.form == ExcessForm::Dense)
      row = a[j] * a * arguments.expm1();
    else if (model.form == ExcessForm::PhaseDifference)
      row = a[j] * a * (2 * (arguments / 2).sinh().square() + 0.5 * arguments.exp());
    else
      row = a[j] * a * (2 * (arguments / 2).sinh().square());
    if (!row.allFinite()) {  // a huge excess: A_j A_k c in logs
      for (Eigen::Index k = 0; k < n; ++k) {
        double sign = 0;
        const double logC = logAbsExcess(model, arguments[k], sign);
        row[k] = sign * std::exp(logA[j] + logA[k] + logC);
      }
    }
    t += w.row(j).dot(row.matrix().transpose() * w);
    varD += row.sum();
    const double starEntry = row[star];
    row[star] = 0;
    if (j != star) {
      f += row[j] + (normA - 2 * a[j]) * row.sum();
    } else {
      f += 2 * (row * (q - aStar * epsilon - a)).sum() + starEntry * (epsilon * epsilon + q);
    }
  }
  RowPrediction out;
  out.row = i;
  out.logNormaliser = logD;
  out.output = values.row(star).transpose() - wStar;
  const auto logOf = [](double v) { return v > 0 ? std::log(v) : kNegativeInfinity; };
  out.logT = logOf(t) + 2 * logD;
  out.logF = logOf(f) + 2 * logD;
  out.logVarianceD = logOf(varD) + 2 * logD;
  return out;
}

// ---- Factorised evaluation -------------------------------------------------------------------
//
// One feature's second moment along a row, E[Ŝ_j Ŝ_k] / (SM_j SM_k) = 1 + c_jk, as a sum of
// exponential terms w_t exp(κ_t + α_t(ℓ_j + ℓ_k) + β_t(n_j + n_k) + γ_t y_jᵀy_k), κ_t = κ0 + κ1 ν
// (ℓ_j = xᵀy_j, n_j = |y_j|², ν = |x|²):
//   ExpSum           e^σ                    σ = ν + ℓ_j + ℓ_k + y_jᵀy_k
//   CoshSum          ½e^σ + ½e^-σ
//   CoshDifference   ½e^δ + ½e^-δ           δ = ν - ℓ_j - ℓ_k + y_jᵀy_k
//   PhaseDifference  e^δ + ½e^-δ
//   Optimal          e^φ     φ = d ℓ(r) + ν/r + (ℓ_j + ℓ_k)/r + (n_j + n_k)(1 - r)/(4r)
//                                + y_jᵀy_k (1 + r)/(2r)
struct ExponentialTerm {
  double logWeight = 0, kappa0 = 0, kappa1 = 0, alpha = 0, beta = 0, gamma = 0;
};

std::vector<ExponentialTerm> exponentialTerms(const CovarianceModel& model) {
  switch (model.form) {
    case ExcessForm::ExpSum:
      return {{0, 0, 1, 1, 0, 1}};
    case ExcessForm::CoshSum:
      return {{-kLn2, 0, 1, 1, 0, 1}, {-kLn2, 0, -1, -1, 0, -1}};
    case ExcessForm::CoshDifference:
      return {{-kLn2, 0, 1, -1, 0, 1}, {-kLn2, 0, -1, 1, 0, -1}};
    case ExcessForm::PhaseDifference:
      return {{0, 0, 1, -1, 0, 1}, {-kLn2, 0, -1, 1, 0, -1}};
    case ExcessForm::Optimal: {
      const double r = model.r;
      return {{0, model.constant, 1 / r, 1 / r, (1 - r) / (4 * r), (1 + r) / (2 * r)}};
    }
    case ExcessForm::Dense:  // not factorised (see predictAttention)
      break;
  }
  return {};
}

// γ y_jᵀy_k = |γ|(n_j + n_k)/2 + log G̃_jk with the stable Gram
// G̃_jk = exp(-|γ| |y_j - sign(γ) y_k|²/2) ≤ 1, for keys j (rows) and k (columns), from the shared
// products y_jᵀy_k.
template <typename Products>
Eigen::ArrayXXd stableGram(const Products& products, const Eigen::ArrayXd& rowNorms,
                           const Eigen::ArrayXd& colNorms, double gamma) {
  Eigen::ArrayXXd g = products.array() * (gamma >= 0 ? 2.0 : -2.0);
  g.colwise() -= rowNorms;
  g.rowwise() -= colNorms.transpose();
  return (g.min(0.0) * (0.5 * std::abs(gamma))).exp();
}

// One row's exact attention, with its dominant key j* apart (see predictRow).
struct RowSetup {
  Eigen::Index row = 0, keys = 0, star = 0;
  double logD = 0, epsilon = 0, q = 0, normA = 0, shift = 0;
  Eigen::ArrayXd logits, a;  // length keys
  Eigen::VectorXd wStar, output;
};

RowSetup setupRow(const AttentionProblem& problem, Eigen::Index i, Eigen::ArrayXd logits) {
  RowSetup s;
  s.row = i;
  s.keys = logits.size();
  const double largest = logits.maxCoeff(&s.star);
  s.logD = largest + std::log((logits - largest).exp().sum());
  s.a = (logits - s.logD).exp();
  s.logits = std::move(logits);
  const auto values = problem.values.topRows(s.keys);
  s.wStar = Eigen::VectorXd::Zero(values.cols());
  for (Eigen::Index k = 0; k < s.keys; ++k) {
    if (k == s.star) continue;
    s.epsilon += s.a[k];
    s.q += s.a[k] * s.a[k];
    s.wStar += s.a[k] * (values.row(s.star) - values.row(k)).transpose();
  }
  s.normA = s.a[s.star] * s.a[s.star] + s.q;
  s.output = values.row(s.star).transpose() - s.wStar;
  return s;
}

// Below this ratio of a row's sum to the sum of its parts' magnitudes the expanded form has lost
// too many digits (≳ 1e-11 relative): the row is recomputed directly.
constexpr double kCancellationLimit = 1e-5;
constexpr Eigen::Index kKeyBlock = 256, kRowChunk = 128;

// The factorised prediction of the rows of one chunk, and a flag per row where the
// expanded form cancelled.
void predictChunk(const AttentionProblem& problem, const KeyGram& gram,
                  const CovarianceModel& model, const std::vector<Eigen::Index>& rows,
                  std::vector<RowPrediction>& out, std::vector<char>& cancelled) {
  const Eigen::Index n = problem.keys.rows(), count = static_cast<Eigen::Index>(rows.size());
  const Eigen::ArrayXd norms = gram.normSquared.array();
  Eigen::MatrixXd selected(count, problem.queries.cols());
  for (Eigen::Index r = 0; r < count; ++r)
    selected.row(r) = problem.queries.row(rows[static_cast<std::size_t>(r)]);
  const Eigen::MatrixXd logits = selected * problem.keys.transpose();  // count × L_k
  const Eigen::ArrayXd nu = selected.rowwise().squaredNorm().array();
  std::vector<RowSetup> setups;
  setups.reserve(rows.size());
  for (Eigen::Index r = 0; r < count; ++r) {
    const Eigen::Index i = rows[static_cast<std::size_t>(r)];
    setups.push_back(setupRow(problem, i, logits.row(r).head(problem.keyCount(i)).transpose()));
  }
  const std::vector<ExponentialTerm> terms = exponentialTerms(model);
  // log u_tj = (log w_t + κ_t)/2 + (1 + α_t)ℓ_j + (β_t + |γ_t|/2)n_j - log D (E[Ŝ_j Ŝ_k]/D² =
  // Σ_t u_tj G̃_t,jk u_tk), less the row's shift: its largest over the terms and keys.
  const auto logU = [&](const ExponentialTerm& t, const RowSetup& s, Eigen::Index r) {
    return (0.5 * (t.logWeight + t.kappa0 + t.kappa1 * nu[r]) - s.logD) + (1 + t.alpha) * s.logits +
           (t.beta + 0.5 * std::abs(t.gamma)) * norms.head(s.keys);
  };
  for (Eigen::Index r = 0; r < count; ++r) {
    RowSetup& s = setups[static_cast<std::size_t>(r)];
    s.shift = kNegativeInfinity;
    for (const ExponentialTerm& t : terms)
      s.shift = std::max(s.shift, logU(t, s, r).maxCoeff());
  }
  const Eigen::Index dv = problem.values.cols();
  Eigen::ArrayXd tSum = Eigen::ArrayXd::Zero(count), tAbs = tSum, fSum = tSum, fAbs = tSum,
                 dSum = tSum;
  Eigen::MatrixXd u(n, count), gu(n, count), hu(n, count);
  Eigen::ArrayXd uStar(count);
  for (const ExponentialTerm& t : terms) {
    u.setZero();
    for (Eigen::Index r = 0; r < count; ++r) {
      const RowSetup& s = setups[static_cast<std::size_t>(r)];
      u.col(r).head(s.keys) = (logU(t, s, r) - s.shift).exp().matrix();
      uStar[r] = u(s.star, r);
      u(s.star, r) = 0;
    }
    // G̃U and (G̃ ∘ V_c V_cᵀ)U, key blocks in parallel (each writes its own rows).
    const Eigen::Index blocks = (n + kKeyBlock - 1) / kKeyBlock;
    tbb::parallel_for(Eigen::Index{0}, blocks, [&](Eigen::Index b) {
      const Eigen::Index begin = b * kKeyBlock, size = std::min(kKeyBlock, n - begin);
      const Eigen::ArrayXXd g = stableGram(gram.products.middleRows(begin, size),
                                           norms.segment(begin, size), norms, t.gamma);
      gu.middleRows(begin, size).noalias() = g.matrix() * u;
      const Eigen::MatrixXd h = (g * gram.valueProducts.middleRows(begin, size).array()).matrix();
      hu.middleRows(begin, size).noalias() = h * u;
    });
    tbb::parallel_for(Eigen::Index{0}, count, [&](Eigen::Index r) {
      const RowSetup& s = setups[static_cast<std::size_t>(r)];
      const Eigen::Index k = s.keys, star = s.star;
      const auto u0 = u.col(r).head(k), g0 = gu.col(r).head(k), h0 = hu.col(r).head(k);
      const Eigen::VectorXd oc = s.output - gram.valueMean.transpose();
      const Eigen::VectorXd ug = u0.cwiseProduct(g0);
      const double s0 = u0.dot(g0);
      const double p1 = u0.dot(h0);
      const double p2 = 2 * oc.dot(gram.centredValues.topRows(k).transpose() * ug);
      const double p3 = oc.squaredNorm() * s0;
      const Eigen::ArrayXd diagonal =  // G̃_jj
          ((gram.products.diagonal().head(k).array() * (t.gamma >= 0 ? 2.0 : -2.0) -
            2 * norms.head(k))
               .min(0.0) *
           (0.5 * std::abs(t.gamma)))
              .exp();
      const double f0 = (u0.array().square() * diagonal).sum();
      const double f1 = 2 * s.a.matrix().dot(ug);
      // The dominant key's row and column: g_k = S_j*k + S_kj* (k ≠ j*), S_j*j*.
      const Eigen::ArrayXd starRow = stableGram(gram.products.col(star).head(k).transpose(),
                                                norms.segment(star, 1), norms.head(k), t.gamma)
                                         .row(0)
                                         .transpose();
      const Eigen::ArrayXd cross = 2 * uStar[r] * starRow * u0.array();  // 0 at j*
      const double starStar = uStar[r] * uStar[r] * diagonal[star];
      Eigen::VectorXd crossValues = Eigen::VectorXd::Zero(dv);
      for (Eigen::Index j = 0; j < k; ++j)
        if (cross[j] != 0) crossValues += cross[j] * (problem.values.row(j).transpose() - s.output);
      const double t1 = s.wStar.dot(crossValues), t2 = starStar * s.wStar.squaredNorm();
      const double f2 = (cross * (s.q - s.a[star] * s.epsilon - s.a)).sum();
      const double f3 = starStar * (s.epsilon * s.epsilon + s.q);
      tSum[r] += p1 - p2 + p3 + t1 + t2;
      tAbs[r] += std::abs(p1) + std::abs(p2) + std::abs(p3) + std::abs(t1) + t2;
      fSum[r] += f0 - f1 + s.normA * s0 + f2 + f3;
      fAbs[r] += f0 + std::abs(f1) + s.normA * std::abs(s0) + std::abs(f2) + f3;
      dSum[r] += s0 + cross.sum() + starStar;
    });
  }
  const auto logOf = [](double v) { return v > 0 ? std::log(v) : kNegativeInfinity; };
  for (Eigen::Index r = 0; r < count; ++r) {
    const RowSetup& s = setups[static_cast<std::size_t>(r)];
    // Var D̂/D² = e^{2 shift} dSum - 1.
    const double logSecond = 2 * s.shift + logOf(dSum[r]);
    cancelled[static_cast<std::size_t>(r)] = !(tSum[r] > kCancellationLimit * tAbs[r]) ||
                                             !(fSum[r] > kCancellationLimit * fAbs[r]) ||
                                             !(-std::expm1(-logSecond) > kCancellationLimit);
    RowPrediction& p = out[static_cast<std::size_t>(r)];
    p.row = s.row;
    p.logNormaliser = s.logD;
    p.output = s.output;
    p.logT = logOf(tSum[r]) + 2 * s.shift + 2 * s.logD;
    p.logF = logOf(fSum[r]) + 2 * s.shift + 2 * s.logD;
    p.logVarianceD = logSubExp(logSecond, 0) + 2 * s.logD;
  }
}

// The factorised prediction of the rows, in chunks; rows where it cancelled directly.
std::vector<RowPrediction> predictFactorised(const AttentionProblem& problem, const KeyGram& gram,
                                             const CovarianceModel& model,
                                             const std::vector<Eigen::Index>& rows) {
  std::vector<RowPrediction> out(rows.size());
  std::vector<char> cancelled(rows.size(), 0);
  for (std::size_t begin = 0; begin < rows.size(); begin += kRowChunk) {
    const std::size_t end = std::min(rows.size(), begin + kRowChunk);
    const std::vector<Eigen::Index> chunk(rows.begin() + static_cast<std::ptrdiff_t>(begin),
                                          rows.begin() + static_cast<std::ptrdiff_t>(end));
    std::vector<RowPrediction> predicted(chunk.size());
    std::vector<char> flags(chunk.size(), 0);
    predictChunk(problem, gram, model, chunk, predicted, flags);
    std::move(predicted.begin(), predicted.end(), out.begin() + static_cast<std::ptrdiff_t>(begin));
    std::copy(flags.begin(), flags.end(), cancelled.begin() + static_cast<std::ptrdiff_t>(begin));
  }
  tbb::parallel_for(std::size_t{0}, rows.size(), [&](std::size_t k) {
    if (cancelled[k]) out[k] = predictRow(problem, gram, model, rows[k]);
  });
  return out;
}

}  // namespace

KeyGram::KeyGram(const AttentionProblem& problem)
    : products(problem.keys * problem.keys.transpose()),
      normSquared(problem.keys.rowwise().squaredNorm()),
      valueMean(problem.values.colwise().mean()),
      centredValues(problem.values.rowwise() - valueMean),
      valueProducts(centredValues * centredValues.transpose()) {}

Status hasAttentionPrediction(const Mechanism& mechanism, const ParameterSet& resolved,
                              Coupling coupling) {
  const auto model = covarianceModel(mechanism, resolved, coupling, 1);
  if (!model) return Status::unavailable(model.reason());
  return fine();
}

Outcome<AttentionPrediction> predictAttention(const AttentionProblem& problem, const KeyGram& gram,
                                              const Mechanism& mechanism,
                                              const ParameterSet& resolved,
                                              const std::vector<Eigen::Index>& rows,
                                              PredictionMethod method) {
  auto model =
      covarianceModel(mechanism, resolved, Coupling::Iid, static_cast<int>(problem.queries.cols()));
  if (!model) return Outcome<AttentionPrediction>::unavailable(model.reason());
  if (const Status keys = prepareDenseKeys(*model, problem); !keys)
    return Outcome<AttentionPrediction>::unavailable(keys.reason());
  AttentionPrediction out;
  out.logOutputMse = out.logOutputNormSquared = kNegativeInfinity;
  out.logAttentionMse = out.logAttentionNormSquared = kNegativeInfinity;
  double logSpread = kNegativeInfinity;
  // Rows in parallel, summed in their order afterwards (the same for any number of threads).
  std::vector<RowPrediction> predicted(rows.size());
  // The Dense form (SDERF, ADERF) has its own key transform and no exponential terms over the
  // shared Gram: it runs row by row.
  if (method == PredictionMethod::Factorised && model->form != ExcessForm::Dense) {
    predicted = predictFactorised(problem, gram, *model, rows);
  } else {
    tbb::parallel_for(std::size_t{0}, rows.size(), [&](std::size_t k) {
      predicted[k] = predictRow(problem, gram, *model, rows[k]);
    });
  }
  for (RowPrediction& row : predicted) {
    const double twoLogD = 2 * row.logNormaliser;
    out.logOutputMse = logAddExp(out.logOutputMse, row.logT - twoLogD);
    out.logOutputNormSquared =
        logAddExp(out.logOutputNormSquared, std::log(row.output.squaredNorm()));
    out.logAttentionMse = logAddExp(out.logAttentionMse, row.logF - twoLogD);
    logSpread = logAddExp(logSpread, row.logVarianceD - twoLogD);
    out.rows.push_back(std::move(row));
  }
  // ‖A_i‖² of the rows, from their logits.
  for (const Eigen::Index i : rows) {
    const Eigen::Index n = problem.keyCount(i);
    const Eigen::ArrayXd logits =
        (problem.keys.topRows(n) * problem.queries.row(i).transpose()).array();
    const double largest = logits.maxCoeff();
    const Eigen::ArrayXd e = (logits - largest).exp();
    out.logAttentionNormSquared =
        logAddExp(out.logAttentionNormSquared, std::log(e.square().sum()) - 2 * std::log(e.sum()));
  }
  out.logMeanRelativeSpreadSquared = logSpread - std::log(static_cast<double>(rows.size()));
  return out;
}

Outcome<UnnormalisedPrediction> predictUnnormalised(const AttentionProblem& problem,
                                                    const EstimatorSpec& spec,
                                                    const std::vector<Eigen::Index>& rows) {
  std::vector<Eigen::VectorXd> keys(static_cast<std::size_t>(problem.keys.rows()));
  for (Eigen::Index j = 0; j < problem.keys.rows(); ++j)
    keys[static_cast<std::size_t>(j)] = problem.keys.row(j).transpose();
  // Rows in parallel, summed in their order afterwards (the same for any number of threads).
  std::vector<UnnormalisedPrediction> perRow(rows.size());
  std::vector<std::string> failures(rows.size());
  tbb::parallel_for(std::size_t{0}, rows.size(), [&](std::size_t r) {
    const Eigen::Index i = rows[r];
    const Eigen::VectorXd x = problem.queries.row(i).transpose();
    UnnormalisedPrediction& sum = perRow[r];
    sum.logMse = sum.logNormSquared = kNegativeInfinity;
    for (Eigen::Index j = 0; j < problem.keyCount(i); ++j) {
      const Eigen::VectorXd& y = keys[static_cast<std::size_t>(j)];
      const AnalyticAnswer answer = evaluateAnalytic(spec, x, y);
      if (!answer.variance) {
        failures[r] = answer.variance.reason();
        return;
      }
      sum.logMse = logAddExp(sum.logMse, answer.variance->logMeanSquaredError());
      sum.logNormSquared = logAddExp(sum.logNormSquared, 2 * x.dot(y));
    }
  });
  UnnormalisedPrediction out;
  out.logMse = out.logNormSquared = kNegativeInfinity;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (!failures[r].empty()) return Outcome<UnnormalisedPrediction>::unavailable(failures[r]);
    out.logMse = logAddExp(out.logMse, perRow[r].logMse);
    out.logNormSquared = logAddExp(out.logNormSquared, perRow[r].logNormSquared);
  }
  return out;
}

}  // namespace rfscope
