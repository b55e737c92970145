#include "core/data/mnist_regime.h"

#include <cmath>
#include <vector>

#include "core/data/class_pairs.h"
#include "core/data/data_directory.h"
#include "core/data/data_error.h"
#include "core/data/dataset_cache.h"
#include "core/data/idx_file.h"
#include "core/data/image_resizer.h"
#include "core/data/row_draw.h"

namespace rfscope {
namespace {

constexpr int kMaxDimension = 28 * 28;

// An IDX image file checked once: count × rows × columns, pixels mapped to [0, 1] by `scale`.
struct ImageSet {
  IdxArray array;
  std::uint64_t count = 0;
  int rows = 0, columns = 0;
  double scale = 1;
};

int squareRoot(int dimension) {
  const int k = static_cast<int>(std::lround(std::sqrt(static_cast<double>(dimension))));
  return k * k == dimension ? k : 0;
}

std::shared_ptr<const ImageSet> loadImageSet(const std::filesystem::path& path) {
  const std::string name = "'" + path.string() + "'";
  auto set = std::make_shared<ImageSet>();
  set->array = readIdxFile(path);
  const IdxArray& array = set->array;
  if (array.dimensions.size() != 3)
    throw DataError(name +
                    ": an IDX image file has 3 dimensions (images × rows × columns), this one "
                    "has shape " +
                    array.shape() + " (a label file?)");
  if (array.dimensions[1] > 32768 || array.dimensions[2] > 32768)
    throw DataError(name + ": its images are " + array.shape() + ", implausibly large");
  set->count = array.dimensions[0];
  set->rows = static_cast<int>(array.dimensions[1]);
  set->columns = static_cast<int>(array.dimensions[2]);
  if (set->count < 2)
    throw DataError(name + ": holds " + std::to_string(set->count) +
                    " image(s); each pair needs two different images");
  if (set->rows == 0 || set->columns == 0)
    throw DataError(name + ": its images are " + array.shape() + ", with no pixels");
  switch (array.type()) {
    case IdxType::UnsignedByte:
      set->scale = 1.0 / 255.0;
      break;
    case IdxType::Float:
    case IdxType::Double:
      for (std::size_t i = 0; i < array.size(); ++i) {
        const double v = array.value(i);
        if (!(v >= 0.0 && v <= 1.0))
          throw DataError(name + ": pixel value " + std::to_string(v) + " (value " +
                          std::to_string(i) +
                          ") lies outside [0, 1]; float images must be in [0, 1]");
      }
      break;
    default:
      throw DataError(name + ": pixels are of type " + idxTypeName(array.type()) +
                      "; images must be unsigned bytes (0-255) or floats in [0, 1]");
  }
  return set;
}

// The labels file of an images file by the MNIST naming convention: train-images-idx3-ubyte.gz →
// train-labels-idx1-ubyte.gz (also with '.' separators).
std::filesystem::path labelsPathFor(const std::filesystem::path& images) {
  std::string name = images.filename().string();
  for (const auto& [from, to] :
       {std::pair<std::string, std::string>{"images", "labels"}, {"idx3", "idx1"}})
    if (const auto at = name.rfind(from); at != std::string::npos)
      name.replace(at, from.size(), to);
  return images.parent_path() / name;
}

std::shared_ptr<const ClassPairs> loadLabels(const std::filesystem::path& path,
                                             std::uint64_t imageCount) {
  const std::string name = "'" + path.string() + "'";
  const IdxArray array = readIdxFile(path);
  const auto* labels = std::get_if<std::vector<std::uint8_t>>(&array.values);
  if (array.dimensions.size() != 1 || !labels)
    throw DataError(name +
                    ": a label file holds one unsigned byte per image (1 dimension), this "
                    "one has shape " +
                    array.shape() + " of " + idxTypeName(array.type()));
  if (array.dimensions[0] != imageCount)
    throw DataError(name + ": holds " + std::to_string(array.dimensions[0]) + " labels for " +
                    std::to_string(imageCount) + " images");
  return std::make_shared<const ClassPairs>(*labels);
}

class MnistSampler final : public PairSampler {
 public:
  MnistSampler(std::shared_ptr<const ImageSet> images, int side, ResizeMethod method,
               std::shared_ptr<const ClassPairs> classes, PairRule rule)
      : images_(std::move(images)),
        side_(side),
        resizer_(images_->rows, images_->columns, side, side, method),
        classes_(std::move(classes)),
        rule_(rule) {}

  int dimension() const override { return side_ * side_; }

  void sampleBasePair(std::uint64_t seed, std::uint64_t pairIndex, Eigen::VectorXd& x,
                      Eigen::VectorXd& y) const override {
    const RowPair rows = classes_ ? classes_->draw(seed, pairIndex, rule_)
                                  : drawDistinctRows(seed, pairIndex, images_->count);
    image(rows.x, x);
    image(rows.y, y);
  }

 private:
  void image(std::uint64_t index, Eigen::VectorXd& out) const {
    const auto pixels = static_cast<std::size_t>(resizer_.inputSize());
    std::vector<double> input(pixels), scratch;
    const std::size_t first = static_cast<std::size_t>(index) * pixels;
    for (std::size_t i = 0; i < pixels; ++i)
      input[i] = images_->scale * images_->array.value(first + i);
    out.resize(dimension());
    resizer_.resize(input.data(), out.data(), scratch);
  }

  std::shared_ptr<const ImageSet> images_;
  int side_;
  ImageResizer resizer_;
  std::shared_ptr<const ClassPairs> classes_;  // null: any two images
  PairRule rule_;
};

}  // namespace

const RegimeInfo& MnistRegime::info() const {
  static const RegimeInfo info{
      "mnist", "MNIST",
      "x, y two different random MNIST images resized to k×k (d = k², area averaging by default), "
      "pixels in [0, 1], times σ"};
  return info;
}

std::vector<ParameterSpec> MnistRegime::parameters() const {
  auto images = fileParameter(kImagesKey, "MNIST images",
                              "IDX image files (*.gz *-ubyte *.idx *.idx3);;All files (*)",
                              "IDX image file (gzipped or not) of the mnist regime; empty: the "
                              "10,000 MNIST digits shipped with RFScope");
  auto resize = choiceParameter(
      kResizeKey, "MNIST resizing",
      {{"area", "area averaging"}, {"nearest", "nearest pixel"}, {"bilinear", "bilinear"}}, "area",
      "how the mnist regime shrinks images to k×k: area averaging (blurred, keeps the mean), or "
      "sharper nearest-pixel or bilinear sampling");
  auto pairs = choiceParameter(
      kPairsKey, "MNIST pairs",
      {{"any", "any two images"},
       {"same-digit", "same digit"},
       {"different-digits", "different digits"}},
      "any",
      "which images the mnist regime pairs: any two, two of the same digit, or two different "
      "digits (reads the labels file next to the images)");
  images.group = resize.group = pairs.group = "Data";
  return {images, resize, pairs};
}

std::string MnistRegime::dimensionError(int dimension) const {
  if (dimension < 1 || dimension > kMaxDimension || squareRoot(dimension) == 0)
    return "the mnist regime needs d = k² for k×k images with k <= 28 (e.g. 64 = 8×8), not d = " +
           std::to_string(dimension);
  return {};
}

std::shared_ptr<const PairSampler> MnistRegime::prepare(int dimension,
                                                        const ParameterSet& params) const {
  if (const std::string error = dimensionError(dimension); !error.empty())
    throw DataError(error, "d");
  std::filesystem::path path = textParameter(params, kImagesKey);
  if (path.empty()) {
    path = findDataFile(kShippedImages);
    if (path.empty()) {
      std::string searched;
      for (const auto& folder : dataDirectories())
        searched += "\n  " + folder.string();
      throw DataError(std::string("the MNIST digits shipped with RFScope (") + kShippedImages +
                          ") were not found in any data folder:" + searched +
                          "\nset RFSCOPE_DATA_DIR to the folder holding mnist/, or pick an IDX "
                          "image file as '" +
                          kImagesKey + "'",
                      kImagesKey);
    }
  }
  std::shared_ptr<const ImageSet> images;
  try {
    images = DatasetCache::instance().get<ImageSet>(path, "mnist-images",
                                                    [&path] { return loadImageSet(path); });
  } catch (const DataError& e) {
    throw DataError(e.what(), kImagesKey);
  }
  const int side = squareRoot(dimension);
  if (side > images->rows || side > images->columns)
    throw DataError("'" + path.string() + "': its images are " + std::to_string(images->rows) +
                        "×" + std::to_string(images->columns) + ", too small for " +
                        std::to_string(side) + "×" + std::to_string(side) +
                        " (d = " + std::to_string(dimension) + ")",
                    "d");
  const std::string resize = textParameter(params, kResizeKey);
  const ResizeMethod method = resize == "nearest"    ? ResizeMethod::Nearest
                              : resize == "bilinear" ? ResizeMethod::Bilinear
                                                     : ResizeMethod::Area;
  const std::string pairing = textParameter(params, kPairsKey);
  const PairRule rule = pairing == "same-digit"         ? PairRule::SameClass
                        : pairing == "different-digits" ? PairRule::DifferentClasses
                                                        : PairRule::Any;
  std::shared_ptr<const ClassPairs> classes;
  if (rule != PairRule::Any) {
    const std::filesystem::path labels = labelsPathFor(path);
    if (labels == path)
      throw DataError("pairs by digit need the labels of '" + path.string() +
                          "', found by the MNIST naming (train-images-idx3-ubyte.gz → "
                          "train-labels-idx1-ubyte.gz), but its name has no 'images' in it",
                      kPairsKey);
    std::error_code error;
    if (!std::filesystem::is_regular_file(labels, error))
      throw DataError("pairs by digit need the labels of '" + path.string() + "': expected '" +
                          labels.string() + "', which does not exist",
                      kPairsKey);
    try {
      classes = DatasetCache::instance().get<ClassPairs>(
          labels, "mnist-labels-" + std::to_string(images->count),
          [&] { return loadLabels(labels, images->count); });
    } catch (const DataError& e) {
      throw DataError(e.what(), kPairsKey);
    }
    if (const std::string problem = classes->ruleError(rule); !problem.empty())
      throw DataError(
          "cannot draw '" + pairing + "' pairs from '" + labels.string() + "': " + problem,
          kPairsKey);
  }
  return std::make_shared<MnistSampler>(std::move(images), side, method, std::move(classes), rule);
}

}  // namespace rfscope
