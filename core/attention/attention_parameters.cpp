#include "core/attention/attention_parameters.h"

#include <vector>

#include "core/mechanisms/data_driven_parameters.h"

namespace rfscope {

ParameterSet attentionParameters(const Mechanism& mechanism, const AttentionProblem& problem) {
  std::vector<Eigen::VectorXd> xs, ys;
  for (Eigen::Index i = 0; i < problem.rows(); ++i)
    xs.push_back(problem.queries.row(i).transpose());
  for (Eigen::Index j = 0; j < problem.keys.rows(); ++j)
    ys.push_back(problem.keys.row(j).transpose());
  ys.resize(xs.size(), ys.back());
  const ParameterSet chosen = dataDrivenParameters(mechanism, xs, ys);
  return resolveParameters(mechanism, PairInput(xs.front(), ys.front()), chosen);
}

FeatureMapSpec attentionFeatureSpec(const Mechanism& mechanism, const AttentionProblem& problem,
                                    Coupling coupling, std::int64_t features) {
  FeatureMapSpec spec;
  spec.kernel = Kernel::Softmax;
  spec.coupling = coupling;
  spec.features = features;
  spec.dimension = static_cast<int>(problem.queries.cols());
  spec.parameters = attentionParameters(mechanism, problem);
  return spec;
}

}  // namespace rfscope
