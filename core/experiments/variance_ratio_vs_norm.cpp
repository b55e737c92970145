#include "core/experiments/variance_ratio_vs_norm.h"

#include <string>

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

std::vector<ParameterError> VarianceRatioVsNorm::crossValidate(const ParameterSet& params) const {
  if (params.real("u-min") >= params.real("u-max"))
    return {{"u-max", "parameter 'u-max': must be larger than u-min"}};
  return {};
}

RunResult VarianceRatioVsNorm::run(const ParameterSet& params, RunContext& context) const {
  const bool logSpacing = params.choice("u-spacing") == "log";
  const std::vector<double> grid =
      sigmaGrid(params.real("u-min"), params.real("u-max"), params.integer("u-steps"), logSpacing);
  RunResult result;
  Table& table = result.table;
  table.columns.push_back({"u", "‖x + y‖²", grid});
  table.hints.title = "Log variance ratio of OPRF to PosRF (Gaussian or softmax kernel)";
  table.hints.xColumn = "u";
  table.hints.xLabel = "‖x + y‖²";
  table.hints.yLabel = "μ = log(Var OPRF / Var PosRF)";
  table.hints.xLog = logSpacing;
  const auto& dimensions = params.choices("dimensions");
  for (std::size_t i = 0; i < dimensions.size(); ++i) {
    if (context.cancelled()) {
      result.status = RunStatus::Cancelled;
      return result;
    }
    const int d = std::stoi(dimensions[i]);
    Column column{"mu-d" + dimensions[i], "μ for d = " + dimensions[i], {}};
    column.values.reserve(grid.size());
    // With ‖x - y‖² = 0 both variances carry the same K² = 1, which cancels in the ratio anyway.
    for (const double u : grid)
      column.values.push_back(oprfLogVariance(d, 0.0, u) - logExpm1(u));
    table.columns.push_back(std::move(column));
    table.hints.series.push_back({"d = " + dimensions[i], "mu-d" + dimensions[i], "", "",
                                  "d-" + dimensions[i], SeriesStyle::Line, ""});
    context.reportProgress(static_cast<double>(i + 1) / static_cast<double>(dimensions.size()));
    if (i + 1 < dimensions.size()) context.publishPartial(table);
  }
  return result;
}

}  // namespace rfscope
