#include "core/experiments/variance_vs_sigma.h"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <atomic>
#include <cmath>

#include "core/analytic/analytic_variance.h"
#include "core/data/regime.h"
#include "core/mechanisms/data_driven_parameters.h"
#include "core/mechanisms/mechanism_registry.h"

namespace rfscope {
namespace {

ParameterSet params(std::int64_t steps, std::int64_t pairs, std::int64_t d = 64) {
  const VarianceVsSigma experiment;
  ParameterSet set = ParameterSet::defaults(experiment.parameters());
  set.set("sigma-steps", steps);
  set.set("pairs", pairs);
  set.set("d", d);
  return set;
}

TEST(VarianceVsSigma, TableHasOneRowPerSigmaAndFourColumnsPerMechanism) {
  const VarianceVsSigma experiment;
  const ParameterSet set = params(7, 5);
  ASSERT_TRUE(experiment.validate(set).empty());
  SilentRunContext context;
  const RunResult result = experiment.run(set, context);
  EXPECT_EQ(result.status, RunStatus::Completed);
  const Table& table = result.table;
  EXPECT_EQ(table.rowCount(), 7u);
  EXPECT_EQ(table.columns.size(), 1u + 4u * 3u);
  ASSERT_EQ(table.hints.series.size(), 3u);
  for (const auto& series : table.hints.series) {
    EXPECT_NE(table.column(series.yColumn), nullptr);
    EXPECT_NE(table.column(series.lowColumn), nullptr);
    EXPECT_NE(table.column(series.highColumn), nullptr);
  }
  EXPECT_DOUBLE_EQ(table.column("sigma")->values.front(), 0.1);
  EXPECT_DOUBLE_EQ(table.column("sigma")->values.back(), 1.0);
}

TEST(VarianceVsSigma, MeanAndStdAreOverTheRegimePairsScaledBySigma) {
  const VarianceVsSigma experiment;
  const std::int64_t pairs = 4, d = 8;
  const ParameterSet set = params(3, pairs, d);
  SilentRunContext context;
  const Table table = experiment.run(set, context).table;
  const Regime& regime = *findRegime("normal");
  for (std::size_t row = 0; row < 3; ++row) {
    const double sigma = table.column("sigma")->values[row];
    for (const char* id : {"trig", "pos"}) {  // parameter-free (see the next test for the others)
      std::vector<double> logs;
      for (std::int64_t p = 0; p < pairs; ++p) {
        Eigen::VectorXd x, y;
        regime.sampleBasePair(d, set.integer("seed"), static_cast<std::uint64_t>(p), x, y);
        EstimatorSpec request;
        request.mechanism = findMechanism(id);
        logs.push_back(evaluateAnalytic(request, sigma * x, sigma * y).variance->logVariance);
      }
      double mean = 0;
      for (double v : logs)
        mean += v / pairs;
      double ss = 0;
      for (double v : logs)
        ss += (v - mean) * (v - mean);
      const double sd = std::sqrt(ss / (pairs - 1));
      const std::string key(id);
      EXPECT_NEAR(table.column(key + "-mean")->values[row], mean, 1e-12 * (1 + std::abs(mean)));
      EXPECT_NEAR(table.column(key + "-std")->values[row], sd, 1e-10 * (1 + sd));
      EXPECT_DOUBLE_EQ(
          table.column(key + "-low")->values[row],
          table.column(key + "-mean")->values[row] - table.column(key + "-std")->values[row]);
    }
  }
}

TEST(VarianceVsSigma, OptimisedParametersAreChosenOncePerSigmaFromAllPairs) {
  // CRT §3 (eqs. 8, 12, 14): GERF's A and s, OPRF's A*, λ* and p* come from the statistics of the
  // pairs at that σ and are shared by every pair.
  const VarianceVsSigma experiment;
  const std::int64_t pairs = 5, d = 8;
  ParameterSet set = params(3, pairs, d);
  const std::vector<std::string> ids{"gerf", "oprf", "pois", "geom", "pois-plus", "geom-plus"};
  set.set("mechanisms", ids);
  SilentRunContext context;
  const Table table = experiment.run(set, context).table;
  const Regime& regime = *findRegime("normal");
  std::vector<Eigen::VectorXd> xs(pairs), ys(pairs);
  for (std::int64_t p = 0; p < pairs; ++p)
    regime.sampleBasePair(d, set.integer("seed"), static_cast<std::uint64_t>(p), xs[p], ys[p]);
  std::vector<const Mechanism*> mechanisms;
  for (const auto& id : ids)
    mechanisms.push_back(findMechanism(id));
  const ScalableStatistics statistics(xs, ys);
  for (std::size_t row = 0; row < 3; ++row) {
    const double sigma = table.column("sigma")->values[row];
    const std::vector<ParameterSet> chosen = dataDrivenParameters(mechanisms, statistics, sigma);
    for (std::size_t m = 0; m < ids.size(); ++m) {
      EstimatorSpec request;
      request.mechanism = mechanisms[m];
      request.parameters = chosen[m];
      double mean = 0;
      for (std::int64_t p = 0; p < pairs; ++p)
        mean +=
            evaluateAnalytic(request, sigma * xs[p], sigma * ys[p]).variance->logVariance / pairs;
      EXPECT_NEAR(table.column(ids[m] + "-mean")->values[row], mean, 1e-10 * (1 + std::abs(mean)))
          << ids[m] << " at σ = " << sigma;
    }
  }
}

TEST(VarianceVsSigma, OprfNeverExceedsPosRf) {
  // OPRF's A* minimises the GERF variance over real A at the averaged |x + y|², and A = 0 is
  // PosRF: on average over the pairs, OPRF stays below PosRF.
  const VarianceVsSigma experiment;
  SilentRunContext context;
  const Table table = experiment.run(params(20, 50), context).table;
  for (std::size_t row = 0; row < table.rowCount(); ++row)
    EXPECT_LE(table.column("oprf-mean")->values[row], table.column("pos-mean")->values[row]);
  // And the gap at σ = 1, d = 64 is large (CRT §5.1 reports > e^75).
  EXPECT_GT(table.column("pos-mean")->values.back() - table.column("oprf-mean")->values.back(), 60);
}

TEST(VarianceVsSigma, SameSeedSameNumbersForAnyThreadCount) {
  const VarianceVsSigma experiment;
  const ParameterSet set = params(40, 30);
  auto runWith = [&](std::size_t threads) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    SilentRunContext context;
    return experiment.run(set, context).table;
  };
  const Table one = runWith(1), many = runWith(4);
  ASSERT_EQ(one.columns.size(), many.columns.size());
  for (std::size_t c = 0; c < one.columns.size(); ++c)
    EXPECT_EQ(one.columns[c].values, many.columns[c].values) << one.columns[c].key;
}

TEST(VarianceVsSigma, DifferentSeedsDrawDifferentPairs) {
  const VarianceVsSigma experiment;
  ParameterSet a = params(3, 10), b = a;
  b.set("seed", std::int64_t{2});
  SilentRunContext context;
  EXPECT_NE(experiment.run(a, context).table.column("pos-mean")->values,
            experiment.run(b, context).table.column("pos-mean")->values);
}

class RecordingContext final : public RunContext {
 public:
  explicit RecordingContext(int cancelAfterPartials) : cancelAfter_(cancelAfterPartials) {}
  bool cancelled() const override { return partials_.load() >= cancelAfter_; }
  void reportProgress(double fraction) override {
    EXPECT_GE(fraction, lastProgress_);
    lastProgress_ = fraction;
  }
  void publishPartial(const Table& partial) override {
    EXPECT_GT(partial.rowCount(), lastRows_);
    lastRows_ = partial.rowCount();
    ++partials_;
  }
  int partials() const { return partials_.load(); }
  double lastProgress() const { return lastProgress_; }

 private:
  int cancelAfter_;
  std::atomic<int> partials_{0};
  double lastProgress_ = 0;
  std::size_t lastRows_ = 0;
};

TEST(VarianceVsSigma, StreamsGrowingPartialTablesAndReachesFullProgress) {
  const VarianceVsSigma experiment;
  RecordingContext context(1 << 30);
  const RunResult result = experiment.run(params(100, 5), context);
  EXPECT_EQ(result.status, RunStatus::Completed);
  EXPECT_GE(context.partials(), 10);
  EXPECT_DOUBLE_EQ(context.lastProgress(), 1.0);
}

TEST(VarianceVsSigma, CancellationStopsEarlyWithTheRowsDoneSoFar) {
  const VarianceVsSigma experiment;
  RecordingContext context(2);
  const RunResult result = experiment.run(params(100, 5), context);
  EXPECT_EQ(result.status, RunStatus::Cancelled);
  EXPECT_LT(result.table.rowCount(), 100u);
  EXPECT_GT(result.table.rowCount(), 0u);
}

TEST(VarianceVsSigma, RejectsAnEmptySigmaRange) {
  const VarianceVsSigma experiment;
  ParameterSet set = params(5, 5);
  set.set("sigma-min", 2.0);
  set.set("sigma-max", 1.0);
  const auto errors = experiment.validate(set);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].key, "sigma-max");
}

}  // namespace
}  // namespace rfscope
