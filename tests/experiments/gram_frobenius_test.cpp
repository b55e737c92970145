#include "core/experiments/gram_frobenius.h"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cmath>

#include "experiment_test_support.h"

namespace rfscope {
namespace {

using test::runWith;

const test::Overrides kSmallGram{{"d", std::int64_t{16}},
                                 {"points", std::int64_t{24}},
                                 {"features-min", std::int64_t{16}},
                                 {"features-max", std::int64_t{64}},
                                 {"features-steps", std::int64_t{4}},
                                 {"repetitions", std::int64_t{200}}};

TEST(GramFrobenius, SimplexBeatsOrthogonalBeatsIidAndMoreFeaturesHelp) {
  const RunResult result = runWith(GramFrobenius(), kSmallGram);
  ASSERT_EQ(result.status, RunStatus::Completed);
  const Table& table = result.table;
  test::expectConsistentHints(table);
  ASSERT_EQ(table.rowCount(), 4u);
  const auto& iid = table.column("iid-mean")->values;
  const auto& orf = table.column("orf-mean")->values;
  const auto& simrf = table.column("simrf-mean")->values;
  for (std::size_t i = 0; i < iid.size(); ++i) {
    EXPECT_LT(orf[i], iid[i]) << i;
    EXPECT_LT(simrf[i], orf[i]) << i;
    if (i > 0) {
      EXPECT_LT(iid[i], iid[i - 1]) << i;
    }
  }
}

TEST(GramFrobenius, IidErrorMatchesTheSumOfEntryVariances) {
  // E Σ (K - K̂)² = Σ_ij Var K̂_ij = Σ_ij Var₁ / M for i.i.d. features: M times the mean error
  // is the same for every M up to sampling noise.
  const Table table = runWith(GramFrobenius(), kSmallGram).table;
  const auto& m = table.column("features")->values;
  const auto& iid = table.column("iid-mean")->values;
  const auto& low = table.column("iid-low")->values;
  const auto& high = table.column("iid-high")->values;
  for (std::size_t i = 1; i < m.size(); ++i) {
    const double ratio = (iid[i] * m[i]) / (iid[0] * m[0]);
    const double spread = (high[i] - low[i]) / iid[i] + (high[0] - low[0]) / iid[0];
    EXPECT_NEAR(ratio, 1.0, 2 * spread) << m[i];
  }
}

TEST(GramFrobenius, EveryPositiveMechanismThroughItsFeatureMap) {
  // All the mechanisms with positive features at once: a series per (mechanism, coupling), the
  // first mechanism's numbers the same as when it runs alone, and the error falling with M.
  test::Overrides values = kSmallGram;
  values.push_back({"repetitions", std::int64_t{40}});
  values.push_back({"couplings", std::vector<std::string>{"iid"}});
  std::vector<std::string> positive;
  const auto specs = GramFrobenius().parameters();
  for (const auto& choice : findSpec(specs, "mechanisms")->choices)
    positive.push_back(choice.id);
  ASSERT_GE(positive.size(), 5u);  // pos, pos-hyp, oprf, pois-plus, geom-plus
  values.push_back({"mechanisms", positive});
  const Table all = runWith(GramFrobenius(), values).table;
  test::expectConsistentHints(all);
  for (const auto& id : positive) {
    const auto& mean = all.column(id + "-iid-mean")->values;
    ASSERT_EQ(mean.size(), 4u) << id;
    EXPECT_TRUE(std::isfinite(mean.front())) << id;
    EXPECT_LT(mean.back(), mean.front()) << id;
  }
  values.back() = {"mechanisms", std::vector<std::string>{positive.front()}};
  const Table alone = runWith(GramFrobenius(), values).table;
  EXPECT_EQ(alone.column("iid-mean")->values, all.column(positive.front() + "-iid-mean")->values);
}

TEST(GramFrobenius, RejectsCouplingsAMechanismHasNoFeatureMapFor) {
  ParameterSet params = ParameterSet::defaults(GramFrobenius().parameters());
  params.set("mechanisms", std::vector<std::string>{"pois-plus"});
  params.set("couplings", std::vector<std::string>{"iid", "orf"});
  const auto errors = GramFrobenius().validate(params);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].key, "couplings");
  EXPECT_NE(errors[0].message.find("i.i.d. only"), std::string::npos) << errors[0].message;
}

}  // namespace
}  // namespace rfscope
