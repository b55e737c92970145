#include "core/mechanisms/maclaurin_rf.h"

#include <cmath>
#include <string>
#include <vector>

#include "core/mechanisms/data_driven_parameters.h"
#include "core/mechanisms/maclaurin.h"
#include "core/mechanisms/maclaurin_features.h"
#include "core/mechanisms/mechanism_parameters.h"
#include "core/mechanisms/trial_kernel.h"

namespace rfscope {
namespace {

const char* const kCouplingReason =
    "Maclaurin features draw a random degree and Rademacher sign vectors, not Gaussian "
    "frequencies ω: the couplings, which arrange ω, do not apply (maclaurin is i.i.d. only)";

MaclaurinDegrees degreesOf(const ParameterSet& params) {
  return choiceOr(params, "degrees", "poisson") == "geometric" ? MaclaurinDegrees::Geometric
                                                               : MaclaurinDegrees::Poisson;
}

// The law of resolved parameters (λ* of the pair where λ is absent), or why there is none.
Outcome<MaclaurinLaw> lawOf(const ParameterSet& params, const MaclaurinPair* pair) {
  MaclaurinLaw law;
  law.degrees = degreesOf(params);
  if (law.degrees == MaclaurinDegrees::Geometric) return law;
  if (params.contains("lambda"))
    law.lambda = params.real("lambda");
  else if (pair)
    law.lambda = maclaurinLambdaStar(*pair);
  else
    throw InvalidParameter("lambda",
                           "MaclaurinRF needs parameter 'lambda' resolved (at a pair "
                           "or from data) before drawing features");
  if (!(law.lambda >= 0) || !std::isfinite(law.lambda))
    return Outcome<MaclaurinLaw>::unavailable("MaclaurinRF needs λ ≥ 0");
  return law;
}

// One M-feature trial: per feature, the degree N and N sign vectors (maclaurin_features.h), and
// the product a_N/p(N) Π_j (w_jᵀx)(w_jᵀy) as envelope and sign.
class MaclaurinTrial final : public TrialKernel {
 public:
  MaclaurinLaw law;
  std::vector<double> x, y;

  void addFeatureProducts(const TrialInputs& in, TrialStream& rng,
                          EnvelopeSum& total) const override {
    const int d = static_cast<int>(x.size());
    std::vector<double> signs(static_cast<std::size_t>(d));
    for (std::int64_t k = 0; k < in.features; ++k) {
      const std::int64_t degree = drawMaclaurinDegree(law, rng);
      double logAbs = maclaurinLogWeight(law, degree), sign = 1;
      for (std::int64_t j = 0; j < degree; ++j) {
        drawRademacher(rng, d, signs.data());
        double px = 0, py = 0;  // in order, as the feature map sums them
        for (int l = 0; l < d; ++l) {
          px += signs[static_cast<std::size_t>(l)] * x[static_cast<std::size_t>(l)];
          py += signs[static_cast<std::size_t>(l)] * y[static_cast<std::size_t>(l)];
        }
        logAbs += std::log(std::abs(px)) + std::log(std::abs(py));
        if ((px < 0) != (py < 0)) sign = -sign;
      }
      total.add(logAbs, sign);  // a zero projection gives -inf: nothing added
    }
  }
};

}  // namespace

const MechanismInfo& MaclaurinRf::info() const {
  static const MechanismInfo info{
      "maclaurin",
      "MaclaurinRF",
      "Random Maclaurin features: a random degree N, then Π_j w_jᵀx over N Rademacher vectors",
      "Kar & Karnick 2012; degree law after Wacker et al. 2022 (arXiv 2201.08712), derived here",
      false,
      false,
      Rgb{170, 60, 50}};
  return info;
}

std::vector<ParameterSpec> MaclaurinRf::parameters() const {
  auto degrees = choiceParameter("degrees", "Degree law",
                                 {{"poisson", "Poisson(λ) (variance-optimal at λ*)"},
                                  {"geometric", "geometric 2^-(n+1) (Kar & Karnick)"}},
                                 "poisson", "law of the degree N of a feature");
  degrees.group = "Estimator";
  auto lambda =
      realParameter("lambda", "λ", 1.0, 1e-12, 1e12, "mean degree of the Poisson law", true);
  lambda.optional = true;
  lambda.autoLabel = "λ* = √E[(wᵀx)²(wᵀy)²]";
  lambda.group = "Estimator";
  lambda.visibleWhenKey = "degrees";
  lambda.visibleWhenValues = {"poisson"};
  return {degrees, lambda};
}

VarianceResult MaclaurinRf::logVariance(const PairInput& pair, const ParameterSet& params) const {
  VarianceResult result;
  const MaclaurinPair moments = maclaurinPair(pair.x, pair.y);
  const MaclaurinDegrees degrees = degreesOf(params);
  result.parametersUsed.set(
      "degrees", std::string(degrees == MaclaurinDegrees::Poisson ? "poisson" : "geometric"));
  double excess = 0;
  if (degrees == MaclaurinDegrees::Geometric) {
    excess = maclaurinExcess(degrees, 0, moments);
  } else if (const auto lambda = optionalReal(params, "lambda")) {
    result.parametersUsed.set("lambda", *lambda);
    excess = maclaurinExcess(degrees, *lambda, moments);
  } else {
    result.parametersUsed.set("lambda", maclaurinLambdaStar(moments));
    excess = maclaurinOptimalExcess(moments);
  }
  result.logVariance = maclaurinLogVariance(pair.geometry.diffNormSquared, excess);
  return result;
}

ParameterSet MaclaurinRf::dataDrivenParameters(SetStatisticsSource& statistics) const {
  ParameterSet parameters;
  parameters.set("lambda", dataDrivenMaclaurinLambda(statistics.plain()));
  return parameters;
}

Outcome<TrialModel> MaclaurinRf::trialModel(Coupling coupling, const Eigen::VectorXd& x,
                                            const Eigen::VectorXd& y,
                                            const ParameterSet& resolved) const {
  if (coupling != Coupling::Iid) return Outcome<TrialModel>::unavailable(kCouplingReason);
  const MaclaurinPair moments = maclaurinPair(x, y);
  const Outcome<MaclaurinLaw> law = lawOf(resolved, &moments);
  if (!law) return Outcome<TrialModel>::unavailable(law.reason());
  auto kernel = std::make_shared<MaclaurinTrial>();
  kernel->law = *law;
  kernel->x.assign(x.data(), x.data() + x.size());
  kernel->y.assign(y.data(), y.data() + y.size());
  TrialModel model;
  model.family = TrialFamily::Kernel;
  model.kernel = std::move(kernel);
  model.logConstant = -0.5 * (x.squaredNorm() + y.squaredNorm());  // the Gaussian kernel's factor
  return model;
}

Outcome<std::unique_ptr<FeatureMap>> MaclaurinRf::drawFeatureMap(const FeatureMapSpec& spec,
                                                                 TrialStream& stream) const {
  using Result = Outcome<std::unique_ptr<FeatureMap>>;
  if (spec.coupling != Coupling::Iid) return Result::unavailable(kCouplingReason);
  const Outcome<MaclaurinLaw> law = lawOf(spec.parameters, nullptr);
  if (!law) return Result::unavailable(law.reason());
  return drawMaclaurinFeatureMap(*law, spec, stream);
}

}  // namespace rfscope
