#include "core/experiments/attention_dataset_rows.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <vector>

#include "core/data/data_directory.h"
#include "core/data/data_error.h"
#include "core/data/dataset_cache.h"
#include "core/data/feature_standardizer.h"
#include "core/data/idx_file.h"
#include "core/data/mnist_regime.h"
#include "core/data/regime.h"
#include "core/data/uci_datasets.h"
#include "core/random/philox_stream.h"

namespace rfscope {
namespace {

// The first `count` entries of a seeded uniform permutation of 0..n-1 (partial Fisher–Yates).
std::vector<std::uint64_t> drawWithoutReplacement(std::uint64_t n, std::uint64_t count,
                                                  std::uint64_t seed) {
  std::vector<std::uint64_t> order(n);
  std::iota(order.begin(), order.end(), std::uint64_t{0});
  PhiloxStream stream(seed, kPairStreamBase - 1);
  for (std::uint64_t k = 0; k < count; ++k) {
    const auto pick =
        k + std::min(n - k - 1,
                     static_cast<std::uint64_t>(stream.uniform() * static_cast<double>(n - k)));
    std::swap(order[k], order[pick]);
  }
  order.resize(count);
  return order;
}

// Queries = rows 0..L-1 of `drawn`, keys = the next L (or the queries again), all standardised
// together; values = the keys.
AttentionRows split(Eigen::MatrixXd drawn, Eigen::Index length) {
  FeatureStandardizer::fit(drawn).apply(drawn);
  AttentionRows rows;
  rows.queries = drawn.topRows(length);
  rows.keys = drawn.rows() >= 2 * length ? drawn.middleRows(length, length) : rows.queries;
  rows.values = rows.keys;
  return rows;
}

}  // namespace

AttentionRows uciAttentionRows(const std::string& datasetId, Eigen::Index length,
                               std::uint64_t seed, const char* parameter) {
  LabelledDataset data;
  try {
    data = loadUciDataset(datasetId);
  } catch (const InvalidParameter& e) {
    throw DataError(std::string("parameter '") + parameter + "': " + e.what(), parameter);
  }
  const auto n = static_cast<std::uint64_t>(data.features.rows());
  if (n < static_cast<std::uint64_t>(length))
    throw DataError(std::string("parameter '") + parameter + "': '" + datasetId + "' has " +
                        std::to_string(n) + " rows, fewer than sequence-length " +
                        std::to_string(length),
                    parameter);
  const std::uint64_t count = std::min<std::uint64_t>(n, 2 * static_cast<std::uint64_t>(length));
  const std::vector<std::uint64_t> picked = drawWithoutReplacement(n, count, seed);
  Eigen::MatrixXd drawn(static_cast<Eigen::Index>(count), data.features.cols());
  for (std::size_t k = 0; k < picked.size(); ++k)
    drawn.row(static_cast<Eigen::Index>(k)) =
        data.features.row(static_cast<Eigen::Index>(picked[k]));
  return split(std::move(drawn), length);
}

AttentionRows mnistPatchRows(int dimension, Eigen::Index length, std::uint64_t seed,
                             const char* parameter) {
  const int side = static_cast<int>(std::lround(std::sqrt(static_cast<double>(dimension))));
  if (side * side != dimension || side > 28)
    throw DataError(std::string("parameter '") + parameter +
                        "': MNIST patches need d = p² with p ≤ 28 (4, 9, 16, …, 784), not d = " +
                        std::to_string(dimension),
                    parameter);
  const std::filesystem::path path = findDataFile(MnistRegime::kShippedImages);
  if (path.empty())
    throw DataError(std::string("parameter '") + parameter + "': the MNIST digits shipped with " +
                        "RFScope (" + MnistRegime::kShippedImages +
                        ") were not found in any data folder; set RFSCOPE_DATA_DIR to the folder "
                        "holding mnist/",
                    parameter);
  std::shared_ptr<const IdxArray> images;
  try {
    images = DatasetCache::instance().get<IdxArray>(
        path, "attention-mnist", [&path] { return std::make_shared<IdxArray>(readIdxFile(path)); });
  } catch (const InvalidParameter& e) {
    throw DataError(std::string("parameter '") + parameter + "': " + e.what(), parameter);
  }
  if (images->dimensions.size() != 3 || images->dimensions[1] < 28 || images->dimensions[2] < 28)
    throw DataError(std::string("parameter '") + parameter + "': '" + path.string() +
                        "' is not a file of 28 × 28 images (shape " + images->shape() + ")",
                    parameter);
  const std::uint64_t count = images->dimensions[0], height = images->dimensions[1],
                      width = images->dimensions[2];
  const Eigen::Index total = 2 * length;
  Eigen::MatrixXd drawn(total, dimension);
  PhiloxStream stream(seed, kPairStreamBase - 2);
  const auto index = [&stream](std::uint64_t n) {
    return std::min(n - 1, static_cast<std::uint64_t>(stream.uniform() * static_cast<double>(n)));
  };
  for (Eigen::Index r = 0; r < total; ++r) {
    const std::uint64_t image = index(count);
    const std::uint64_t top = index(height - static_cast<std::uint64_t>(side) + 1);
    const std::uint64_t left = index(width - static_cast<std::uint64_t>(side) + 1);
    for (int i = 0; i < side; ++i)
      for (int j = 0; j < side; ++j)
        drawn(r, i * side + j) =
            images->value((image * height + top + static_cast<std::uint64_t>(i)) * width + left +
                          static_cast<std::uint64_t>(j)) /
            255.0;
  }
  return split(std::move(drawn), length);
}

}  // namespace rfscope
