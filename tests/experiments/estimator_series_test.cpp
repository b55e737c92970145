// The one rule for keys, names, legend labels and colours of mechanism × coupling series.

#include "core/experiments/estimator_series.h"

#include <gtest/gtest.h>

#include "core/mechanisms/mechanism_registry.h"

namespace rfscope {
namespace {

TEST(EstimatorSeries, MechanismsOutermostWithTheirPositionsForSeeds) {
  const Mechanism* pos = findMechanism("pos");
  const Mechanism* oprf = findMechanism("oprf");
  const auto all = estimatorSeries({pos, oprf}, {Coupling::Iid, Coupling::Simplex});
  ASSERT_EQ(all.size(), 4u);
  std::vector<std::string> keys;
  for (const EstimatorSeries& s : all)
    keys.push_back(s.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"pos-iid", "pos-simrf", "oprf-iid", "oprf-simrf"}));
  EXPECT_EQ(all[2].mechanism, oprf);
  EXPECT_EQ(all[2].coupling, Coupling::Iid);
  EXPECT_EQ(all[2].mechanismIndex, 1u);
  EXPECT_EQ(all[2].couplingIndex, 0u);
  EXPECT_EQ(all[1].name, "PosRF, SimRF");
}

// Legends name what differs between the series; the colour follows what differs.
TEST(EstimatorSeries, LabelAndColourNameWhatDiffers) {
  const Mechanism* pos = findMechanism("pos");
  const Mechanism* oprf = findMechanism("oprf");
  const auto couplingsOnly = estimatorSeries({pos}, {Coupling::Iid, Coupling::Orthogonal});
  EXPECT_EQ(couplingsOnly[1].label, "ORF");
  EXPECT_EQ(couplingsOnly[1].colorKey, "orf");
  const auto mechanismsOnly = estimatorSeries({pos, oprf}, {Coupling::Iid});
  EXPECT_EQ(mechanismsOnly[1].label, "OPRF");
  EXPECT_EQ(mechanismsOnly[1].colorKey, "oprf");
  const auto both = estimatorSeries({pos, oprf}, {Coupling::Iid, Coupling::Simplex});
  EXPECT_EQ(both[1].label, "PosRF, SimRF");
  EXPECT_EQ(both[1].colorKey, "pos-simrf");
  // One series: the mechanism's colour, as every experiment that varies the mechanism uses.
  const auto one = estimatorSeries({oprf}, {Coupling::Orthogonal});
  EXPECT_EQ(one[0].label, "OPRF");
  EXPECT_EQ(one[0].colorKey, "oprf");
}

TEST(EstimatorSeries, TheTitleNamesWhatAllShare) {
  const Mechanism* pos = findMechanism("pos");
  const Mechanism* oprf = findMechanism("oprf");
  EXPECT_EQ(estimatorsInCommon({pos}, {Coupling::Iid}), "PosRF, IID");
  EXPECT_EQ(estimatorsInCommon({pos}, {Coupling::Iid, Coupling::Simplex}), "PosRF");
  EXPECT_EQ(estimatorsInCommon({pos, oprf}, {Coupling::Iid}), "IID");
  EXPECT_EQ(estimatorsInCommon({pos, oprf}, {Coupling::Iid, Coupling::Simplex}), "");
}

}  // namespace
}  // namespace rfscope
