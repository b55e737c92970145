// The attention-error experiment: predicted beside measured where the delta method holds, the same
// numbers for any thread count, the user's .npy arrays (and clear errors for bad ones).

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include <Eigen/Core>

#include "core/experiments/experiment_registry.h"
#include "tests/experiments/experiment_test_support.h"

namespace rfscope {
namespace {

const Experiment& attention() {
  return *findExperiment("attention-error");
}

double at(const Table& table, const std::string& key, std::size_t row) {
  const Column* column = table.column(key);
  EXPECT_NE(column, nullptr) << key;
  return column ? column->values.at(row) : std::nan("");
}

// A little-endian float64 C-order .npy file of the matrix, NumPy's layout (version 1.0).
void writeNpy(const std::filesystem::path& path, const Eigen::MatrixXd& m, bool truncate = false) {
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" +
                       std::to_string(m.rows()) + ", " + std::to_string(m.cols()) + "), }";
  while ((10 + header.size() + 1) % 64 != 0)
    header += ' ';
  header += '\n';
  std::string out = std::string("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      const double v = m(i, j);
      char bytes[8];
      std::memcpy(bytes, &v, 8);
      out.append(bytes, 8);
    }
  if (truncate) out.resize(out.size() - 12);
  std::ofstream(path, std::ios::binary) << out;
}

TEST(AttentionErrorExperiment, PredictionSitsOnTheMeasuredCurveForSmallInputs) {
  const RunResult r =
      test::runWith(attention(), {{"input-scale", 0.2},
                                  {"mechanisms", std::vector<std::string>{"pos", "oprf"}},
                                  {"couplings", std::vector<std::string>{"iid"}},
                                  {"features-min", std::int64_t{64}},
                                  {"features-max", std::int64_t{64}},
                                  {"features-steps", std::int64_t{1}},
                                  {"redraws", std::int64_t{200}}});
  ASSERT_EQ(r.status, RunStatus::Completed);
  test::expectConsistentHints(r.table);
  for (const char* key : {"pos-iid", "oprf-iid"}) {
    const std::string k = key;
    EXPECT_LT(at(r.table, k + "-spread", 0), 0.1);
    // RMS measured vs predicted: 200 redraws, the linearised error's mean square is exact.
    EXPECT_NEAR(at(r.table, k + "-linearised", 0) / at(r.table, k + "-output-predicted", 0), 1.0,
                0.15)
        << k;
    EXPECT_NEAR(at(r.table, k + "-unnormalised", 0) / at(r.table, k + "-unnormalised-predicted", 0),
                1.0, 0.15)
        << k;
    EXPECT_NEAR(at(r.table, k + "-attention", 0) / at(r.table, k + "-attention-predicted", 0), 1.0,
                0.2)
        << k;
    EXPECT_EQ(at(r.table, k + "-nonpositive", 0), 0.0);
  }
}

// SDERF and ADERF: matrices from the queries' and keys' second moments, positive features, so
// every normaliser is positive; under iid the delta method's prediction (their dense same-query
// covariance) sits on the measured curve as OPRF's does, and the orthogonal couplings run too.
TEST(AttentionErrorExperiment, AcceptsTheDenseExponentialMechanisms) {
  const RunResult r = test::runWith(
      attention(), {{"input-scale", 0.5},
                    {"mechanisms", std::vector<std::string>{"oprf", "sderf", "aderf"}},
                    {"couplings", std::vector<std::string>{"iid", "orf"}},
                    {"features-min", std::int64_t{64}},
                    {"features-max", std::int64_t{64}},
                    {"features-steps", std::int64_t{1}},
                    {"redraws", std::int64_t{200}}});
  ASSERT_EQ(r.status, RunStatus::Completed);
  test::expectConsistentHints(r.table);
  const double oprf = at(r.table, "oprf-iid-unnormalised", 0);
  for (const char* key : {"sderf-iid", "sderf-orf", "aderf-iid", "aderf-orf"}) {
    const std::string k = key;
    EXPECT_EQ(at(r.table, k + "-nonpositive", 0), 0.0) << k;
    const double error = at(r.table, k + "-unnormalised", 0);
    EXPECT_TRUE(std::isfinite(error) && error > 0) << k;
    EXPECT_LT(error, 1.5 * oprf) << k;
  }
  for (const char* key : {"sderf-iid", "aderf-iid"}) {
    const std::string k = key;
    EXPECT_NEAR(at(r.table, k + "-unnormalised", 0) / at(r.table, k + "-unnormalised-predicted", 0),
                1.0, 0.15)
        << k;
    EXPECT_NEAR(at(r.table, k + "-linearised", 0) / at(r.table, k + "-output-predicted", 0), 1.0,
                0.15)
        << k;
  }
}

TEST(AttentionErrorExperiment, SameNumbersForAnyThreadCountAndSignedFeaturesReported) {
  const test::Overrides overrides{{"mechanisms", std::vector<std::string>{"trig", "pos"}},
                                  {"causal", true},
                                  {"input-scale", 1.5}};
  RunResult one;
  {
    tbb::global_control single(tbb::global_control::max_allowed_parallelism, 1);
    one = test::runWith(attention(), overrides);
  }
  const RunResult many = test::runWith(attention(), overrides);
  test::expectSameTable(one.table, many.table);
  // TrigRF at large inputs: some normalisers ≤ 0, and a warning says what that means.
  EXPECT_GT(at(many.table, "trig-iid-nonpositive", 0), 0.0);
  bool warned = false;
  for (const auto& w : many.warnings)
    warned = warned || w.find("TrigRF, IID: features of both signs") != std::string::npos;
  EXPECT_TRUE(warned);
}

TEST(AttentionErrorExperiment, ReadsNpyArraysAndRefusesBadOnes) {
  const auto dir = std::filesystem::temp_directory_path() / "rfscope-attention-test";
  std::filesystem::create_directories(dir);
  Eigen::MatrixXd q(20, 4), k(20, 4), v(20, 2);
  for (Eigen::Index i = 0; i < 20; ++i) {
    for (Eigen::Index j = 0; j < 4; ++j) {
      q(i, j) = std::sin(1.0 + i * 4 + j);
      k(i, j) = std::cos(2.0 + i * 4 + j);
    }
    v(i, 0) = i, v(i, 1) = -i;
  }
  writeNpy(dir / "q.npy", q);
  writeNpy(dir / "k.npy", k);
  writeNpy(dir / "v.npy", v);
  writeNpy(dir / "short.npy", q, true);
  writeNpy(dir / "v-few.npy", v.topRows(19));
  const auto files = [&](const std::string& queries, const std::string& values) {
    ParameterSet p = ParameterSet::defaults(attention().parameters());
    p.set("d", std::int64_t{4});
    p.set("queries-file", (dir / queries).string());
    p.set("keys-file", (dir / "k.npy").string());
    p.set("values-file", (dir / values).string());
    return p;
  };
  ParameterSet good = files("q.npy", "v.npy");
  ASSERT_TRUE(attention().validate(good).empty());
  SilentRunContext context;
  const RunResult r = attention().run(good, context);
  ASSERT_EQ(r.status, RunStatus::Completed);
  EXPECT_GT(at(r.table, "pos-iid-output-mean", 0), 0.0);

  const auto firstError = [&](const ParameterSet& p) {
    const auto errors = attention().validate(p);
    return errors.empty() ? ParameterError{} : errors.front();
  };
  ParameterError e = firstError(files("short.npy", "v.npy"));
  EXPECT_EQ(e.key, "queries-file");
  EXPECT_NE(e.message.find("parameter 'queries-file'"), std::string::npos) << e.message;
  e = firstError(files("q.npy", "v-few.npy"));
  EXPECT_EQ(e.key, "values-file") << e.message;
  ParameterSet wrongD = good;
  wrongD.set("d", std::int64_t{5});
  e = firstError(wrongD);
  EXPECT_NE(e.message.find("has 4 columns but d = 5"), std::string::npos) << e.message;
  e = firstError(files("missing.npy", "v.npy"));
  EXPECT_EQ(e.key, "queries-file") << e.message;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace rfscope
