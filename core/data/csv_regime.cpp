#include "core/data/csv_regime.h"

#include <sstream>

#include "core/data/data_error.h"
#include "core/data/dataset_cache.h"
#include "core/data/input_limits.h"
#include "core/data/row_draw.h"
#include "core/data/vector_file.h"

namespace rfscope {
namespace {

class CsvSampler final : public PairSampler {
 public:
  CsvSampler(std::shared_ptr<const Eigen::MatrixXd> xs, std::shared_ptr<const Eigen::MatrixXd> ys)
      : xs_(std::move(xs)), ys_(std::move(ys)) {}

  int dimension() const override { return static_cast<int>(xs_->rows()); }

  void sampleBasePair(std::uint64_t seed, std::uint64_t pairIndex, Eigen::VectorXd& x,
                      Eigen::VectorXd& y) const override {
    const auto xCount = static_cast<std::uint64_t>(xs_->cols());
    const RowPair rows =
        ys_ ? drawRows(seed, pairIndex, xCount, static_cast<std::uint64_t>(ys_->cols()))
            : drawDistinctRows(seed, pairIndex, xCount);
    x = xs_->col(static_cast<Eigen::Index>(rows.x));
    y = (ys_ ? *ys_ : *xs_).col(static_cast<Eigen::Index>(rows.y));
  }

 private:
  std::shared_ptr<const Eigen::MatrixXd> xs_;
  std::shared_ptr<const Eigen::MatrixXd> ys_;  // null: y from xs_ too
};

std::shared_ptr<const Eigen::MatrixXd> loadVectors(const std::filesystem::path& path,
                                                   const char* key, int dimension) {
  std::shared_ptr<const Eigen::MatrixXd> vectors;
  try {
    vectors = DatasetCache::instance().get<Eigen::MatrixXd>(path, "vectors", [&path] {
      return std::make_shared<const Eigen::MatrixXd>(readVectorFile(path));
    });
  } catch (const DataError& e) {
    throw DataError(e.what(), key);
  }
  // Every row is checked once per load, not per run: the data is refused, with the true reason,
  // rather than turned into NaN by the closed forms.
  for (Eigen::Index row = 0; row < vectors->cols(); ++row) {
    Eigen::Index entry = 0;
    const double largest = vectors->col(row).cwiseAbs().maxCoeff(&entry);
    if (largest > kMaxDataMagnitude) {
      std::ostringstream value;
      value << (*vectors)(entry, row);
      throw DataError("'" + path.string() + "': vector " + std::to_string(row + 1) + ", value " +
                          std::to_string(entry + 1) + ", is " + value.str() +
                          ", out of range: entries must lie within ±1e60 (the closed forms "
                          "multiply up to four entries, which would overflow a double)",
                      key);
    }
  }
  if (vectors->rows() != dimension)
    throw DataError("'" + path.string() + "': holds vectors of dimension " +
                        std::to_string(vectors->rows()) + ", but d = " + std::to_string(dimension) +
                        (vectors->rows() <= kMaxExperimentDimension
                             ? " (set d to " + std::to_string(vectors->rows()) + ")"
                             : " (d is at most " + std::to_string(kMaxExperimentDimension) + ")"),
                    "d");
  return vectors;
}

}  // namespace

const RegimeInfo& CsvRegime::info() const {
  static const RegimeInfo info{
      "csv", "vectors from file",
      "x, y random rows of your own vector file(s) (csv-x, csv-y), times σ"};
  return info;
}

std::vector<ParameterSpec> CsvRegime::parameters() const {
  const std::string filter = "Vector files (*.csv *.txt *.tsv *.dat);;All files (*)";
  auto x = fileParameter(kXFileKey, "Vectors (x)", filter,
                         "file of the csv regime: one vector of d numbers per row, separated by "
                         "commas or spaces, '#' comments; x and y are two different random rows");
  auto y = fileParameter(kYFileKey, "Vectors (y)", filter,
                         "optional second file of the csv regime: y is a random row of it, x of "
                         "csv-x; empty: both from csv-x");
  x.group = y.group = "Data";
  return {x, y};
}

std::shared_ptr<const PairSampler> CsvRegime::prepare(int dimension,
                                                      const ParameterSet& params) const {
  if (const std::string error = dimensionError(dimension); !error.empty())
    throw DataError(error, "d");
  const std::filesystem::path xPath = textParameter(params, kXFileKey);
  const std::filesystem::path yPath = textParameter(params, kYFileKey);
  if (xPath.empty())
    throw DataError(std::string("the csv regime needs a file of vectors: set '") + kXFileKey + "'",
                    kXFileKey);
  auto xs = loadVectors(xPath, kXFileKey, dimension);
  if (yPath.empty()) {
    if (xs->cols() < 2)
      throw DataError("'" + xPath.string() +
                          "': holds one vector; x and y are two different rows, "
                          "so at least two are needed (or give a second file as '" +
                          kYFileKey + "')",
                      kXFileKey);
    return std::make_shared<CsvSampler>(std::move(xs), nullptr);
  }
  auto ys = loadVectors(yPath, kYFileKey, dimension);
  return std::make_shared<CsvSampler>(std::move(xs), std::move(ys));
}

}  // namespace rfscope
