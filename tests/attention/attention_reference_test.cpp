// The attention predictions against the mpmath references (tests/reference/
// attention_references.json, generate_attention_references.py): per row log D, o, log T, log F and
// log Var D̂ of one feature, the totals, and the exact unnormalised error Σ Var Ŝ_ij.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/attention/attention_prediction.h"
#include "core/attention/exact_attention.h"
#include "core/mechanisms/dense_exponential_rf.h"
#include "core/mechanisms/mechanism_registry.h"
#include "tests/attention/attention_test_support.h"

namespace rfscope {
namespace {

const nlohmann::json& references() {
  static const nlohmann::json data = [] {
    std::ifstream in(std::string(RFSCOPE_REFERENCE_DIR) + "/attention_references.json");
    return nlohmann::json::parse(in);
  }();
  return data;
}

double value(const nlohmann::json& v) {
  return std::strtod(v.get<std::string>().c_str(), nullptr);
}

ParameterSet parameters(const nlohmann::json& json) {
  ParameterSet set;
  for (const auto& [key, v] : json.items()) {
    if (key == "s")
      set.set("s", std::string(v.get<int>() > 0 ? "+1" : "-1"));
    else if (v.is_boolean())
      set.set(key, v.get<bool>());
    else if (key == "n")
      set.set(key, v.get<std::int64_t>());
    else
      set.set(key, v.get<double>());
  }
  return set;
}

// |a - b| ≤ 1e-10, relative where |b| > 1 (the specification's tolerance on logs).
void expectLogNear(double actual, double expected, const std::string& what) {
  EXPECT_NEAR(actual, expected, 1e-10 * std::max(1.0, std::abs(expected))) << what;
}

struct Case {
  const nlohmann::json* json = nullptr;
  const Mechanism* mechanism = nullptr;
  AttentionProblem problem;
  ParameterSet params;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const auto& c : references()["attention"]) {
    const Mechanism* mechanism = findMechanism(c["mechanism"].get<std::string>());
    if (mechanism == nullptr) continue;  // a mechanism this build does not have
    Case item;
    item.json = &c;
    item.mechanism = mechanism;
    item.params = parameters(c["params"]);
    item.problem.queries = test::matrixFromJson(c["x"]);
    item.problem.keys = test::matrixFromJson(c["y"]);
    item.problem.values = test::matrixFromJson(c["values"]);
    if (c.contains("expected_params") && c["expected_params"].contains("A"))
      item.params.set("A", value(c["expected_params"]["A"]));
    // SDERF, ADERF (dense_a too): matrices from the moments of the query and key sets, as the
    // references choose them; their objective and ratios r_l as the references have them.
    if (const auto* derf = dynamic_cast<const DenseExponentialRf*>(mechanism)) {
      std::vector<Eigen::VectorXd> xs, ys;
      for (Eigen::Index i = 0; i < item.problem.queries.rows(); ++i)
        xs.push_back(item.problem.queries.row(i).transpose());
      for (Eigen::Index j = 0; j < item.problem.keys.rows(); ++j)
        ys.push_back(item.problem.keys.row(j).transpose());
      ParameterSet chosen = derf->chosenParameters(derfMoments(xs, ys), item.params);
      for (const auto& [key, v] : item.params.values())
        chosen.set(key, v);
      item.params = chosen;
      const auto& expected = c["expected_params"];
      const std::string label = c["label"].get<std::string>() + " " + mechanism->info().id;
      const double objective = value(expected["objective"]);
      EXPECT_NEAR(item.params.real("objective"), objective, 1e-10 * std::max(1.0, objective))
          << label;
      const auto& a =
          static_cast<const DerfAttachment&>(*item.params.attachment()).choice.parameters.a;
      std::vector<double> r, expectedR;
      for (Eigen::Index l = 0; l < a.size(); ++l) {
        r.push_back(1 - 8 * a[l]);
        expectedR.push_back(value(expected["r_" + std::to_string(l)]));
      }
      std::sort(r.begin(), r.end());
      std::sort(expectedR.begin(), expectedR.end());
      for (std::size_t l = 0; l < r.size(); ++l)
        EXPECT_NEAR(r[l], expectedR[l], 1e-10 * expectedR[l]) << label << " r_" << l;
    }
    out.push_back(std::move(item));
  }
  return out;
}

TEST(AttentionReference, DeltaMethodRowsMatchMpmath) {
  int checked = 0, unavailable = 0;
  for (const Case& c : cases()) {
    const std::string label = (*c.json)["label"].get<std::string>() + " " + c.mechanism->info().id;
    const KeyGram gram(c.problem);
    const auto prediction =
        predictAttention(c.problem, gram, *c.mechanism, c.params, test::allRows(c.problem));
    if (!prediction) {
      // Only the mechanisms without a same-query covariance here: complex or s = -1 GERF, hybrids.
      const std::string id = c.mechanism->info().id;
      EXPECT_TRUE(id == "gerf" || id.rfind("hybrid", 0) == 0) << label << prediction.reason();
      ++unavailable;
      continue;
    }
    const auto& rows = (*c.json)["rows"];
    ASSERT_EQ(prediction->rows.size(), rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const RowPrediction& got = prediction->rows[i];
      const std::string where = label + " row " + std::to_string(i);
      expectLogNear(got.logNormaliser, value(rows[i]["log_D"]), where + " log D");
      expectLogNear(got.logT, value(rows[i]["log_T"]), where + " log T");
      expectLogNear(got.logF, value(rows[i]["log_F"]), where + " log F");
      expectLogNear(got.logVarianceD, value(rows[i]["log_var_D"]), where + " log Var D");
      for (Eigen::Index k = 0; k < got.output.size(); ++k) {
        const double expected = value(rows[i]["o"][static_cast<std::size_t>(k)]);
        EXPECT_NEAR(got.output[k], expected, 1e-12 * std::max(1.0, std::abs(expected))) << where;
      }
    }
    expectLogNear(prediction->logOutputMse, value((*c.json)["log_output_mse"]), label);
    expectLogNear(prediction->logOutputNormSquared, value((*c.json)["log_output_norm2"]), label);
    expectLogNear(prediction->logAttentionMse, value((*c.json)["log_attention_mse"]), label);
    expectLogNear(prediction->logAttentionNormSquared, value((*c.json)["log_attention_norm2"]),
                  label);
    ++checked;
  }
  EXPECT_EQ(checked, 56);      // trig, trig-phase, pos, pos-hyp, oprf, sderf, aderf (scalar and
                               // dense A): 7 cases each
  EXPECT_EQ(unavailable, 28);  // GERF (complex A), two hybrids
}

TEST(AttentionReference, UnnormalisedErrorMatchesMpmath) {
  int checked = 0;
  for (const Case& c : cases()) {
    const std::string label = (*c.json)["label"].get<std::string>() + " " + c.mechanism->info().id;
    EstimatorSpec spec{c.mechanism, Kernel::Softmax, Coupling::Iid, 1, c.params};
    const auto prediction = predictUnnormalised(c.problem, spec, test::allRows(c.problem));
    ASSERT_TRUE(prediction) << label << prediction.reason();
    expectLogNear(prediction->logMse, value((*c.json)["log_unnormalised_mse"]), label);
    expectLogNear(prediction->logNormSquared, value((*c.json)["log_unnormalised_norm2"]), label);
    ++checked;
  }
  EXPECT_EQ(checked, 84);  // every mechanism of the registry, 7 cases each (aderf twice)
}

TEST(AttentionReference, ExactAttentionMatchesMpmath) {
  for (const Case& c : cases()) {
    const ExactAttention exact = exactAttention(c.problem);
    const auto& rows = (*c.json)["rows"];
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const auto row = static_cast<Eigen::Index>(i);
      expectLogNear(exact.logNormaliser[row], value(rows[i]["log_D"]), "log D");
      for (Eigen::Index k = 0; k < exact.output.cols(); ++k) {
        const double expected = value(rows[i]["o"][static_cast<std::size_t>(k)]);
        // o = Σ A_j v_j summed directly: rounding relative to the largest |v_j|.
        EXPECT_NEAR(exact.output(row, k), expected, 1e-12 * c.problem.values.cwiseAbs().maxCoeff());
      }
    }
  }
}

}  // namespace
}  // namespace rfscope
