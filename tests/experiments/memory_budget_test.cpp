// The memory budget (core/experiments/memory_budget.h): runs whose estimate exceeds it are refused
// before they start, naming the estimate, the budget and the parameter to lower — the campaign's
// runs that passed 4 GB (attention-error at L = 4096 with M = 10^5, gram-frobenius at 2000
// points, classification on chess and classification-table at M = 10^5) — while the defaults and
// small runs pass under a small budget.

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "core/experiments/experiment_registry.h"
#include "core/experiments/memory_budget.h"

namespace rfscope {
namespace {

// RFSCOPE_MEMORY_BUDGET for the lifetime of the guard.
class BudgetGuard {
 public:
  explicit BudgetGuard(const char* value) { setenv("RFSCOPE_MEMORY_BUDGET", value, 1); }
  ~BudgetGuard() { unsetenv("RFSCOPE_MEMORY_BUDGET"); }
};

TEST(MemoryBudget, SizesAreWrittenInBinaryUnits) {
  EXPECT_EQ(memorySizeText(512), "512 bytes");
  EXPECT_EQ(memorySizeText(1536), "1.50 KiB");
  EXPECT_EQ(memorySizeText(640.0 * (1 << 20)), "640 MiB");
  EXPECT_EQ(memorySizeText(12.5 * (1 << 30)), "12.5 GiB");
  EXPECT_EQ(wholeNumberText(1e5), "100000");
}

TEST(MemoryBudget, TheEnvironmentSetsItAndABadValueIsReported) {
  {
    const BudgetGuard guard("512MiB");
    EXPECT_EQ(memoryBudget().bytes, 512.0 * (1 << 20));
    EXPECT_EQ(memoryBudget().source, "set by RFSCOPE_MEMORY_BUDGET");
  }
  {
    const BudgetGuard guard("2 GiB");
    EXPECT_EQ(memoryBudget().bytes, 2.0 * (1 << 30));
  }
  {
    const BudgetGuard guard("1e9");
    EXPECT_EQ(memoryBudget().bytes, 1e9);
  }
  const double machine = memoryBudget().bytes;
  EXPECT_GT(machine, 0);
  EXPECT_EQ(memoryBudget().source, "3/4 of this machine's memory; RFSCOPE_MEMORY_BUDGET sets it");
  for (const char* bad : {"lots", "-1GiB", "0", "5 GB"}) {
    const BudgetGuard guard(bad);
    std::string problem;
    EXPECT_EQ(memoryBudget(&problem).bytes, machine) << bad;
    EXPECT_NE(problem.find("is not a size"), std::string::npos) << bad << ": " << problem;
  }
}

struct Case {
  const char* experiment;
  std::vector<std::pair<std::string, ParameterValue>> values;
  const char* parameter;
};

ParameterSet withValues(const Experiment& experiment, const Case& c) {
  ParameterSet params = ParameterSet::defaults(experiment.parameters());
  for (const auto& [key, value] : c.values)
    params.set(key, value);
  return params;
}

TEST(MemoryBudget, RunsAboveItAreRefusedBeforeTheyStartNamingEstimateAndBudget) {
  const std::vector<Case> cases = {
      {"attention-error",
       {{"sequence-length", std::int64_t{4096}}, {"features-max", std::int64_t{100000}}},
       "features-max"},
      {"attention-features-needed",
       {{"sequence-length", std::int64_t{4096}}, {"features-max", std::int64_t{100000}}},
       "features-max"},
      {"gram-frobenius",
       {{"points", std::int64_t{2000}}, {"features-max", std::int64_t{100000}}},
       "features-max"},
      {"classification",
       {{"dataset", std::string("chess")},
        {"features", std::string("100000")},
        {"features-unit", std::string("absolute")}},
       "features"},
      {"classification-table",
       {{"features", std::int64_t{100000}}, {"features-unit", std::string("absolute")}},
       "features"}};
  const BudgetGuard guard("4GiB");
  for (const Case& c : cases) {
    const Experiment& experiment = *findExperiment(c.experiment);
    const ParameterSet params = withValues(experiment, c);
    const auto estimate = experiment.memoryEstimate(params);
    ASSERT_TRUE(estimate) << c.experiment;
    EXPECT_GT(estimate->bytes, 4.0 * (1u << 30)) << c.experiment;
    const auto errors = experiment.validate(params);
    ASSERT_EQ(errors.size(), 1u) << c.experiment;
    EXPECT_EQ(errors[0].key, c.parameter) << c.experiment;
    const std::string& message = errors[0].message;
    EXPECT_NE(message.find("needs about " + memorySizeText(estimate->bytes)), std::string::npos)
        << message;
    EXPECT_NE(message.find("memory budget of 4.00 GiB (set by RFSCOPE_MEMORY_BUDGET): lower '" +
                           std::string(c.parameter) + "'"),
              std::string::npos)
        << message;
    // The defaults of every one of them fit in far less.
    const ParameterSet defaults = ParameterSet::defaults(experiment.parameters());
    const auto small = experiment.memoryEstimate(defaults);
    ASSERT_TRUE(small) << c.experiment;
    EXPECT_LT(small->bytes, 256.0 * (1 << 20)) << c.experiment << ": " << small->breakdown;
    EXPECT_TRUE(experiment.validate(defaults).empty()) << c.experiment;
  }
}

TEST(MemoryBudget, TheEstimateGrowsWithRowsAndFeatures) {
  const Experiment& attention = *findExperiment("attention-error");
  const auto estimateAt = [&](std::int64_t length, std::int64_t features) {
    ParameterSet params = ParameterSet::defaults(attention.parameters());
    params.set("sequence-length", length);
    params.set("features-max", features);
    return attention.memoryEstimate(params)->bytes;
  };
  EXPECT_DOUBLE_EQ(estimateAt(2048, 1000), 2 * estimateAt(1024, 1000));
  EXPECT_DOUBLE_EQ(estimateAt(1024, 2000), 2 * estimateAt(1024, 1000));
}

}  // namespace
}  // namespace rfscope
