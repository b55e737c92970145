// The coupling registry and its parser: every id round-trips, an unknown id is an error that names
// the parameter, and the choice list offers every coupling.

#include "core/couplings/coupling.h"

#include <gtest/gtest.h>

#include <set>

#include "core/params/invalid_parameter.h"

namespace rfscope {
namespace {

TEST(Coupling, EveryIdRoundTripsThroughTheParser) {
  std::set<std::string> ids;
  for (const CouplingInfo& info : allCouplings()) {
    EXPECT_EQ(parseCoupling(info.id), info.coupling);
    EXPECT_EQ(couplingId(info.coupling), info.id);
    EXPECT_EQ(&couplingInfo(info.coupling), &info);
    ids.insert(info.id);
  }
  EXPECT_EQ(ids, (std::set<std::string>{"iid", "orf", "simrf", "simrf-plus", "orf-fast",
                                        "simrf-fast", "qmc-sobol", "qmc-halton", "qmc-sobol-owen",
                                        "orf-fixed-norm", "orf-norm-coupled"}));
}

TEST(Coupling, AnUnknownIdIsAnErrorNamingTheParameter) {
  EXPECT_EQ(findCoupling("fancy"), nullptr);
  try {
    parseCoupling("fancy", "couplings");
    FAIL() << "no exception";
  } catch (const InvalidParameter& e) {
    EXPECT_EQ(e.parameter(), "couplings");
    EXPECT_EQ(std::string(e.what()), "unknown coupling 'fancy'");
  }
  EXPECT_THROW(parseCoupling(""), InvalidParameter);
  EXPECT_THROW(parseCoupling("IID"), InvalidParameter);  // ids are exact
}

TEST(Coupling, ChoicesListEveryCouplingInOrder) {
  const auto choices = couplingChoices();
  ASSERT_EQ(choices.size(), allCouplings().size());
  for (std::size_t i = 0; i < choices.size(); ++i) {
    EXPECT_EQ(choices[i].id, allCouplings()[i].id);
    EXPECT_EQ(choices[i].label, allCouplings()[i].name);
  }
}

TEST(Coupling, BlockKindsAndStructuredDimensions) {
  EXPECT_TRUE(isOrthogonalBlock(Coupling::Orthogonal));
  EXPECT_TRUE(isOrthogonalBlock(Coupling::OrthogonalFast));
  EXPECT_TRUE(isOrthogonalBlock(Coupling::OrthogonalFixedNorm));
  EXPECT_TRUE(isOrthogonalBlock(Coupling::OrthogonalNormCoupled));
  EXPECT_FALSE(isStructured(Coupling::OrthogonalNormCoupled));
  EXPECT_EQ(frequencyDimension(Coupling::OrthogonalNormCoupled, 6), 6);
  EXPECT_FALSE(isOrthogonalBlock(Coupling::Iid));
  EXPECT_TRUE(hasFixedNorms(Coupling::OrthogonalFixedNorm));
  EXPECT_FALSE(hasFixedNorms(Coupling::Orthogonal));
  EXPECT_EQ(parseCoupling("orf-fixed-norm"), Coupling::OrthogonalFixedNorm);
  EXPECT_EQ(frequencyDimension(Coupling::OrthogonalFixedNorm, 6), 6);
  for (Coupling c : {Coupling::Simplex, Coupling::SimplexPlus, Coupling::SimplexFast})
    EXPECT_TRUE(isSimplexBlock(c));
  EXPECT_EQ(frequencyDimension(Coupling::Orthogonal, 6), 6);
  EXPECT_EQ(frequencyDimension(Coupling::OrthogonalFast, 6), 8);
  EXPECT_EQ(frequencyDimension(Coupling::SimplexFast, 64), 64);
  EXPECT_EQ(frequencyDimension(Coupling::SimplexFast, 65), 128);
}

}  // namespace
}  // namespace rfscope

namespace rfscope {
namespace {

TEST(Coupling, QuasiMonteCarloKinds) {
  for (Coupling c : {Coupling::QmcSobol, Coupling::QmcHalton, Coupling::QmcSobolOwen}) {
    EXPECT_TRUE(isQuasiMonteCarlo(c));
    EXPECT_FALSE(isOrthogonalBlock(c) || isSimplexBlock(c) || isStructured(c));
    EXPECT_EQ(frequencyDimension(c, 6), 6);
  }
  EXPECT_FALSE(isQuasiMonteCarlo(Coupling::Iid));
  EXPECT_EQ(maxCouplingDimension(Coupling::QmcSobol), kMaxSobolDimension);
  EXPECT_EQ(maxCouplingDimension(Coupling::QmcSobolOwen), kMaxSobolDimension);
  EXPECT_TRUE(usesSobolPoints(Coupling::QmcSobolOwen));
  EXPECT_FALSE(usesSobolPoints(Coupling::QmcHalton));
  EXPECT_EQ(parseCoupling("qmc-sobol-owen"), Coupling::QmcSobolOwen);
}

}  // namespace
}  // namespace rfscope
