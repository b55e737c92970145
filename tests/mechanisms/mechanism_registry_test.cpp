// The mechanism registry: ids, colours and traits in one place.

#include "core/mechanisms/mechanism_registry.h"

#include <gtest/gtest.h>

#include <set>

namespace rfscope {
namespace {

TEST(MechanismRegistry, IdsAndColoursAreUniqueAndFound) {
  std::set<std::string> ids;
  std::set<std::tuple<int, int, int>> colours;
  for (const Mechanism* mechanism : allMechanisms()) {
    const MechanismInfo& info = mechanism->info();
    EXPECT_TRUE(ids.insert(info.id).second) << info.id;
    const Rgb& c = info.colour;
    EXPECT_TRUE(colours.insert({c.red, c.green, c.blue}).second) << info.id;
    EXPECT_EQ(findMechanism(info.id), mechanism);
    EXPECT_FALSE(info.name.empty());
  }
  EXPECT_EQ(findMechanism("no-such-mechanism"), nullptr);
}

TEST(MechanismRegistry, EveryMechanismHasAnIidClosedFormAndATrialModel) {
  const Eigen::VectorXd x = Eigen::VectorXd::Constant(3, 0.2),
                        y = Eigen::VectorXd::Constant(3, -0.1);
  for (const Mechanism* mechanism : allMechanisms()) {
    EXPECT_TRUE(mechanism->hasClosedForm(Coupling::Iid)) << mechanism->info().id;
    const ParameterSet resolved = resolveParameters(*mechanism, PairInput(x, y), {});
    EXPECT_TRUE(mechanism->trialModel(Coupling::Iid, x, y, resolved)) << mechanism->info().id;
  }
}

}  // namespace
}  // namespace rfscope
