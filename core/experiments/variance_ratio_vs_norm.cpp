#include "core/experiments/variance_ratio_vs_norm.h"

#include <algorithm>
#include <string>

#include "core/experiments/cell_runner.h"
#include "core/experiments/common_parameters.h"
#include "core/math/log_math.h"
#include "core/mechanisms/oprf.h"

namespace rfscope {

const ExperimentInfo& VarianceRatioVsNorm::info() const {
  static const ExperimentInfo info{
      "variance-ratio-vs-norm", "Variance ratio OPRF / PosRF vs ‖x+y‖²",
      "CRT (Likhosherstov et al. 2022)",
      "CRT Fig. 1 right: μ = log(Var OPRF / Var PosRF) against ‖x + y‖², one curve per dimension"};
  return info;
}

std::vector<ParameterSpec> VarianceRatioVsNorm::parameters() const {
  std::vector<ParameterChoice> dimensions;
  for (int d = 1; d <= 1024; d *= 2)
    dimensions.push_back({std::to_string(d), "d = " + std::to_string(d)});
  auto dims = multiChoiceParameter("dimensions", "Dimensions", dimensions,
                                   {"16", "32", "64", "128", "256"}, "one curve per dimension d");
  dims.group = "Data";
  auto low = realParameter("u-min", "‖x+y‖² from", 0.01, 1e-6, 1e4, "smallest ‖x + y‖²", true);
  auto high = realParameter("u-max", "‖x+y‖² to", 200, 1e-6, 1e4, "largest ‖x + y‖²", true);
  auto steps = integerParameter("u-steps", "Steps", 200, 2, 5000, "number of ‖x + y‖² values");
  auto spacing =
      choiceParameter("u-spacing", "Spacing", {{"linear", "linear"}, {"log", "logarithmic"}},
                      "linear", "spacing of the ‖x + y‖² grid");
  for (auto* spec : {&low, &high, &steps, &spacing})
    spec->group = "Data";
  return {dims, low, high, steps, spacing};
}

VarianceRatioVsNormSettings VarianceRatioVsNorm::parse(const ParameterSet& params) const {
  VarianceRatioVsNormSettings s;
  for (const std::string& d : params.choices("dimensions"))
    s.dimensions.push_back(std::stoi(d));
  s.uMin = params.real("u-min");
  s.uMax = params.real("u-max");
  s.logSpacing = params.choice("u-spacing") == "log";
  s.grid = sigmaGrid(s.uMin, s.uMax, params.integer("u-steps"), s.logSpacing);
  return s;
}

std::vector<ParameterError> VarianceRatioVsNorm::crossValidate(const ParameterSet& params) const {
  const VarianceRatioVsNormSettings settings = parse(params);
  if (settings.uMin >= settings.uMax)
    return {{"u-max", "parameter 'u-max': must be larger than u-min"}};
  return {};
}

ParameterSet VarianceRatioVsNorm::testParameters(TestLoad load) const {
  if (load == TestLoad::Light) return defaultsWith({});
  return defaultsWith({{"u-steps", std::int64_t{5000}},
                       {"dimensions", std::vector<std::string>{"1", "2", "4", "8", "16", "32", "64",
                                                               "128", "256", "512", "1024"}}});
}

Computed<VarianceRatioVsNormResult> VarianceRatioVsNorm::compute(
    const VarianceRatioVsNormSettings& settings,
    ResultContext<VarianceRatioVsNormResult>& context) const {
  const std::vector<double>& grid = settings.grid;
  const std::vector<int>& ds = settings.dimensions;
  Computed<VarianceRatioVsNormResult> computed;
  VarianceRatioVsNormResult& result = computed.result;
  result.mu.resize(ds.size());
  // One row per ‖x + y‖², one cell per dimension.
  std::vector<double> mu(grid.size() * ds.size());
  CellWork work;
  work.computeCells = [&](std::size_t begin, std::size_t end) {
    for (std::size_t cell = begin; cell != end; ++cell) {
      const double u = grid[cell / ds.size()];
      // With ‖x - y‖² = 0 both variances carry the same K² = 1, which cancels in the ratio.
      mu[cell] = oprfLogVariance(ds[cell % ds.size()], 0.0, u) - logExpm1(u);
    }
  };
  work.commitRows = [&](std::size_t first, std::size_t last) {
    for (std::size_t row = first; row < last; ++row) {
      result.u.push_back(grid[row]);
      for (std::size_t i = 0; i < ds.size(); ++i)
        result.mu[i].push_back(mu[row * ds.size() + i]);
    }
  };
  GridRows rows;
  rows.columns.push_back(&result.u);
  for (std::vector<double>& curve : result.mu)
    rows.columns.push_back(&curve);
  rows.publishPartial = [&] { context.publishPartialResult(result); };
  CellGrid cells;
  cells.rows = grid.size();
  cells.cellsPerRow = ds.size();
  cells.rowsPerChunk = std::max<std::size_t>(1, grid.size() / 20);
  cells.distributable = true;  // commitRows writes the result's rows only
  computed.status = runCellGrid(context, cells, work, rows);
  return computed;
}

Presentation VarianceRatioVsNorm::present(const VarianceRatioVsNormSettings& settings,
                                          const VarianceRatioVsNormResult& result) const {
  Presentation shown;
  Table& table = shown.table;
  table.addColumn("u", "‖x + y‖²", result.u);
  table.hints.title = "Log variance ratio of OPRF to PosRF (Gaussian or softmax kernel)";
  table.hints.xColumn = "u";
  table.hints.xLabel = "‖x + y‖²";
  table.hints.yLabel = "μ = log(Var OPRF / Var PosRF)";
  table.hints.yShortLabel = "μ";
  table.hints.xLog = settings.logSpacing;
  for (std::size_t i = 0; i < settings.dimensions.size(); ++i) {
    const std::string d = std::to_string(settings.dimensions[i]);
    table.addColumn("mu-d" + d, "μ for d = " + d, result.mu[i]);
    table.hints.series.push_back(
        {"d = " + d, "mu-d" + d, "", "", "d-" + d, SeriesStyle::Line, "", false});
  }
  return shown;
}

}  // namespace rfscope
