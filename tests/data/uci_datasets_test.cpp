#include "core/data/uci_datasets.h"

#include <gtest/gtest.h>

#include <set>

#include "core/data/data_error.h"

namespace rfscope {
namespace {

struct Expected {
  const char* id;
  Eigen::Index records, features, oneHotFeatures;
  int classes;
};

// Records: every record of the file (resources/uci/README.md); features as the papers use them,
// one-hot: one per category that occurs (chess's white king keeps to files a-d, ranks 1-4).
constexpr Expected kExpected[] = {
    {"abalone", 4177, 8, 10, 28}, {"banknote", 1372, 4, 4, 2}, {"car", 1728, 6, 21, 4},
    {"yeast", 1484, 8, 8, 10},    {"cmc", 1473, 9, 9, 3},      {"nursery", 12960, 8, 27, 5},
    {"wifi", 2000, 7, 7, 4},      {"chess", 28056, 6, 40, 18},
};

TEST(UciDatasets, EveryRecordFeatureAndClassOfTheEightFiles) {
  ASSERT_EQ(uciDatasets().size(), std::size(kExpected));
  for (const Expected& e : kExpected) {
    SCOPED_TRACE(e.id);
    const LabelledDataset data = loadUciDataset(e.id);
    EXPECT_EQ(data.name, e.id);
    EXPECT_EQ(data.size(), e.records);
    EXPECT_EQ(data.dimension(), e.features);
    EXPECT_EQ(data.classCount(), e.classes);
    EXPECT_EQ(static_cast<Eigen::Index>(data.featureNames.size()), e.features);
    const auto sizes = data.classSizes();
    EXPECT_TRUE(std::all_of(sizes.begin(), sizes.end(), [](Eigen::Index s) { return s > 0; }));
    const UciDatasetInfo* info = findUciDataset(e.id);
    ASSERT_NE(info, nullptr);
    EXPECT_EQ(info->records, e.records);
    EXPECT_EQ(info->classes, e.classes);
    const LabelledDataset oneHot = loadUciDataset(e.id, CategoricalEncoding::OneHot);
    EXPECT_EQ(oneHot.dimension(), e.oneHotFeatures);
    EXPECT_EQ(oneHot.labels, data.labels);
  }
}

TEST(UciDatasets, AbaloneFirstAndLastRecordsSexCodedRingsAsClasses) {
  const LabelledDataset data = loadUciDataset("abalone");
  // M,0.455,0.365,0.095,0.514,0.2245,0.101,0.15,15 (sex F, I, M → 0, 1, 2)
  Eigen::VectorXd first(8);
  first << 2, 0.455, 0.365, 0.095, 0.514, 0.2245, 0.101, 0.15;
  EXPECT_EQ(Eigen::VectorXd(data.features.row(0)), first);
  EXPECT_EQ(data.classNames[static_cast<std::size_t>(data.labels.front())], "15");
  // The last record, M,0.71,0.555,0.195,1.9485,0.9455,0.3765,0.495,12, which the papers' loader
  // dropped, is here.
  EXPECT_EQ(data.features(4176, 4), 1.9485);
  EXPECT_EQ(data.classNames[static_cast<std::size_t>(data.labels.back())], "12");
  EXPECT_EQ(data.featureNames.front(), "sex");
  // Rings 1..27 and 29, in numeric order; 1, 2, 25, 26 and 29 have one record each.
  EXPECT_EQ(data.classNames.front(), "1");
  EXPECT_EQ(data.classNames[9], "10");
  EXPECT_EQ(data.classNames.back(), "29");
  const auto sizes = data.classSizes();
  EXPECT_EQ(sizes[0], 1);
  EXPECT_EQ(sizes[27], 1);
  EXPECT_EQ(sizes[8], 689);  // 9 rings, the largest class
}

TEST(UciDatasets, AbaloneRegressionTargetIsRings) {
  const LabelledDataset data = loadAbaloneRegression();
  ASSERT_TRUE(data.target);
  EXPECT_EQ(data.target->size(), 4177);
  EXPECT_EQ((*data.target)(0), 15);
  EXPECT_EQ((*data.target)(4176), 12);
  EXPECT_EQ(data.target->minCoeff(), 1);
  EXPECT_EQ(data.target->maxCoeff(), 29);
  EXPECT_NEAR(data.target->mean(), 9.933684462532918, 1e-12);  // mean rings
}

TEST(UciDatasets, BanknoteKeepsItsLastRecordWithoutNewline) {
  const LabelledDataset data = loadUciDataset("banknote");
  Eigen::VectorXd first(4), last(4);
  first << 3.6216, 8.6661, -2.8073, -0.44699;
  last << -2.5419, -0.65804, 2.6842, 1.1952;
  EXPECT_EQ(Eigen::VectorXd(data.features.row(0)), first);
  EXPECT_EQ(Eigen::VectorXd(data.features.row(1371)), last);
  EXPECT_EQ(data.classNames, (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(data.classSizes(), (std::vector<Eigen::Index>{762, 610}));
}

TEST(UciDatasets, CarCodesCategoriesInSortedOrder) {
  const LabelledDataset data = loadUciDataset("car");
  // vhigh,vhigh,2,2,small,low,unacc: buying high/low/med/vhigh, doors 2/3/4/5more,
  // persons 2/4/more, lug_boot big/med/small, safety high/low/med.
  Eigen::VectorXd first(6);
  first << 3, 3, 0, 0, 2, 1;
  EXPECT_EQ(Eigen::VectorXd(data.features.row(0)), first);
  EXPECT_EQ(data.classNames, (std::vector<std::string>{"acc", "good", "unacc", "vgood"}));
  EXPECT_EQ(data.classSizes(), (std::vector<Eigen::Index>{384, 69, 1210, 65}));
  const LabelledDataset oneHot = loadUciDataset("car", CategoricalEncoding::OneHot);
  EXPECT_EQ(oneHot.featureNames[3], "buying=vhigh");
  EXPECT_EQ(oneHot.features.row(0).sum(), 6);  // one indicator per column
}

TEST(UciDatasets, ChessFilesAndRanksAndDepthOfWin) {
  const LabelledDataset data = loadUciDataset("chess");
  // a,1,b,3,c,2,draw: files a-h → 0-7, ranks 1-8 → 0-7.
  Eigen::VectorXd first(6);
  first << 0, 0, 1, 2, 2, 1;
  EXPECT_EQ(Eigen::VectorXd(data.features.row(0)), first);
  EXPECT_EQ(data.classNames[static_cast<std::size_t>(data.labels.front())], "draw");
  EXPECT_EQ(data.classNames[static_cast<std::size_t>(data.labels.back())], "sixteen");
  const auto sizes = data.classSizes();
  const auto draw = std::find(data.classNames.begin(), data.classNames.end(), "draw");
  EXPECT_EQ(sizes[static_cast<std::size_t>(draw - data.classNames.begin())], 2796);
}

TEST(UciDatasets, YeastDropsTheSequenceNameWifiReadsTabsNurseryIgnoresTheBlankLastLine) {
  const LabelledDataset yeast = loadUciDataset("yeast");
  EXPECT_EQ(yeast.featureNames.front(), "mcg");
  EXPECT_EQ(yeast.features(0, 0), 0.58);
  EXPECT_EQ(yeast.features(1483, 7), 0.22);
  EXPECT_EQ(yeast.classNames.front(), "CYT");
  EXPECT_EQ(yeast.classSizes().front(), 463);

  const LabelledDataset wifi = loadUciDataset("wifi");
  EXPECT_EQ(wifi.features(0, 0), -64);
  EXPECT_EQ(wifi.features(1999, 6), -87);
  EXPECT_EQ(wifi.classNames, (std::vector<std::string>{"1", "2", "3", "4"}));
  EXPECT_EQ(wifi.classSizes(), (std::vector<Eigen::Index>{500, 500, 500, 500}));

  const LabelledDataset nursery = loadUciDataset("nursery");
  EXPECT_EQ(nursery.classNames, (std::vector<std::string>{"not_recom", "priority", "recommend",
                                                          "spec_prior", "very_recom"}));
  EXPECT_EQ(nursery.classSizes(), (std::vector<Eigen::Index>{4320, 4266, 2, 4044, 328}));

  const LabelledDataset cmc = loadUciDataset("cmc");
  EXPECT_EQ(cmc.features(0, 0), 24);
  EXPECT_EQ(cmc.classSizes(), (std::vector<Eigen::Index>{629, 333, 511}));
}

TEST(UciDatasets, UnknownIdListsTheKnownOnes) {
  EXPECT_EQ(findUciDataset("iris"), nullptr);
  try {
    loadUciDataset("iris");
    FAIL();
  } catch (const DataError& e) {
    EXPECT_NE(
        std::string(e.what()).find("abalone, banknote, car, yeast, cmc, nursery, wifi, chess"),
        std::string::npos)
        << e.what();
    EXPECT_EQ(e.parameter(), "dataset");
  }
}

TEST(UciDatasets, AStrayTextCellInANumberColumnIsAnErrorNotACategory) {
  const UciDatasetInfo& banknote = *findUciDataset("banknote");
  try {
    parseUciDataset(banknote, "1,2,3,4,0\r\n1,2,x,4,1\r\n");
    FAIL();
  } catch (const DataError& e) {
    EXPECT_NE(
        std::string(e.what()).find("banknote, line 2, column 3 ('curtosis'): 'x' is not a number"),
        std::string::npos)
        << e.what();
  }
  EXPECT_THROW(parseUciDataset(banknote, "1,2,3,0\r\n1,2,3,1\r\n"), DataError);  // 4 columns
}

}  // namespace
}  // namespace rfscope
