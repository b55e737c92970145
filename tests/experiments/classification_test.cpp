#include "core/experiments/classification.h"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "../data/scratch_folder.h"
#include "core/data/class_predictions.h"
#include "core/experiments/classification_problem.h"
#include "core/experiments/random_feature_classifier.h"
#include "core/mechanisms/feature_map.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/random/trial_stream.h"
#include "experiment_test_support.h"

namespace rfscope {
namespace {

using test::runWith;

// A small labelled set: 3 classes around different centres, d = 5.
struct SmallSet {
  Eigen::MatrixXd train, test;
  std::vector<int> labels;
};

SmallSet smallSet(double scale) {
  TrialStream stream(7, 0);
  SmallSet set;
  set.train.resize(60, 5);
  set.test.resize(15, 5);
  for (Eigen::Index i = 0; i < set.train.rows(); ++i) {
    set.labels.push_back(static_cast<int>(i % 3));
    for (Eigen::Index k = 0; k < 5; ++k)
      set.train(i, k) = scale * (stream.normal() + (k == i % 3 ? 2.0 : 0.0));
  }
  for (Eigen::Index j = 0; j < set.test.rows(); ++j)
    for (Eigen::Index k = 0; k < 5; ++k)
      set.test(j, k) = scale * (stream.normal() + (k == j % 3 ? 2.0 : 0.0));
  return set;
}

std::unique_ptr<FeatureMap> drawMap(const char* mechanismId, Coupling coupling,
                                    std::int64_t features, const SmallSet& set) {
  ClassificationProblem problem;
  problem.train = set.train;
  problem.test = set.test;
  const Mechanism& mechanism = *findMechanism(mechanismId);
  TrialStream stream(3, 1);
  auto map = mechanism.drawFeatureMap(
      classificationFeatureSpec(mechanism, coupling, features, problem), stream);
  EXPECT_TRUE(map) << mechanismId;
  return std::move(*map);
}

TEST(RandomFeatureClassifier, ClassSumsEqualTheBruteForceKernelMatrix) {
  // Σ_i K̂(o*, o_i) r_i from the n × L matrix of estimates, against the O((n + L)M) class sums.
  const SmallSet set = smallSet(0.4);
  for (const char* id : {"pos", "trig", "oprf", "gerf", "geom-plus", "pos-hyp"}) {
    const auto map = drawMap(id, Coupling::Iid, 16, set);
    const Eigen::MatrixXd estimates = kernelEstimates(map->queries(set.test), map->keys(set.train));
    Eigen::MatrixXd brute = Eigen::MatrixXd::Zero(set.test.rows(), 3);
    for (Eigen::Index i = 0; i < set.train.rows(); ++i)
      brute.col(set.labels[static_cast<std::size_t>(i)]) += estimates.col(i);
    const ClassScores scores = randomFeatureClassScores(*map, set.train, set.labels, 3, set.test);
    for (Eigen::Index j = 0; j < brute.rows(); ++j)
      for (int l = 0; l < 3; ++l)
        EXPECT_NEAR(scores.values(j, l) * std::exp(scores.logScale(j)), brute(j, l),
                    1e-12 * brute.row(j).cwiseAbs().maxCoeff())
            << id << " point " << j << " class " << l;
    EXPECT_EQ(argmaxClasses(scores.values), argmaxClasses(brute)) << id;
  }
}

TEST(RandomFeatureClassifier, StaysFiniteWherePositiveFeaturesLeaveADoublesRange) {
  // Scale 20: |x|² is in the thousands, so plain features exp(ωᵀx - |x|²) and every plain
  // estimate K̂ underflow to 0 (plain class sums would all tie at 0). The class
  // scores stay finite, non-zero, and pick the classes the log-domain brute-force sums do.
  const SmallSet set = smallSet(20.0);
  const auto map = drawMap("pos", Coupling::Iid, 32, set);
  const FeatureMatrix queries = map->queries(set.test), keys = map->keys(set.train);
  EXPECT_LT(queries.logScale.maxCoeff() + keys.logScale.maxCoeff(), std::log(1e-308));
  EXPECT_TRUE(kernelEstimates(queries, keys).isZero(0));
  const Eigen::MatrixXd logEstimates = logKernelEstimates(queries, keys);
  Eigen::MatrixXd logBrute(set.test.rows(), 3);
  for (Eigen::Index j = 0; j < set.test.rows(); ++j)
    for (int l = 0; l < 3; ++l) {
      double largest = -std::numeric_limits<double>::infinity(), sum = 0;
      for (Eigen::Index i = l; i < set.train.rows(); i += 3)
        largest = std::max(largest, logEstimates(j, i));
      for (Eigen::Index i = l; i < set.train.rows(); i += 3)
        sum += std::exp(logEstimates(j, i) - largest);
      logBrute(j, l) = largest + std::log(sum);
    }
  const ClassScores scores = randomFeatureClassScores(*map, set.train, set.labels, 3, set.test);
  EXPECT_TRUE(scores.values.allFinite());
  EXPECT_TRUE(scores.logScale.allFinite());
  EXPECT_EQ(argmaxClasses(scores.values), argmaxClasses(logBrute));
  for (Eigen::Index j = 0; j < set.test.rows(); ++j) {
    EXPECT_EQ(scores.values.row(j).maxCoeff(), 1.0) << j;
    EXPECT_NEAR(scores.logScale(j), logBrute.row(j).maxCoeff(), 1e-9 * std::abs(scores.logScale(j)))
        << j;
  }
}

const test::Overrides kSmall{{"features", std::string("1,4")}, {"repeats", std::int64_t{4}}};

TEST(Classification, ColumnsAsTheCsvContractNamesThem) {
  const RunResult result = runWith(Classification(), kSmall);
  ASSERT_EQ(result.status, RunStatus::Completed);
  const Table& table = result.table;
  test::expectConsistentHints(table);
  ASSERT_EQ(table.rowCount(), 2u);
  EXPECT_EQ(table.column("features")->values, (std::vector<double>{4, 16}));  // banknote: d = 4
  for (const char* key :
       {"accuracy-exact", "accuracy-pos-iid", "accuracy-pos-iid-std", "accuracy-pos-orf",
        "accuracy-pos-simrf", "disagreement-pos-simrf", "mse-pos-iid"})
    ASSERT_NE(table.column(key), nullptr) << key;
  for (double a : table.column("accuracy-pos-iid")->values) {
    EXPECT_GT(a, 0.3);
    EXPECT_LE(a, 1.0);
  }
  // More features: a smaller kernel error.
  const auto& mse = table.column("mse-pos-iid")->values;
  EXPECT_LT(mse[1], mse[0]);
}

// Legends name what differs between the series, titles what they share (both experiments).
TEST(Classification, LegendNamesWhatDiffersAndTheTitleWhatIsShared) {
  const Table table =
      runWith(Classification(), {{"features", std::string("4")},
                                 {"couplings", std::vector<std::string>{"iid", "simrf"}},
                                 {"repeats", std::int64_t{2}}})
          .table;
  EXPECT_NE(table.hints.title.find(", PosRF ("), std::string::npos) << table.hints.title;
  std::vector<std::string> names;
  for (const auto& series : table.hints.series)
    names.push_back(series.label);
  EXPECT_EQ(names, (std::vector<std::string>{"exact kernel", "IID", "SimRF"}));
}

TEST(Classification, ConvergesToTheExactKernelClassifierAsFeaturesGrow) {
  // Fixed seeds, banknote at σ = 0.5: as M grows from 16 to 2048 the disagreement with the exact
  // classifier falls (0.15 → 0.02); the accuracy at M = 16 is below the exact one by more than its
  // standard error, and at M = 2048 within the band of its mean over the draws.
  const Table table = runWith(Classification(), {{"features", std::string("16,256,2048")},
                                                 {"features-unit", std::string("absolute")},
                                                 {"couplings", std::vector<std::string>{"iid"}},
                                                 {"repeats", std::int64_t{6}}})
                          .table;
  const auto& disagreement = table.column("disagreement-pos-iid")->values;
  const auto& mean = table.column("accuracy-pos-iid")->values;
  const auto& spread = table.column("accuracy-pos-iid-std")->values;
  const auto& mse = table.column("mse-pos-iid")->values;
  const double exact = table.column("accuracy-exact")->values[0];
  EXPECT_GT(exact, 0.7);
  EXPECT_GT(disagreement[0], 0.1);
  EXPECT_LT(disagreement[1], disagreement[0]);
  EXPECT_LT(disagreement[2], disagreement[1]);
  EXPECT_LT(disagreement[2], 0.06);
  EXPECT_LT(mse[2], mse[0] / 8);
  EXPECT_GT(exact - mean[0], spread[0] / std::sqrt(6.0));
  const double band = 4 * spread[2] / std::sqrt(6.0) + 1.0 / 138;  // ± one test point
  EXPECT_NEAR(mean[2], exact, band);
}

// SDERF and ADERF: matrices from the training set's second moments; their accuracy tends to the
// exact kernel classifier's as for the other positive features.
TEST(Classification, AcceptsTheDenseExponentialMechanisms) {
  const Table table =
      runWith(Classification(), {{"features", std::string("16,1024")},
                                 {"features-unit", std::string("absolute")},
                                 {"mechanisms", std::vector<std::string>{"sderf", "aderf"}},
                                 {"couplings", std::vector<std::string>{"iid", "orf"}},
                                 {"repeats", std::int64_t{4}}})
          .table;
  test::expectConsistentHints(table);
  for (const char* key : {"sderf-iid", "sderf-orf", "aderf-iid", "aderf-orf"}) {
    const std::string k = key;
    ASSERT_NE(table.column("accuracy-" + k), nullptr) << k;
    const auto& disagreement = table.column("disagreement-" + k)->values;
    const auto& mse = table.column("mse-" + k)->values;
    EXPECT_LT(mse[1], mse[0]) << k;
    EXPECT_LT(disagreement[1], 0.1) << k;
  }
}

TEST(Classification, SameNumbersForAnyThreadCount) {
  Table one, two;
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    one = runWith(Classification(), kSmall).table;
  }
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
    two = runWith(Classification(), kSmall).table;
  }
  test::expectSameTable(one, two);
}

TEST(Classification, StopsWhenCancelledWithCompleteRowsOnly) {
  const Classification experiment;
  test::TimedCancelContext context(0.2);
  const RunResult result =
      experiment.run(test::parametersWith(experiment, {{"repeats", std::int64_t{10000}}}), context);
  EXPECT_EQ(result.status, RunStatus::Cancelled);
  EXPECT_LT(context.stopDelay(), 0.3);
  for (const auto& column : result.table.columns)
    EXPECT_EQ(column.values.size(), result.table.rowCount());
}

// The first error of the parameters with `values` set.
ParameterError firstError(const test::Overrides& values) {
  ParameterSet params = ParameterSet::defaults(Classification().parameters());
  for (const auto& [key, value] : values)
    params.set(key, value);
  const auto errors = Classification().validate(params);
  EXPECT_FALSE(errors.empty());
  return errors.empty() ? ParameterError{} : errors.front();
}

TEST(Classification, BadInputNamesTheParameterAndTheProblem) {
  ScratchFolder folder;
  const auto file = [](const std::filesystem::path& path) -> test::Overrides {
    return {{"dataset", std::string("file")}, {"file", path.string()}};
  };
  EXPECT_EQ(firstError({{"dataset", std::string("mnist")}}).key, "dataset");
  ParameterError e = firstError(file(folder.path() / "missing.csv"));
  EXPECT_EQ(e.key, "file");
  EXPECT_NE(e.message.find("missing.csv"), std::string::npos) << e.message;

  test::Overrides noLabel = file(folder.write("a.csv", "x,y,kind\n1,2,a\n3,4,b\n"));
  noLabel.push_back({"label-column", std::string("species")});
  e = firstError(noLabel);
  EXPECT_EQ(e.key, "file");
  EXPECT_NE(e.message.find("species"), std::string::npos) << e.message;

  e = firstError(file(folder.write("one.csv", "1,2,a\n3,4,a\n5,6,a\n")));
  EXPECT_EQ(e.key, "file");
  EXPECT_NE(e.message.find("class"), std::string::npos) << e.message;

  e = firstError(file(folder.write("nan.csv", "1,2,a\nnan,4,b\n5,6,a\n")));
  EXPECT_EQ(e.key, "file");

  e = firstError({{"features", std::string("0,4")}});
  EXPECT_EQ(e.key, "features");
  EXPECT_NE(e.message.find("'0'"), std::string::npos) << e.message;
  EXPECT_EQ(firstError({{"sigma", std::string("wide")}}).key, "sigma");
  EXPECT_EQ(firstError({{"mechanisms", std::vector<std::string>{"pois-plus"}}}).key, "couplings");
}

TEST(Classification, ReadsTheUsersCsvFile) {
  ScratchFolder folder;
  std::string csv = "a,b,label\n";
  for (int i = 0; i < 40; ++i)
    csv += std::to_string(i % 2 ? 1.0 + 0.01 * i : -1.0 - 0.01 * i) + "," + std::to_string(i % 5) +
           "," + (i % 2 ? "odd" : "even") + "\n";
  const auto path = folder.write("points.csv", csv);
  const Table table = runWith(Classification(), {{"dataset", std::string("file")},
                                                 {"file", path.string()},
                                                 {"label-column", std::string("label")},
                                                 {"features", std::string("8")},
                                                 {"repeats", std::int64_t{2}}})
                          .table;
  ASSERT_EQ(table.rowCount(), 1u);
  EXPECT_EQ(table.column("features")->values[0], 16);  // d = 2
  EXPECT_EQ(table.column("accuracy-exact")->values[0], 1.0);
}

TEST(Classification, ReadsNpyArraysWithTheLabelLastOrInALabelsFile) {
  ScratchFolder folder;
  std::vector<double> withLabels, features, labels;
  for (int i = 0; i < 40; ++i) {
    const double x = i % 2 ? 1.0 + 0.01 * i : -1.0 - 0.01 * i, y = i % 5;
    withLabels.insert(withLabels.end(), {x, y, static_cast<double>(i % 2)});
    features.insert(features.end(), {x, y});
    labels.push_back(i % 2);
  }
  const auto combined = folder.write("points.npy", test::npyFloat64("(40, 3)", withLabels));
  const auto separate = folder.write("features.npy", test::npyFloat64("(40, 2)", features));
  const auto labelFile = folder.write("labels.npy", test::npyFloat64("(40,)", labels));
  const test::Overrides common{{"dataset", std::string("file")},
                               {"features", std::string("8")},
                               {"repeats", std::int64_t{2}}};
  test::Overrides one = common, two = common;
  one.push_back({"file", combined.string()});
  two.push_back({"file", separate.string()});
  two.push_back({"labels-file", labelFile.string()});
  const Table a = runWith(Classification(), one).table, b = runWith(Classification(), two).table;
  EXPECT_EQ(a.column("features")->values[0], 16);  // d = 2
  EXPECT_EQ(a.column("accuracy-exact")->values[0], 1.0);
  test::expectSameTable(a, b);

  const auto shortLabels =
      folder.write("short.npy", test::npyFloat64("(39,)", {labels.begin() + 1, labels.end()}));
  two.back() = {"labels-file", shortLabels.string()};
  const ParameterError e = firstError(two);
  EXPECT_EQ(e.key, "labels-file");
  EXPECT_NE(e.message.find("39 labels for 40 points"), std::string::npos) << e.message;
}

TEST(Classification, SearchesSigmaOnAValidationSplit) {
  const RunResult result =
      runWith(Classification(), {{"sigma", std::string("auto")},
                                 {"features", std::string("2")},
                                 {"couplings", std::vector<std::string>{"iid"}},
                                 {"repeats", std::int64_t{2}}});
  ASSERT_EQ(result.warnings.size(), 1u);
  EXPECT_NE(result.warnings[0].find("searched"), std::string::npos);
  EXPECT_NE(result.table.hints.title.find("searched"), std::string::npos);
}

}  // namespace
}  // namespace rfscope
