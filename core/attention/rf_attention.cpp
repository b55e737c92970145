#include "core/attention/rf_attention.h"

#include <cassert>
#include <cmath>
#include <limits>

#include "core/math/log_math.h"

namespace rfscope {

Eigen::MatrixXd RfAttention::output() const {
  return normaliser.cwiseInverse().asDiagonal() * numerator;
}

namespace {

// Linear attention from the keys' features at their common scale e^{keyScale}.
RfAttention rfAttentionOfScaledKeys(const AttentionProblem& problem, const FeatureMatrix& queries,
                                    const Eigen::MatrixXd& keyFeatures, double keyScale) {
  const Eigen::Index dv = problem.values.cols(), n = problem.rows();
  Eigen::MatrixXd augmented(problem.values.rows(), dv + 1);  // [V | 1]
  augmented << problem.values, Eigen::VectorXd::Ones(problem.values.rows());
  Eigen::MatrixXd sums(n, dv + 1);
  if (!problem.causal) {
    const Eigen::MatrixXd summary = keyFeatures.transpose() * augmented;  // width × (d_v + 1)
    sums.noalias() = queries.values * summary;
  } else {
    // Prefix sums Σ_{j ≤ i} φ_k(y_j) [v_j, 1]ᵀ, one rank-one update per row.
    Eigen::MatrixXd running = Eigen::MatrixXd::Zero(keyFeatures.cols(), dv + 1);
    for (Eigen::Index i = 0; i < n; ++i) {
      running.noalias() += keyFeatures.row(i).transpose() * augmented.row(i);
      sums.row(i).noalias() = queries.values.row(i) * running;
    }
  }
  RfAttention out;
  out.numerator = sums.leftCols(dv);
  out.normaliser = sums.col(dv);
  out.logScale = queries.logScale.array() + keyScale;
  return out;
}

}  // namespace

Eigen::MatrixXd commonScaleKeys(const FeatureMatrix& keys, double& logScale) {
  logScale = keys.logScale.size() > 0 ? keys.logScale.maxCoeff() : 0.0;
  const Eigen::VectorXd factor = (keys.logScale.array() - logScale).exp().matrix();
  return factor.asDiagonal() * keys.values;
}

RfAttention rfAttention(const AttentionProblem& problem, const FeatureMatrix& queries,
                        const FeatureMatrix& keys) {
  assert(queries.values.rows() == problem.rows() && keys.values.rows() == problem.keys.rows());
  double keyScale = 0;
  const Eigen::MatrixXd keyFeatures = commonScaleKeys(keys, keyScale);
  return rfAttentionOfScaledKeys(problem, queries, keyFeatures, keyScale);
}

AttentionErrors attentionErrors(const AttentionProblem& problem, const ExactAttention& exact,
                                const ExactAttentionRows& exactRows, const FeatureMatrix& queries,
                                const FeatureMatrix& keys) {
  assert(queries.values.rows() == problem.rows() && keys.values.rows() == problem.keys.rows());
  // The keys at one scale, once for both the outputs and the attention rows.
  double keyScale = 0;
  const Eigen::MatrixXd keyFeatures = commonScaleKeys(keys, keyScale);
  const RfAttention rf = rfAttentionOfScaledKeys(problem, queries, keyFeatures, keyScale);
  AttentionErrors errors;
  double outputError = 0, linearisedError = 0, outputNorm = 0;
  Eigen::Index nonPositive = 0;
  for (Eigen::Index i = 0; i < problem.rows(); ++i) {
    const double estimate = rf.normaliser[i];
    if (!(estimate > 0)) ++nonPositive;
    const auto o = exact.output.row(i);
    outputError += (rf.numerator.row(i) / estimate - o).squaredNorm();
    // (N̂ - o D̂)/D with both estimates in units of e^{logScale_i}.
    const double toExact = std::exp(rf.logScale[i] - exact.logNormaliser[i]);
    linearisedError += ((rf.numerator.row(i) - estimate * o) * toExact).squaredNorm();
    outputNorm += o.squaredNorm();
  }
  errors.outputRelativeError = std::sqrt(outputError / outputNorm);
  errors.linearisedOutputRelativeError = std::sqrt(linearisedError / outputNorm);
  errors.nonPositiveFraction =
      static_cast<double>(nonPositive) / static_cast<double>(problem.rows());

  // Rows of Â and Ŝ/D: (φ_q(x_i)ᵀ φ_k(y_j)) / D̂_i and · e^{logScale_i - log D_i}.
  const auto count = static_cast<Eigen::Index>(exactRows.rows.size());
  Eigen::MatrixXd selected(count, queries.values.cols());
  for (Eigen::Index r = 0; r < count; ++r)
    selected.row(r) = queries.values.row(exactRows.rows[static_cast<std::size_t>(r)]);
  const Eigen::MatrixXd products = selected * keyFeatures.transpose();
  double attentionError = 0, attentionNorm = 0, worst = 0;
  double logError = kNegativeInfinity, logNorm = kNegativeInfinity;
  for (Eigen::Index r = 0; r < count; ++r) {
    const Eigen::Index i = exactRows.rows[static_cast<std::size_t>(r)];
    const Eigen::Index seen = problem.keyCount(i);
    const auto exactRow = exactRows.attention.row(r).head(seen);
    const auto estimated = products.row(r).head(seen);
    const double variation = 0.5 * (estimated / rf.normaliser[i] - exactRow).cwiseAbs().sum();
    worst = std::max(worst,
                     std::isnan(variation) ? std::numeric_limits<double>::infinity() : variation);
    attentionError += (estimated / rf.normaliser[i] - exactRow).squaredNorm();
    attentionNorm += exactRow.squaredNorm();
    const double logD = exactRows.logNormaliser[r];
    const double toExact = std::exp(queries.logScale[i] + keyScale - logD);
    logError =
        logAddExp(logError, 2 * logD + std::log((estimated * toExact - exactRow).squaredNorm()));
    logNorm = logAddExp(logNorm, 2 * logD + std::log(exactRow.squaredNorm()));
  }
  errors.attentionRelativeError = std::sqrt(attentionError / attentionNorm);
  errors.worstRowTotalVariation = worst;
  errors.logUnnormalisedSquaredError = logError;
  errors.logUnnormalisedNormSquared = logNorm;
  return errors;
}

}  // namespace rfscope
