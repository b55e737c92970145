#include "core/data/regime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "core/data/csv_regime.h"
#include "core/data/data_directory.h"
#include "core/data/data_error.h"
#include "core/data/idx_file.h"
#include "core/data/mnist_regime.h"
#include "core/experiments/variance_vs_sigma.h"
#include "scratch_folder.h"

namespace rfscope {
namespace {

// Expects the sample mean of `values` within 5 estimated standard errors of `expected`: bounds from
// the data themselves, which a correct sampler violates with probability below 1e-6.
void expectMeanNear(const std::vector<double>& values, double expected, const std::string& what) {
  const double n = static_cast<double>(values.size());
  double mean = 0, m2 = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double delta = values[i] - mean;
    mean += delta / static_cast<double>(i + 1);
    m2 += delta * (values[i] - mean);
  }
  const double standardError = std::sqrt(m2 / (n - 1) / n);
  EXPECT_NEAR(mean, expected, 5 * standardError + 1e-15) << what << " (n = " << n << ")";
}

struct Pairs {
  std::vector<Eigen::VectorXd> x, y;
};

Pairs draw(const Regime& regime, int d, int count, std::uint64_t seed,
           const ParameterSet& params = {}) {
  const auto sampler = regime.prepare(d, params);
  EXPECT_EQ(sampler->dimension(), d);
  Pairs pairs;
  pairs.x.resize(static_cast<std::size_t>(count));
  pairs.y.resize(static_cast<std::size_t>(count));
  for (int p = 0; p < count; ++p)
    sampler->sampleBasePair(seed, static_cast<std::uint64_t>(p),
                            pairs.x[static_cast<std::size_t>(p)],
                            pairs.y[static_cast<std::size_t>(p)]);
  return pairs;
}

// f applied to every coordinate of every vector.
std::vector<double> coordinates(const std::vector<Eigen::VectorXd>& vectors,
                                const std::function<double(double)>& f) {
  std::vector<double> values;
  for (const auto& v : vectors)
    for (double c : v)
      values.push_back(f(c));
  return values;
}

std::vector<double> perPair(
    const Pairs& pairs,
    const std::function<double(const Eigen::VectorXd&, const Eigen::VectorXd&)>& f) {
  std::vector<double> values;
  for (std::size_t p = 0; p < pairs.x.size(); ++p)
    values.push_back(f(pairs.x[p], pairs.y[p]));
  return values;
}

std::string dataErrorKey(const std::function<void()>& action, std::string* message = nullptr) {
  try {
    action();
  } catch (const DataError& e) {
    if (message) *message = e.what();
    return e.parameter().empty() ? "(no key)" : e.parameter();
  }
  return "";
}

const Regime& regime(const char* id) {
  const Regime* r = findRegime(id);
  EXPECT_NE(r, nullptr) << id;
  return *r;
}

TEST(Regimes, RegistryHoldsThePapersRegimesAndCsv) {
  std::vector<std::string> ids;
  for (const Regime* r : allRegimes()) {
    ids.push_back(r->info().id);
    EXPECT_FALSE(r->info().description.empty());
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"normal", "sphere", "heterogen", "mnist", "csv"}));
  EXPECT_EQ(findRegime("nope"), nullptr);
}

TEST(Regimes, NormalMomentsMatchTheStandardNormal) {
  const Pairs pairs = draw(regime("normal"), 16, 4000, 11);
  expectMeanNear(coordinates(pairs.x, [](double c) { return c; }), 0, "E x_l");
  expectMeanNear(coordinates(pairs.y, [](double c) { return c; }), 0, "E y_l");
  expectMeanNear(coordinates(pairs.x, [](double c) { return c * c; }), 1, "E x_l²");
  expectMeanNear(coordinates(pairs.y, [](double c) { return c * c; }), 1, "E y_l²");
  expectMeanNear(coordinates(pairs.x, [](double c) { return c * c * c * c; }), 3, "E x_l⁴");
  expectMeanNear(perPair(pairs, [](const auto& x, const auto& y) { return x.dot(y); }), 0,
                 "E xᵀy (independence)");
}

TEST(Regimes, SphereIsUniformOnTheUnitSphere) {
  const int d = 16;
  const Pairs pairs = draw(regime("sphere"), d, 4000, 12);
  for (std::size_t p = 0; p < pairs.x.size(); ++p) {
    EXPECT_NEAR(pairs.x[p].norm(), 1.0, 1e-14);
    EXPECT_NEAR(pairs.y[p].norm(), 1.0, 1e-14);
  }
  // Uniform on S^{d-1}: E x_l = 0, E x_l² = 1/d, E x_l⁴ = 3/(d(d+2)), E (xᵀy)² = 1/d.
  expectMeanNear(coordinates(pairs.x, [](double c) { return c; }), 0, "E x_l");
  expectMeanNear(coordinates(pairs.y, [](double c) { return c * c; }), 1.0 / d, "E y_l²");
  expectMeanNear(coordinates(pairs.x, [](double c) { return c * c * c * c; }),
                 3.0 / (d * (d + 2.0)), "E x_l⁴");
  expectMeanNear(perPair(pairs, [](const auto& x, const auto& y) { return x.dot(y); }), 0, "E xᵀy");
  expectMeanNear(perPair(pairs, [](const auto& x, const auto& y) { return std::pow(x.dot(y), 2); }),
                 1.0 / d, "E (xᵀy)²");
  // d = 1: the sphere is {-1, +1}.
  for (const auto& x : draw(regime("sphere"), 1, 50, 1).x)
    EXPECT_EQ(std::abs(x[0]), 1.0);
}

TEST(Regimes, HeterogenShiftsOnlyY) {
  const Pairs pairs = draw(regime("heterogen"), 16, 4000, 13);
  expectMeanNear(coordinates(pairs.x, [](double c) { return c; }), 0, "E x_l");
  expectMeanNear(coordinates(pairs.x, [](double c) { return c * c; }), 1, "E x_l²");
  expectMeanNear(coordinates(pairs.y, [](double c) { return c; }), 1, "E y_l");
  expectMeanNear(coordinates(pairs.y, [](double c) { return (c - 1) * (c - 1); }), 1, "Var y_l");
  expectMeanNear(
      perPair(pairs, [](const auto& x, const auto& y) { return x.sum() * (y.sum() - 16); }), 0,
      "Cov(Σx, Σy)");
}

// A csv file with rows r·(1, 10, 100) for r = 0..count-1, so a vector tells its row.
std::filesystem::path rowsFile(const ScratchFolder& folder, const std::string& name, int count,
                               double offset = 0) {
  std::string text = "# rows\n";
  for (int r = 0; r < count; ++r)
    text += std::to_string(r + offset) + ", " + std::to_string(10 * (r + offset)) + " " +
            std::to_string(100 * (r + offset)) + "\n";
  return folder.write(name, text);
}

ParameterSet csvParams(const std::filesystem::path& x, const std::filesystem::path& y = {}) {
  ParameterSet params;
  params.set(CsvRegime::kXFileKey, x.string());
  params.set(CsvRegime::kYFileKey, y.string());
  return params;
}

// Issue 12, item 11: rows of ±1e150 gave all-NaN closed forms (with a warning blaming "zero
// variance or no closed form") instead of being refused with the true reason.
TEST(Regimes, CsvRefusesEntriesThatWouldOverflowTheClosedForms) {
  const ScratchFolder folder;
  const auto file = folder.write("huge.csv", "1, 2\n3, -1e150\n5, 6\n");
  try {
    regime("csv").prepare(2, csvParams(file));
    FAIL() << "no error";
  } catch (const DataError& e) {
    EXPECT_EQ(e.parameter(), CsvRegime::kXFileKey);
    EXPECT_NE(std::string(e.what()).find("vector 2, value 2, is -1e+150, out of range"),
              std::string::npos)
        << e.what();
  }
  const auto y = folder.write("huge-y.csv", "1e61 0\n");
  try {
    regime("csv").prepare(2, csvParams(folder.write("ok.csv", "1 2\n3 4\n"), y));
    FAIL() << "no error";
  } catch (const DataError& e) {
    EXPECT_EQ(e.parameter(), CsvRegime::kYFileKey);
  }
  // Up to ±1e60 is fine.
  EXPECT_NO_THROW(
      regime("csv").prepare(2, csvParams(folder.write("edge.csv", "1e60 -1e60\n1 2\n"))));
}

TEST(Regimes, EveryRegimeIsDeterministicPerSeedAndPairIndex) {
  const ScratchFolder folder;
  const ParameterSet csv = csvParams(rowsFile(folder, "v.csv", 50));
  for (const Regime* r : allRegimes()) {
    SCOPED_TRACE(r->info().id);
    const int d = r->info().id == "csv" ? 3 : 16;
    const ParameterSet& params = r->info().id == "csv" ? csv : ParameterSet();
    const auto a = r->prepare(d, params), b = r->prepare(d, params);
    Eigen::VectorXd x1, y1, x2, y2, x3, y3;
    a->sampleBasePair(7, 1000, x1, y1);
    for (std::uint64_t p = 0; p < 20; ++p)
      b->sampleBasePair(7, p, x3, y3);  // other draws between
    b->sampleBasePair(7, 1000, x2, y2);
    EXPECT_EQ(x1, x2);
    EXPECT_EQ(y1, y2);
    EXPECT_NE(x1, y1);
    a->sampleBasePair(7, 1001, x3, y3);
    EXPECT_TRUE(x3 != x1 || y3 != y1);
    a->sampleBasePair(8, 1000, x3, y3);
    EXPECT_TRUE(x3 != x1 || y3 != y1);
    if (r->info().id != "csv") {  // the convenience form prepares with default parameters
      r->sampleBasePair(d, 7, 1000, x3, y3);
      EXPECT_EQ(x3, x1);
    }
  }
}

TEST(Regimes, PointSetsInterleaveTheXAndYOfPairs) {
  const auto sampler = regime("heterogen").prepare(5, {});
  const Eigen::MatrixXd points = samplePoints(*sampler, 9, 7);
  ASSERT_EQ(points.rows(), 5);
  ASSERT_EQ(points.cols(), 7);
  Eigen::VectorXd x, y;
  sampler->sampleBasePair(9, 3, x, y);
  EXPECT_EQ(points.col(6), x);
  sampler->sampleBasePair(9, 1, x, y);
  EXPECT_EQ(points.col(2), x);
  EXPECT_EQ(points.col(3), y);
}

TEST(Regimes, MnistDrawsDifferentRealImagesWithThePixelMeanOfTheDataset) {
  const IdxArray images = readIdxFile(findDataFile(MnistRegime::kShippedImages));
  double total = 0;
  for (std::size_t i = 0; i < images.size(); ++i)
    total += images.value(i);
  const double datasetMean = total / static_cast<double>(images.size()) / 255.0;

  const Pairs pairs = draw(regime("mnist"), 64, 3000, 14);
  for (std::size_t p = 0; p < pairs.x.size(); ++p) {
    EXPECT_GE(pairs.x[p].minCoeff(), 0.0);
    EXPECT_LE(pairs.x[p].maxCoeff(), 1.0);
    EXPECT_NE(pairs.x[p], pairs.y[p]);
  }
  // Area averaging keeps each image's mean, and images are drawn uniformly.
  expectMeanNear(perPair(pairs, [](const auto& x, const auto&) { return x.mean(); }), datasetMean,
                 "mean pixel of x");
  expectMeanNear(perPair(pairs, [](const auto&, const auto& y) { return y.mean(); }), datasetMean,
                 "mean pixel of y");
  // |x|² of 8×8 MNIST images is about 10 (CRT Fig. 2's mnist regime is far from normal's 64).
  const double meanNorm = [&] {
    double s = 0;
    for (const auto& x : pairs.x)
      s += x.squaredNorm() / static_cast<double>(pairs.x.size());
    return s;
  }();
  EXPECT_GT(meanNorm, 3);
  EXPECT_LT(meanNorm, 20);
}

TEST(Regimes, MnistAtFullSizeIsTheImageOverTwoFiftyFive) {
  const Pairs pairs = draw(regime("mnist"), 784, 5, 15);
  for (const auto& x : pairs.x)
    for (double v : x)
      EXPECT_NEAR(v * 255, std::round(v * 255), 1e-9);
  // d = 1: the image mean.
  const Pairs one = draw(regime("mnist"), 1, 5, 15);
  for (std::size_t p = 0; p < 5; ++p)
    EXPECT_NEAR(one.x[p][0], pairs.x[p].mean(), 1e-12);
}

TEST(Regimes, MnistResizingMethodsDifferButShareTheDrawnImages) {
  ParameterSet nearest;
  nearest.set(MnistRegime::kResizeKey, std::string("nearest"));
  const Pairs area = draw(regime("mnist"), 64, 50, 18),
              sharp = draw(regime("mnist"), 64, 50, 18, nearest);
  double areaNorm = 0, sharpNorm = 0;
  for (std::size_t p = 0; p < 50; ++p) {
    areaNorm += area.x[p].squaredNorm();
    sharpNorm += sharp.x[p].squaredNorm();
    for (double v : sharp.x[p])
      EXPECT_NEAR(v * 255, std::round(v * 255), 1e-9);  // plain pixels
  }
  EXPECT_GT(sharpNorm, 1.2 * areaNorm);  // blurring spreads the ink: smaller norms
  // At full size every method is the identity.
  nearest.set(MnistRegime::kResizeKey, std::string("bilinear"));
  EXPECT_EQ(draw(regime("mnist"), 784, 3, 2, nearest).x, draw(regime("mnist"), 784, 3, 2).x);
}

ParameterSet mnistParams(const std::filesystem::path& file) {
  ParameterSet params;
  params.set(MnistRegime::kImagesKey, file.string());
  return params;
}

// The label of each shipped image, keyed by its pixels (at d = 784, x·255 are the pixels).
std::map<std::string, int> shippedLabelsByPixels() {
  const auto imagesPath = findDataFile(MnistRegime::kShippedImages);
  const IdxArray images = readIdxFile(imagesPath);
  const IdxArray labels = readIdxFile(imagesPath.parent_path() / "mnist-10k-labels-idx1-ubyte.gz");
  const auto& pixels = std::get<std::vector<std::uint8_t>>(images.values);
  std::map<std::string, int> byPixels;
  for (std::size_t i = 0; i < labels.size(); ++i)
    byPixels[std::string(pixels.begin() + static_cast<long>(i * 784),
                         pixels.begin() + static_cast<long>((i + 1) * 784))] =
        static_cast<int>(labels.value(i));
  return byPixels;
}

int labelOf(const std::map<std::string, int>& byPixels, const Eigen::VectorXd& image) {
  std::string key;
  for (double v : image)
    key.push_back(static_cast<char>(static_cast<std::uint8_t>(std::lround(v * 255))));
  const auto it = byPixels.find(key);
  return it == byPixels.end() ? -1 : it->second;
}

TEST(Regimes, MnistPairsBySameOrDifferentDigit) {
  const auto byPixels = shippedLabelsByPixels();
  ParameterSet params;
  params.set(MnistRegime::kPairsKey, std::string("same-digit"));
  const Pairs same = draw(regime("mnist"), 784, 200, 19, params);
  params.set(MnistRegime::kPairsKey, std::string("different-digits"));
  const Pairs different = draw(regime("mnist"), 784, 200, 19, params);
  std::set<int> digits;
  for (std::size_t p = 0; p < 200; ++p) {
    const int a = labelOf(byPixels, same.x[p]), b = labelOf(byPixels, same.y[p]);
    ASSERT_GE(a, 0);
    EXPECT_EQ(a, b);
    EXPECT_NE(same.x[p], same.y[p]);
    digits.insert(a);
    EXPECT_NE(labelOf(byPixels, different.x[p]), labelOf(byPixels, different.y[p]));
  }
  EXPECT_EQ(digits.size(), 10u);
}

TEST(Regimes, MnistPairsByDigitNeedTheLabelsFile) {
  const ScratchFolder folder;
  std::vector<float> values(32, 0.5f);
  IdxArray images;
  images.dimensions = {2, 4, 4};
  images.values = values;
  const auto imagesPath = folder.path() / "mine-images-idx3-ubyte.gz";
  writeIdxFile(imagesPath, images, true);
  ParameterSet params = mnistParams(imagesPath);
  params.set(MnistRegime::kPairsKey, std::string("same-digit"));
  std::string message;
  EXPECT_EQ(dataErrorKey([&] { regime("mnist").prepare(4, params); }, &message), "mnist-pairs");
  EXPECT_NE(message.find("mine-labels-idx1-ubyte.gz"), std::string::npos) << message;

  IdxArray labels;
  labels.dimensions = {2};
  labels.values = std::vector<std::uint8_t>{3, 5};
  writeIdxFile(folder.path() / "mine-labels-idx1-ubyte.gz", labels, true);
  EXPECT_EQ(dataErrorKey([&] { regime("mnist").prepare(4, params); }, &message), "mnist-pairs");
  EXPECT_NE(message.find("no digit (label) has two images"), std::string::npos) << message;
  params.set(MnistRegime::kPairsKey, std::string("different-digits"));
  EXPECT_EQ(dataErrorKey([&] { regime("mnist").prepare(4, params); }), "");

  labels.dimensions = {3};
  labels.values = std::vector<std::uint8_t>{3, 5, 5};
  writeIdxFile(folder.path() / "mine-labels-idx1-ubyte.gz", labels, true);
  EXPECT_EQ(dataErrorKey([&] { regime("mnist").prepare(4, params); }, &message), "mnist-pairs");
  EXPECT_NE(message.find("3 labels for 2 images"), std::string::npos) << message;

  const auto oddName = folder.path() / "digits.idx";
  writeIdxFile(oddName, images, false);
  params.set(MnistRegime::kImagesKey, oddName.string());
  EXPECT_EQ(dataErrorKey([&] { regime("mnist").prepare(4, params); }, &message), "mnist-pairs");
  EXPECT_NE(message.find("no 'images' in it"), std::string::npos) << message;
}

TEST(Regimes, MnistNeedsASquareDimensionUpTo784) {
  const Regime& mnist = regime("mnist");
  for (int d : {1, 4, 64, 100, 784})
    EXPECT_EQ(mnist.dimensionError(d), "") << d;
  for (int d : {0, 2, 50, 63, 785, 900}) {
    EXPECT_NE(mnist.dimensionError(d), "") << d;
    EXPECT_EQ(dataErrorKey([&] { mnist.prepare(d, {}); }), "d") << d;
  }
}

IdxArray floatImages(std::vector<float> values, std::uint32_t count, std::uint32_t side) {
  IdxArray array;
  array.dimensions = {count, side, side};
  array.values = std::move(values);
  return array;
}

TEST(Regimes, MnistReadsAnyIdxImageFileAndRejectsUnfitOnes) {
  const ScratchFolder folder;
  const Regime& mnist = regime("mnist");
  // Two constant 4×4 float images: every 2×2 (d = 4) resize keeps the constant.
  std::vector<float> values(32, 0.25f);
  std::fill(values.begin() + 16, values.end(), 0.75f);
  const auto good = folder.path() / "two.idx";
  writeIdxFile(good, floatImages(values, 2, 4), false);
  Eigen::VectorXd x, y;
  mnist.prepare(4, mnistParams(good))->sampleBasePair(1, 0, x, y);
  EXPECT_EQ(x.size(), 4);
  EXPECT_EQ(x.sum() + y.sum(), 4.0);  // one of each
  EXPECT_EQ(x.maxCoeff(), x.minCoeff());

  std::string message;
  auto keyFor = [&](const std::filesystem::path& file, int d) {
    return dataErrorKey([&] { mnist.prepare(d, mnistParams(file)); }, &message);
  };
  EXPECT_EQ(keyFor(good, 25), "d");  // 5×5 from 4×4 images
  EXPECT_NE(message.find("too small"), std::string::npos) << message;

  EXPECT_EQ(keyFor(folder.path() / "missing.gz", 4), "mnist-images");
  EXPECT_NE(message.find("missing.gz"), std::string::npos) << message;

  const auto labels = folder.path() / "labels.idx";
  IdxArray labelArray;
  labelArray.dimensions = {3};
  labelArray.values = std::vector<std::uint8_t>{1, 2, 3};
  writeIdxFile(labels, labelArray, true);
  EXPECT_EQ(keyFor(labels, 4), "mnist-images");
  EXPECT_NE(message.find("3 dimensions"), std::string::npos) << message;

  const auto single = folder.path() / "single.idx";
  writeIdxFile(single, floatImages(std::vector<float>(16, 0.5f), 1, 4), false);
  EXPECT_EQ(keyFor(single, 4), "mnist-images");
  EXPECT_NE(message.find("1 image"), std::string::npos) << message;

  values[5] = 1.5f;
  const auto outside = folder.path() / "outside.idx";
  writeIdxFile(outside, floatImages(values, 2, 4), false);
  EXPECT_EQ(keyFor(outside, 4), "mnist-images");
  EXPECT_NE(message.find("outside [0, 1]"), std::string::npos) << message;

  IdxArray integers;
  integers.dimensions = {2, 2, 2};
  integers.values = std::vector<std::int32_t>(8, 1);
  const auto ints = folder.path() / "ints.idx";
  writeIdxFile(ints, integers, false);
  EXPECT_EQ(keyFor(ints, 4), "mnist-images");
  EXPECT_NE(message.find("32-bit integer"), std::string::npos) << message;

  const auto truncated = folder.write("truncated.idx", std::string("\0\0\x08\x03\0\0", 6));
  EXPECT_EQ(keyFor(truncated, 4), "mnist-images");
  EXPECT_NE(message.find("truncated"), std::string::npos) << message;
}

TEST(Regimes, CsvOneFileDrawsTwoDifferentUniformRows) {
  const ScratchFolder folder;
  const int rows = 5, pairCount = 5000;
  const Pairs pairs =
      draw(regime("csv"), 3, pairCount, 16, csvParams(rowsFile(folder, "v.csv", rows)));
  std::map<int, int> xCounts, yCounts;
  for (std::size_t p = 0; p < pairs.x.size(); ++p) {
    EXPECT_NE(pairs.x[p], pairs.y[p]);
    EXPECT_EQ(pairs.x[p][2], 100 * pairs.x[p][0]);  // a whole row
    ++xCounts[static_cast<int>(pairs.x[p][0])];
    ++yCounts[static_cast<int>(pairs.y[p][0])];
  }
  // Binomial counts: within 5 standard deviations of n/rows.
  const double expected = static_cast<double>(pairCount) / rows;
  const double sd = std::sqrt(pairCount * (1.0 / rows) * (1 - 1.0 / rows));
  for (int r = 0; r < rows; ++r) {
    EXPECT_NEAR(xCounts[r], expected, 5 * sd) << r;
    EXPECT_NEAR(yCounts[r], expected, 5 * sd) << r;
  }
}

TEST(Regimes, CsvTwoFilesDrawXFromTheFirstAndYFromTheSecond) {
  const ScratchFolder folder;
  const auto xs = rowsFile(folder, "x.csv", 3), ys = rowsFile(folder, "y.tsv", 1, 1000);
  const Pairs pairs = draw(regime("csv"), 3, 200, 17, csvParams(xs, ys));
  for (std::size_t p = 0; p < pairs.x.size(); ++p) {
    EXPECT_LT(pairs.x[p][0], 3);
    EXPECT_EQ(pairs.y[p], Eigen::Vector3d(1000, 10000, 100000));
  }
}

TEST(Regimes, CsvErrorsNameTheParameterAndTheProblem) {
  const ScratchFolder folder;
  const Regime& csv = regime("csv");
  std::string message;
  auto keyFor = [&](const ParameterSet& params, int d) {
    return dataErrorKey([&] { csv.prepare(d, params); }, &message);
  };
  EXPECT_EQ(keyFor(ParameterSet(), 3), "csv-x");
  EXPECT_NE(message.find("needs a file"), std::string::npos) << message;

  const auto file = rowsFile(folder, "v.csv", 4);
  EXPECT_EQ(keyFor(csvParams(file), 64), "d");
  EXPECT_NE(message.find("dimension 3, but d = 64"), std::string::npos) << message;

  EXPECT_EQ(keyFor(csvParams(rowsFile(folder, "one.csv", 1)), 3), "csv-x");
  EXPECT_NE(message.find("at least two"), std::string::npos) << message;
  EXPECT_EQ(keyFor(csvParams(rowsFile(folder, "one.csv", 1), file), 3), "");  // two files: fine

  const auto ragged = folder.write("ragged.csv", "1 2 3\n4 5\n");
  EXPECT_EQ(keyFor(csvParams(file, ragged), 3), "csv-y");
  EXPECT_NE(message.find("ragged.csv', line 2"), std::string::npos) << message;
  EXPECT_EQ(keyFor(csvParams(folder.path() / "missing.csv"), 3), "csv-x");
  EXPECT_NE(message.find("missing.csv"), std::string::npos) << message;
}

// The regimes inside an experiment: problems are validation errors on the right parameter, and
// the runs reproduce CRT §5.1's gains of OPRF over PosRF at σ = 1.
class RegimeInExperiment : public ::testing::Test {
 protected:
  ParameterSet params(const std::string& regimeId, std::int64_t d = 64) const {
    ParameterSet set = ParameterSet::defaults(experiment_.parameters());
    set.set("regime", regimeId);
    set.set("d", d);
    set.set("sigma-steps", std::int64_t{4});
    set.set("pairs", std::int64_t{40});
    return set;
  }
  std::string firstErrorKey(const ParameterSet& set, std::string* message = nullptr) const {
    const auto errors = experiment_.validate(set);
    if (errors.empty()) return "";
    if (message) *message = errors.front().message;
    return errors.front().key;
  }
  double gainAtSigmaOne(const ParameterSet& set) const {
    SilentRunContext context;
    const RunResult result = experiment_.run(set, context);
    EXPECT_EQ(result.status, RunStatus::Completed);
    return result.table.column("pos-mean")->values.back() -
           result.table.column("oprf-mean")->values.back();
  }
  VarianceVsSigma experiment_;
};

TEST_F(RegimeInExperiment, DeclaresTheRegimeFileParameters) {
  const auto specs = experiment_.parameters();
  for (const char* key :
       {"regime", "mnist-images", "mnist-resize", "mnist-pairs", "csv-x", "csv-y"}) {
    const ParameterSpec* spec = findSpec(specs, key);
    ASSERT_NE(spec, nullptr) << key;
    EXPECT_EQ(spec->group, "Data");
  }
  EXPECT_EQ(findSpec(specs, "csv-x")->type, ParameterType::Text);
  EXPECT_FALSE(findSpec(specs, "csv-x")->fileFilter.empty());
  for (const Regime* r : allRegimes())
    EXPECT_EQ(firstErrorKey(params(r->info().id)), r->info().id == "csv" ? "csv-x" : "");
}

TEST_F(RegimeInExperiment, BadDataIsAValidationErrorNotACrash) {
  const ScratchFolder folder;
  std::string message;
  EXPECT_EQ(firstErrorKey(params("mnist", 50), &message), "d");
  EXPECT_NE(message.find("parameter 'd'"), std::string::npos) << message;

  ParameterSet set = params("mnist");
  set.set("mnist-images", folder.write("junk.gz", "not an idx file").string());
  EXPECT_EQ(firstErrorKey(set, &message), "mnist-images");
  EXPECT_NE(message.find("junk.gz"), std::string::npos) << message;

  set = params("csv", 3);
  set.set("csv-x", folder.write("v.csv", "1 2 3\n4 x 6\n").string());
  EXPECT_EQ(firstErrorKey(set, &message), "csv-x");
  EXPECT_NE(message.find("line 2"), std::string::npos) << message;
  set.set("csv-x", rowsFile(folder, "good.csv", 10).string());
  EXPECT_EQ(firstErrorKey(set), "");
  set.set("d", std::int64_t{4});
  EXPECT_EQ(firstErrorKey(set), "d");
}

TEST_F(RegimeInExperiment, ReproducesTheOprfGainsOfCrtSection51) {
  // CRT §5.1 at σ = 1, d = 64: "OPRF and GeomRF+ give more than e^75, e^125, e^7 times variance
  // reduction compared to PosRF in normal, heterogen and mnist".
  EXPECT_GT(gainAtSigmaOne(params("normal")), 75);
  EXPECT_GT(gainAtSigmaOne(params("heterogen")), 125);
  EXPECT_GT(gainAtSigmaOne(params("sphere")), 0);
  // With area averaging the 8×8 digits are blurred (mean |x|² ≈ 4.7) and OPRF gains e^4.1 (10,000
  // pairs); sharper nearest-pixel resizing (mean |x|² ≈ 7.3) gives e^6.8, near the paper's e^7. The
  // gain depends only on |x + y|² at fixed d.
  const double mnist = gainAtSigmaOne(params("mnist"));
  EXPECT_GT(mnist, 3.5);
  EXPECT_LT(mnist, 5.0);
  ParameterSet nearest = params("mnist");
  nearest.set("mnist-resize", std::string("nearest"));
  nearest.set("pairs", std::int64_t{300});
  EXPECT_GT(gainAtSigmaOne(nearest), 5.5);
  // GeomRF+ does gain more than e^7 over PosRF on these digits.
  ParameterSet set = params("mnist");
  set.set("mechanisms", std::vector<std::string>{"pos", "geom-plus"});
  SilentRunContext context;
  const Table table = experiment_.run(set, context).table;
  EXPECT_GT(table.column("pos-mean")->values.back() - table.column("geom-plus-mean")->values.back(),
            7);
}

TEST_F(RegimeInExperiment, CsvRunsUseTheFileRowsScaledBySigma) {
  const ScratchFolder folder;
  ParameterSet set = params("csv", 3);
  set.set("csv-x", rowsFile(folder, "v.csv", 6).string());
  ASSERT_EQ(firstErrorKey(set), "");
  SilentRunContext context;
  const RunResult result = experiment_.run(set, context);
  EXPECT_EQ(result.table.rowCount(), 4u);
  for (double v : result.table.column("trig-mean")->values)
    EXPECT_TRUE(std::isfinite(v));
}

}  // namespace
}  // namespace rfscope
