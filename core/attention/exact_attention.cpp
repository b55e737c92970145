#include "core/attention/exact_attention.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <tbb/parallel_for.h>

#include "core/params/invalid_parameter.h"
#include "core/random/trial_stream.h"

namespace rfscope {
namespace {

constexpr Eigen::Index kBlockRows = 256;

// The logits of the given query rows, turned in place into their attention rows (softmax with the
// causal mask); log D per row into logNormaliser.
void softmaxRows(const AttentionProblem& problem, const std::vector<Eigen::Index>& rows,
                 Eigen::MatrixXd& block, Eigen::Ref<Eigen::VectorXd> logNormaliser) {
  const auto count = static_cast<Eigen::Index>(rows.size());
  Eigen::MatrixXd selected(count, problem.queries.cols());
  for (Eigen::Index r = 0; r < count; ++r)
    selected.row(r) = problem.queries.row(rows[static_cast<std::size_t>(r)]);
  block.noalias() = selected * problem.keys.transpose();
  const Eigen::Index keys = problem.keys.rows();
  for (Eigen::Index r = 0; r < count; ++r) {
    const Eigen::Index seen = problem.keyCount(rows[static_cast<std::size_t>(r)]);
    auto row = block.row(r);
    const double largest = row.head(seen).maxCoeff();
    row.head(seen) = (row.head(seen).array() - largest).exp();
    row.tail(keys - seen).setZero();
    const double sum = row.head(seen).sum();
    logNormaliser[r] = largest + std::log(sum);
    row /= sum;
  }
}

}  // namespace

AttentionProblem gaussianAttentionProblem(Eigen::Index length, int d, Eigen::Index dv, double scale,
                                          TrialStream& stream, bool causal) {
  PairedNormals<TrialStream> normals(stream);
  const auto fill = [&](Eigen::Index rows, Eigen::Index cols, double s) {
    Eigen::MatrixXd m(rows, cols);
    for (Eigen::Index i = 0; i < rows; ++i)
      for (Eigen::Index j = 0; j < cols; ++j)
        m(i, j) = s * normals.next();
    return m;
  };
  AttentionProblem p;
  p.queries = fill(length, d, scale);
  p.keys = fill(length, d, scale);
  p.values = fill(length, dv, 1.0);
  p.causal = causal;
  return p;
}

void checkAttentionProblem(const AttentionProblem& problem, const char* parameter) {
  const auto fail = [&](const std::string& what) {
    throw InvalidParameter(parameter, std::string("parameter '") + parameter + "': " + what);
  };
  if (problem.queries.rows() < 1 || problem.keys.rows() < 1) fail("needs at least one row");
  if (problem.queries.cols() != problem.keys.cols())
    fail("queries and keys must have the same dimension");
  if (problem.values.rows() != problem.keys.rows()) fail("needs one value row per key");
  if (problem.causal && problem.keys.rows() != problem.queries.rows())
    fail("causal attention needs as many keys as queries");
  if (!problem.queries.allFinite() || !problem.keys.allFinite() || !problem.values.allFinite())
    fail("entries must be finite");
}

ExactAttention exactAttention(const AttentionProblem& problem) {
  const Eigen::Index n = problem.rows();
  ExactAttention out;
  out.logNormaliser.resize(n);
  out.output.resize(n, problem.values.cols());
  // Blocks of rows in parallel: each writes its own rows, so the result is the same for any
  // number of threads.
  const Eigen::Index blocks = (n + kBlockRows - 1) / kBlockRows;
  tbb::parallel_for(Eigen::Index{0}, blocks, [&](Eigen::Index b) {
    const Eigen::Index begin = b * kBlockRows, count = std::min(kBlockRows, n - begin);
    std::vector<Eigen::Index> rows(static_cast<std::size_t>(count));
    for (Eigen::Index r = 0; r < count; ++r)
      rows[static_cast<std::size_t>(r)] = begin + r;
    Eigen::MatrixXd block;
    softmaxRows(problem, rows, block, out.logNormaliser.segment(begin, count));
    out.output.middleRows(begin, count).noalias() = block * problem.values;
  });
  return out;
}

ExactAttentionRows exactAttentionRows(const AttentionProblem& problem,
                                      std::vector<Eigen::Index> rows) {
  ExactAttentionRows out;
  out.logNormaliser.resize(static_cast<Eigen::Index>(rows.size()));
  softmaxRows(problem, rows, out.attention, out.logNormaliser);
  out.rows = std::move(rows);
  return out;
}

}  // namespace rfscope
