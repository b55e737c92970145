#include "core/experiments/conformity_comparison.h"

#include <cmath>
#include <limits>
#include <string>

#include "core/couplings/block_geometry.h"
#include "core/couplings/frequencies.h"
#include "core/experiments/cell_runner.h"
#include "core/experiments/common_parameters.h"
#include "core/experiments/experiment_support.h"
#include "core/montecarlo/conformity_estimate.h"

namespace rfscope {
namespace {

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

ConformityComparisonSettings ConformityComparison::parse(const ParameterSet& params) const {
  ConformityComparisonSettings s;
  s.dimension = static_cast<int>(params.integer("d"));
  s.seed = static_cast<std::uint64_t>(params.integer("seed"));
  s.iidArrangements = static_cast<std::size_t>(params.integer("iid-arrangements"));
  s.optimizeRequested = params.boolean("optimize");
  s.optimize = s.optimizeRequested && s.dimension <= kMaxOptimizedDimension;
  s.restarts = static_cast<int>(params.integer("restarts"));
  s.vMin = params.real("v-min");
  s.vMax = params.real("v-max");
  s.vSteps = params.integer("v-steps");
  s.vs = valueGrid(s.vMin, s.vMax, s.vSteps, false);
  return s;
}

std::vector<ParameterError> ConformityComparison::crossValidate(const ParameterSet& params) const {
  const ConformityComparisonSettings settings = parse(params);
  if (settings.vSteps > 1 && settings.vMin >= settings.vMax)
    return {{"v-max", "parameter 'v-max': must be larger than v-min"}};
  return {};
}

ParameterSet ConformityComparison::testParameters(TestLoad load) const {
  if (load == TestLoad::Light)
    return defaultsWith({{"v-steps", std::int64_t{3}}, {"restarts", std::int64_t{2}}});
  return defaultsWith({{"v-steps", std::int64_t{50}}});
}

namespace {

// d × d standard normal entries, rows normalised: a direction arrangement.
Eigen::MatrixXd randomDirections(int d, std::uint64_t seed, std::uint64_t index) {
  TrialStream rng(seed, index);
  PairedNormals<TrialStream> normals(rng);
  Eigen::MatrixXd u(d, d);
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j)
      u(i, j) = normals.next();
  return u.rowwise().normalized();
}

// Where the optimiser starts: SimRF+'s directions, then random ones.
std::vector<Eigen::MatrixXd> optimizerStarts(const ConformityComparisonSettings& settings,
                                             const Eigen::MatrixXd& simplexPlus) {
  std::vector<Eigen::MatrixXd> starts{simplexPlus.rowwise().normalized()};
  const std::uint64_t startSeed = deriveSeed(settings.seed, 2);
  for (int r = 1; r < settings.restarts; ++r)
    starts.push_back(
        randomDirections(settings.dimension, startSeed, static_cast<std::uint64_t>(r)));
  return starts;
}

}  // namespace

Computed<ConformityComparisonResult> ConformityComparison::compute(
    const ConformityComparisonSettings& settings,
    ResultContext<ConformityComparisonResult>& context) const {
  const std::size_t arrangementCount = settings.iidArrangements;
  const std::vector<double>& vs = settings.vs;
  // One draw of norms: χ_d as the norm of a Gaussian vector (stream 0).
  TrialStream normStream(settings.seed, 0);
  const Eigen::VectorXd norms = gaussianVectorNorms(normStream, settings.dimension);
  // Directions: i.i.d. arrangements (stream a under a derived seed), drawn again in each cell
  // that needs one (O(d²) beside the conformity's O(d³)) rather than held: 10⁵ arrangements at
  // d = 256 would take 52 GB; the simplex and SimRF+.
  const std::uint64_t iidSeed = deriveSeed(settings.seed, 1);
  const auto iidArrangement = [&](std::size_t a) {
    return Eigen::MatrixXd(norms.asDiagonal() * randomDirections(settings.dimension, iidSeed, a));
  };
  const Eigen::MatrixXd orthogonal = Eigen::MatrixXd(norms.asDiagonal());
  const Eigen::MatrixXd simplex = simplexArrangement(norms);
  const Eigen::MatrixXd simplexPlus = simplexPlusArrangement(norms);
  const std::vector<Eigen::MatrixXd> starts = optimizerStarts(settings, simplexPlus);

  // One row per v; its cells: the i.i.d. arrangements' conformities, then the optimiser's starts.
  const std::size_t optimizerCells = settings.optimize ? starts.size() : 0;
  const std::size_t cellsPerRow = arrangementCount + optimizerCells;
  std::vector<double> values(vs.size() * cellsPerRow);
  CellWork work;
  work.computeCells = [&](std::size_t begin, std::size_t end) {
    for (std::size_t cell = begin; cell != end; ++cell) {
      const double v = vs[cell / cellsPerRow];
      const std::size_t i = cell % cellsPerRow;
      values[cell] = i < arrangementCount
                         ? conformityOf(iidArrangement(i), v)
                         : minimizeConformity(starts[i - arrangementCount], norms, v, context);
    }
  };
  Computed<ConformityComparisonResult> computed;
  ConformityComparisonResult& result = computed.result;
  work.commitRows = [&](std::size_t first, std::size_t last) {
    for (std::size_t k = first; k < last; ++k) {
      const double v = vs[k];
      const double* row = &values[k * cellsPerRow];
      const MeanAndStd s = summarizeFinite(row, arrangementCount);
      double best = std::numeric_limits<double>::quiet_NaN();
      if (settings.optimize) {
        best = row[arrangementCount];
        for (std::size_t i = 0; i < optimizerCells; ++i)
          best = std::min(best, row[arrangementCount + i]);
      }
      result.v.push_back(v);
      result.iidMean.push_back(s.mean);
      result.iidStd.push_back(s.std);
      result.orthogonal.push_back(conformityOf(orthogonal, v));
      result.simplex.push_back(conformityOf(simplex, v));
      result.simplexPlus.push_back(conformityOf(simplexPlus, v));
      result.optimized.push_back(best);
    }
  };
  CellGrid grid;
  grid.rows = vs.size();
  grid.cellsPerRow = cellsPerRow;
  grid.distributable = true;  // commitRows writes the result's rows only
  computed.status = runCellGrid(context, grid, work,
                                {{&result.v, &result.iidMean, &result.iidStd, &result.orthogonal,
                                  &result.simplex, &result.simplexPlus, &result.optimized},
                                 [&] { context.publishPartialResult(result); }});
  return computed;
}

Presentation ConformityComparison::present(const ConformityComparisonSettings& settings,
                                           const ConformityComparisonResult& result) const {
  Presentation shown;
  if (settings.optimizeRequested && !settings.optimize)
    shown.warnings.push_back("numerical optimisation is offered for d ≤ " +
                             std::to_string(kMaxOptimizedDimension) + " only");
  Table& table = shown.table;
  table.hints.title =
      "RF-conformity for one draw of norms, d = " + std::to_string(settings.dimension);
  table.hints.xColumn = "v";
  table.hints.xLabel = "v = ‖x + y‖";
  table.hints.yLabel = "RF-conformity ρ (lower is better)";
  table.hints.xShortLabel = "v";
  table.hints.yShortLabel = "RF-conformity ρ";
  const auto style = settings.vs.size() > 1 ? SeriesStyle::LineAndPoints : SeriesStyle::Points;
  std::vector<double> low, high;
  for (std::size_t k = 0; k < result.v.size(); ++k) {
    low.push_back(result.iidMean[k] - result.iidStd[k]);
    high.push_back(result.iidMean[k] + result.iidStd[k]);
  }
  table.addColumn("v", "v = ‖x + y‖", result.v);
  table.addColumn("iid-mean", "IID mean over arrangements", result.iidMean);
  table.addColumn("iid-std", "IID std over arrangements", result.iidStd);
  table.addColumn("iid-low", "IID mean - std", std::move(low));
  table.addColumn("iid-high", "IID mean + std", std::move(high));
  table.addColumn("orf", "ORF", result.orthogonal);
  table.addColumn("simrf", "SimRF", result.simplex);
  table.addColumn("simrf-plus", "SimRF+", result.simplexPlus);
  table.addColumn("optimized", "numerically optimised", result.optimized);
  table.hints.series = {
      {"IID (mean ± std)", "iid-mean", "iid-low", "iid-high", "iid", style, "", false, "IID"},
      {"ORF", "orf", "", "", "orf", style, "", false},
      {"SimRF", "simrf", "", "", "simrf", style, "", false},
      {"SimRF+", "simrf-plus", "", "", "simrf-plus", style, "", false}};
  if (settings.optimize)
    table.hints.series.push_back(
        {"numerically optimised", "optimized", "", "", "optimized", style, "", false, "optimum"});
  return shown;
}

}  // namespace rfscope
