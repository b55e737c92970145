#include "core/experiments/conformity_comparison.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cmath>
#include <limits>
#include <string>

#include "core/couplings/block_geometry.h"
#include "core/couplings/frequencies.h"
#include "core/experiments/common_parameters.h"
#include "core/experiments/experiment_support.h"
#include "core/montecarlo/conformity_estimate.h"

namespace rfscope {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kMaxOptimizedDimension = 16;

double conformityOf(const Eigen::MatrixXd& omega, double v) {
  double rho = 0, meanSquares = 0;
  blockConformity(omega, omega.rows(), v, rho, meanSquares);
  return rho;
}

// Rows: norms[i] times row i of the simplex matrix S (SimRF eq. 9, corrected).
Eigen::MatrixXd simplexArrangement(const Eigen::VectorXd& norms) {
  const int d = static_cast<int>(norms.size());
  Eigen::MatrixXd s = Eigen::MatrixXd::Identity(d, d);
  for (int i = 0; i < d; ++i)
    applySimplexRows(s.col(i).data(), d);  // S e_i = column i of S
  return norms.asDiagonal() * s;
}

// SimRF eq. (17) until the arrangement stops moving: each vector points away from the sum of the
// others, keeping its norm.
Eigen::MatrixXd simplexPlusArrangement(const Eigen::VectorXd& norms) {
  Eigen::MatrixXd omega = simplexArrangement(norms);
  Eigen::VectorXd total = omega.colwise().sum().transpose();
  for (int pass = 0; pass < 200; ++pass) {
    double moved = 0;
    for (Eigen::Index i = 0; i < omega.rows(); ++i) {
      const Eigen::VectorXd row = omega.row(i).transpose();
      const Eigen::VectorXd others = total - row;
      if (others.norm() == 0) continue;
      const Eigen::VectorXd updated = -(norms[i] / others.norm()) * others;
      moved = std::max(moved, (updated - row).norm());
      omega.row(i) = updated.transpose();
      total += updated - row;
    }
    if (moved < 1e-14 * norms.maxCoeff()) break;
  }
  return omega;
}

// Riemannian gradient descent of ρ over the directions u_i (rows of `directions`, unit), norms
// fixed. With h_d'(z) = (z/d) h_{d+2}(z) and a_ij = w_i u_i + w_j u_j:
//   ∂ρ/∂u_i ∝ w_i Σ_{j≠i} h_{d+2}(v|a_ij|) a_ij.
// Backtracking on ρ itself keeps every step a descent. Returns the lowest ρ reached.
double minimizeConformity(Eigen::MatrixXd directions, const Eigen::VectorXd& norms, double v,
                          const RunContext& context) {
  const int d = static_cast<int>(norms.size());
  const auto arrange = [&](const Eigen::MatrixXd& u) {
    return Eigen::MatrixXd(norms.asDiagonal() * u);
  };
  double rho = conformityOf(arrange(directions), v);
  double step = 1.0;
  Eigen::MatrixXd gradient(d, d), trial(d, d);
  for (int iteration = 0; iteration < 2000; ++iteration) {
    if (iteration % 16 == 0 && context.cancelled()) break;
    const Eigen::MatrixXd omega = arrange(directions);
    gradient.setZero();
    for (int i = 0; i < d; ++i)
      for (int j = 0; j < d; ++j) {
        if (i == j) continue;
        const Eigen::VectorXd a = (omega.row(i) + omega.row(j)).transpose();
        gradient.row(i) += norms[i] * conformityKernel(d + 2, v * a.norm()) * a.transpose();
      }
    for (int i = 0; i < d; ++i)  // project onto the tangent space of the sphere at u_i
      gradient.row(i) -= gradient.row(i).dot(directions.row(i)) * directions.row(i);
    const double scale = gradient.norm();
    if (scale < 1e-15) break;
    bool improved = false;
    for (int halvings = 0; halvings < 40 && !improved; ++halvings, step *= 0.5) {
      trial = directions - (step / scale) * gradient;
      trial.rowwise().normalize();
      const double candidate = conformityOf(arrange(trial), v);
      if (candidate < rho) {
        improved = rho - candidate > 1e-15 * rho;
        if (!improved) return candidate;  // converged to working precision
        rho = candidate;
        directions = trial;
      }
    }
    if (!improved) break;
    step *= 4;  // let the next step grow again
  }
  return rho;
}

}  // namespace

const ExperimentInfo& ConformityComparison::info() const {
  static const ExperimentInfo info{
      "conformity", "RF-conformity of one draw of norms", "SimRF (Reid et al. 2023)",
      "SimRF Fig. 4: RF-conformity (lower is better) of IID, ORF, SimRF, SimRF+ and numerically "
      "optimised arrangements of d vectors with fixed norms"};
  return info;
}

std::vector<ParameterSpec> ConformityComparison::parameters() const {
  auto d = dimensionParameter(6);
  d.minimum = 2;
  d.maximum = 256;
  auto low = realParameter("v-min", "v from", 0.25, 1e-3, 10, "smallest v = ‖x + y‖");
  auto high = realParameter("v-max", "v to", 2, 1e-3, 10, "largest v = ‖x + y‖");
  auto steps =
      integerParameter("v-steps", "v steps", 8, 1, 200, "number of v values (1: v-min only)");
  for (auto* spec : {&low, &high, &steps})
    spec->group = "Data";
  auto arrangements = integerParameter("iid-arrangements", "IID arrangements", 100, 2, 100000,
                                       "random i.i.d. arrangements of the fixed norms");
  auto optimize = booleanParameter("optimize", "Numerically optimised", true,
                                   "minimise ρ over the directions (d ≤ 16)");
  auto restarts = integerParameter("restarts", "Optimiser starts", 4, 1, 100,
                                   "starts of the optimiser: SimRF+ and random arrangements");
  arrangements.group = optimize.group = restarts.group = "Estimator";
  return {d, low, high, steps, arrangements, optimize, restarts, seedParameter()};
}

std::vector<ParameterError> ConformityComparison::crossValidate(const ParameterSet& params) const {
  if (params.integer("v-steps") > 1 && params.real("v-min") >= params.real("v-max"))
    return {{"v-max", "parameter 'v-max': must be larger than v-min"}};
  return {};
}

RunResult ConformityComparison::run(const ParameterSet& params, RunContext& context) const {
  const int d = static_cast<int>(params.integer("d"));
  const auto seed = static_cast<std::uint64_t>(params.integer("seed"));
  const auto arrangementCount = static_cast<std::size_t>(params.integer("iid-arrangements"));
  const bool optimize = params.boolean("optimize") && d <= kMaxOptimizedDimension;
  const auto restarts = static_cast<int>(params.integer("restarts"));
  const std::vector<double> vs =
      valueGrid(params.real("v-min"), params.real("v-max"), params.integer("v-steps"), false);

  RunResult result;
  if (params.boolean("optimize") && !optimize)
    result.warnings.push_back("numerical optimisation is offered for d ≤ " +
                              std::to_string(kMaxOptimizedDimension) + " only");
  // One draw of norms: χ_d as the norm of a Gaussian vector (stream 0).
  const ZigguratTables& tables = zigguratTables();
  TrialStream normStream(seed, 0, tables);
  const Eigen::VectorXd norms = gaussianVectorNorms(normStream, d);
  // Directions: i.i.d. arrangements (stream a + 1 under a derived seed), the simplex and SimRF+.
  std::vector<Eigen::MatrixXd> iid(arrangementCount);
  const std::uint64_t iidSeed = deriveSeed(seed, 1);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, arrangementCount), [&](const auto& range) {
    for (std::size_t a = range.begin(); a != range.end(); ++a) {
      TrialStream rng(iidSeed, a, tables);
      Eigen::MatrixXd u(d, d);
      for (int i = 0; i < d; ++i)
        for (int j = 0; j < d; ++j)
          u(i, j) = rng.normal();
      u.rowwise().normalize();
      iid[a] = norms.asDiagonal() * u;
    }
  });
  const Eigen::MatrixXd orthogonal = Eigen::MatrixXd(norms.asDiagonal());
  const Eigen::MatrixXd simplex = simplexArrangement(norms);
  const Eigen::MatrixXd simplexPlus = simplexPlusArrangement(norms);
  std::vector<Eigen::MatrixXd> starts{simplexPlus.rowwise().normalized()};
  {
    const std::uint64_t startSeed = deriveSeed(seed, 2);
    for (int r = 1; r < restarts; ++r) {
      TrialStream rng(startSeed, static_cast<std::uint64_t>(r), tables);
      Eigen::MatrixXd u(d, d);
      for (int i = 0; i < d; ++i)
        for (int j = 0; j < d; ++j)
          u(i, j) = rng.normal();
      starts.push_back(u.rowwise().normalized());
    }
  }

  Table& table = result.table;
  table.hints.title = "RF-conformity for one draw of norms, d = " + std::to_string(d);
  table.hints.xColumn = "v";
  table.hints.xLabel = "v = ‖x + y‖";
  table.hints.yLabel = "RF-conformity ρ (lower is better)";
  const auto style = vs.size() > 1 ? SeriesStyle::LineAndPoints : SeriesStyle::Points;
  table.columns = {{"v", "v = ‖x + y‖", {}},
                   {"iid-mean", "IID mean over arrangements", {}},
                   {"iid-std", "IID std over arrangements", {}},
                   {"iid-low", "IID mean - std", {}},
                   {"iid-high", "IID mean + std", {}},
                   {"orf", "ORF", {}},
                   {"simrf", "SimRF", {}},
                   {"simrf-plus", "SimRF+", {}},
                   {"optimized", "numerically optimised", {}}};
  table.hints.series = {{"IID (mean ± std)", "iid-mean", "iid-low", "iid-high", "iid", style, ""},
                        {"ORF", "orf", "", "", "orf", style, ""},
                        {"SimRF", "simrf", "", "", "simrf", style, ""},
                        {"SimRF+", "simrf-plus", "", "", "simrf-plus", style, ""}};
  if (optimize)
    table.hints.series.push_back(
        {"numerically optimised", "optimized", "", "", "optimized", style, ""});

  std::vector<double> iidValues(arrangementCount);
  for (std::size_t k = 0; k < vs.size(); ++k) {
    if (stopIfCancelled(context, result)) return result;
    const double v = vs[k];
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, arrangementCount), [&](const auto& r) {
      for (std::size_t a = r.begin(); a != r.end(); ++a)
        iidValues[a] = conformityOf(iid[a], v);
    });
    const MeanAndStd s = summarizeFinite(iidValues.data(), iidValues.size());
    double best = kNaN;
    if (optimize) {
      std::vector<double> optimum(starts.size());
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, starts.size(), 1), [&](const auto& r) {
        for (std::size_t i = r.begin(); i != r.end(); ++i)
          optimum[i] = minimizeConformity(starts[i], norms, v, context);
      });
      if (stopIfCancelled(context, result)) return result;
      best = optimum.front();
      for (double value : optimum)
        best = std::min(best, value);
    }
    const double row[] = {v,
                          s.mean,
                          s.std,
                          s.mean - s.std,
                          s.mean + s.std,
                          conformityOf(orthogonal, v),
                          conformityOf(simplex, v),
                          conformityOf(simplexPlus, v),
                          best};
    for (std::size_t c = 0; c < table.columns.size(); ++c)
      table.columns[c].values.push_back(row[c]);
    context.reportProgress(static_cast<double>(k + 1) / static_cast<double>(vs.size()));
    if (k + 1 < vs.size()) context.publishPartial(table);
  }
  return result;
}

}  // namespace rfscope
