// core/attention/precision_attention.h: in float64 without a stabiliser the emulated features and
// attention are RFScope's own (rf_attention.h) for every mechanism the model covers; every
// exact stabiliser leaves float64 attention unchanged; the 'performer' stabiliser reproduces
// performer-pytorch's softmax_kernel and linear_attention (tests/reference/
// performer_kernel_references.json, generate_performer_kernel_references.py) in float64, float32
// and bfloat16.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/attention/precision_attention.h"
#include "core/attention/rf_attention.h"
#include "core/mechanisms/data_driven_parameters.h"
#include "core/mechanisms/mechanism.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/random/trial_stream.h"
#include "tests/attention/attention_test_support.h"

namespace rfscope {
namespace {

Eigen::MatrixXd gaussian(Eigen::Index rows, Eigen::Index cols, double scale, TrialStream& s) {
  Eigen::MatrixXd m(rows, cols);
  for (Eigen::Index i = 0; i < rows; ++i)
    for (Eigen::Index j = 0; j < cols; ++j)
      m(i, j) = scale * s.normal();
  return m;
}

struct Drawn {
  FeatureMapRecipe recipe;
  std::unique_ptr<FeatureMap> map;
};

Drawn draw(const char* id, const Eigen::MatrixXd& x, const Eigen::MatrixXd& y, int m) {
  const Mechanism& mechanism = *findMechanism(id);
  std::vector<Eigen::VectorXd> xs, ys;
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    xs.push_back(x.row(i).transpose());
    ys.push_back(y.row(i).transpose());
  }
  FeatureMapSpec spec;
  spec.kernel = Kernel::Softmax;
  spec.coupling = Coupling::Orthogonal;
  spec.dimension = static_cast<int>(x.cols());
  spec.features = m;
  spec.parameters = resolveParameters(mechanism, PairInput(xs.front(), ys.front()),
                                      dataDrivenParameters(mechanism, xs, ys));
  TrialStream stream(7, 0);
  auto map = mechanism.drawFeatureMap(spec, stream);
  Drawn d;
  d.map = std::move(*map);
  EXPECT_TRUE(d.map->describe(d.recipe));
  return d;
}

double relative(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return (a - b).norm() / b.norm();
}

TEST(PrecisionAttention, Float64IsRfscopesAttentionForEveryMechanism) {
  const int d = 8, n = 24, m = 16;
  TrialStream stream(3, 0);
  const Eigen::MatrixXd q = gaussian(n, d, 0.6, stream), k = gaussian(n, d, 0.6, stream);
  const Eigen::MatrixXd v = gaussian(n, 3, 1.0, stream);
  const double factor = std::pow(static_cast<double>(d), -0.25);
  for (const char* id : {"pos", "pos-hyp", "oprf", "trig"})
    for (const bool causal : {false, true}) {
      AttentionProblem problem{q * factor, k * factor, v, causal};
      const Drawn drawn = draw(id, problem.queries, problem.keys, m);
      ASSERT_TRUE(precisionModelCovers(drawn.recipe)) << id;
      const RfAttention reference =
          rfAttention(problem, drawn.map->queries(problem.queries), drawn.map->keys(problem.keys));
      for (const Stabiliser s : {Stabiliser::None, Stabiliser::NormFactor, Stabiliser::PerformerMax,
                                 Stabiliser::ExponentMax, Stabiliser::GlobalMax}) {
        const PrecisionSettings settings{Precision::Float64, s, 1e-4};
        const Eigen::MatrixXd fq = precisionFeatures(drawn.recipe, q, true, settings);
        const Eigen::MatrixXd fk = precisionFeatures(drawn.recipe, k, false, settings);
        const PrecisionAttention a = precisionAttention(fq, fk, v, causal, Precision::Float64);
        EXPECT_LT(relative(a.output, reference.output()), 1e-12)
            << id << " causal " << causal << " " << stabiliserId(s);
      }
    }
}

TEST(PrecisionAttention, RowMaxOnKeysAndEpsAreBiased) {
  const int d = 8, n = 24, m = 16;
  TrialStream stream(4, 0);
  const Eigen::MatrixXd q = gaussian(n, d, 1.0, stream), k = gaussian(n, d, 1.0, stream);
  const Eigen::MatrixXd v = gaussian(n, 3, 1.0, stream);
  const double factor = std::pow(static_cast<double>(d), -0.25);
  const Drawn drawn = draw("pos", q * factor, k * factor, m);
  const auto output = [&](Stabiliser s) {
    const PrecisionSettings settings{Precision::Float64, s, 1e-4};
    return precisionAttention(precisionFeatures(drawn.recipe, q, true, settings),
                              precisionFeatures(drawn.recipe, k, false, settings), v, false,
                              Precision::Float64)
        .output;
  };
  const Eigen::MatrixXd exact = output(Stabiliser::None);
  EXPECT_GT(relative(output(Stabiliser::RowMax), exact), 1e-3);
  EXPECT_GT(relative(output(Stabiliser::Performer), exact), 1e-3);
}

const nlohmann::json& performer() {
  static const nlohmann::json data = [] {
    std::ifstream in(std::string(RFSCOPE_REFERENCE_DIR) + "/performer_kernel_references.json");
    return nlohmann::json::parse(in);
  }();
  return data;
}

// Features and outputs of the 'performer' stabiliser against performer-pytorch's own code: the
// largest difference relative to the largest entry, per precision.
void expectPerformer(const char* dtype, Precision p, double featureTolerance,
                     double outputTolerance) {
  FeatureMapRecipe recipe;
  recipe.kernel = Kernel::Softmax;
  recipe.omega = test::matrixFromJson(performer()["projection"]);
  const Eigen::MatrixXd q = test::matrixFromJson(performer()["queries"]),
                        k = test::matrixFromJson(performer()["keys"]);
  const Eigen::MatrixXd v = test::matrixFromJson(performer()["values"]);
  const PrecisionSettings settings{p, Stabiliser::Performer, 1e-4};
  const Eigen::MatrixXd fq = precisionFeatures(recipe, q, true, settings);
  const Eigen::MatrixXd fk = precisionFeatures(recipe, k, false, settings);
  const nlohmann::json& expected = performer()[dtype];
  const Eigen::MatrixXd eq = test::matrixFromJson(expected["query_features"]);
  const Eigen::MatrixXd ek = test::matrixFromJson(expected["key_features"]);
  EXPECT_LE((fq - eq).cwiseAbs().maxCoeff() / eq.cwiseAbs().maxCoeff(), featureTolerance) << dtype;
  EXPECT_LE((fk - ek).cwiseAbs().maxCoeff() / ek.cwiseAbs().maxCoeff(), featureTolerance) << dtype;
  const Eigen::MatrixXd output = precisionAttention(fq, fk, v, false, p).output;
  const Eigen::MatrixXd eo = test::matrixFromJson(expected["output"]);
  EXPECT_LE((output - eo).cwiseAbs().maxCoeff() / eo.cwiseAbs().maxCoeff(), outputTolerance)
      << dtype;
}

TEST(PrecisionAttention, PerformerStabiliserIsPerformerPytorchs) {
  // Measured: float64 1.1e-15 (features and outputs), float32 3.8e-7 (torch's float32 exp and
  // summation order); bfloat16 features bit for bit, outputs 1.5e-2 (torch's three-operand
  // einsum rounds its intermediate products in another order: 2 bfloat16 ulps).
  expectPerformer("float64", Precision::Float64, 1e-14, 1e-14);
  expectPerformer("float32", Precision::Float32, 1e-6, 1e-6);
  expectPerformer("bfloat16", Precision::Bfloat16, 0, 3e-2);
}

}  // namespace
}  // namespace rfscope
