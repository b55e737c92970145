#include "core/attention/attention_prediction.h"

#include <cmath>
#include <limits>

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

}  // namespace

KeyGram::KeyGram(const AttentionProblem& problem)
    : products(problem.keys * problem.keys.transpose()),
      normSquared(problem.keys.rowwise().squaredNorm()) {}

Status hasAttentionPrediction(const Mechanism& mechanism, const ParameterSet& resolved,
                              Coupling coupling) {
  const auto model = covarianceModel(mechanism, resolved, coupling, 1);
  if (!model) return Status::unavailable(model.reason());
  return fine();
}

Outcome<AttentionPrediction> predictAttention(const AttentionProblem& problem, const KeyGram& gram,
                                              const Mechanism& mechanism,
                                              const ParameterSet& resolved,
                                              const std::vector<Eigen::Index>& rows) {
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
  tbb::parallel_for(std::size_t{0}, rows.size(), [&](std::size_t k) {
    predicted[k] = predictRow(problem, gram, *model, rows[k]);
  });
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
  UnnormalisedPrediction out;
  out.logMse = out.logNormSquared = kNegativeInfinity;
  for (const Eigen::Index i : rows) {
    const Eigen::VectorXd x = problem.queries.row(i).transpose();
    for (Eigen::Index j = 0; j < problem.keyCount(i); ++j) {
      const Eigen::VectorXd& y = keys[static_cast<std::size_t>(j)];
      const AnalyticAnswer answer = evaluateAnalytic(spec, x, y);
      if (!answer.variance)
        return Outcome<UnnormalisedPrediction>::unavailable(answer.variance.reason());
      out.logMse = logAddExp(out.logMse, answer.variance->logVariance);
      out.logNormSquared = logAddExp(out.logNormSquared, 2 * x.dot(y));
    }
  }
  return out;
}

}  // namespace rfscope
