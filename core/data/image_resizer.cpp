#include "core/data/image_resizer.h"

#include <algorithm>
#include <cmath>

namespace rfscope {

ImageResizer::ImageResizer(int inputRows, int inputColumns, int outputRows, int outputColumns,
                           ResizeMethod method)
    : inputRows_(inputRows),
      inputColumns_(inputColumns),
      outputRows_(outputRows),
      outputColumns_(outputColumns),
      rowTaps_(taps(inputRows, outputRows, method)),
      columnTaps_(taps(inputColumns, outputColumns, method)) {}

std::vector<std::vector<ImageResizer::Tap>> ImageResizer::taps(int inputSize, int outputSize,
                                                               ResizeMethod method) {
  const long long n = inputSize, m = outputSize;
  std::vector<std::vector<Tap>> result(static_cast<std::size_t>(outputSize));
  if (method == ResizeMethod::Nearest) {
    // The centre of output pixel i lies at (i + 1/2)·n/m input pixels.
    for (long long i = 0; i < m; ++i)
      result[static_cast<std::size_t>(i)].push_back(
          {static_cast<int>((2 * i + 1) * n / (2 * m)), 1.0});
    return result;
  }
  if (method == ResizeMethod::Bilinear) {
    for (long long i = 0; i < m; ++i) {
      const double centre = std::clamp(
          (static_cast<double>(i) + 0.5) * static_cast<double>(n) / static_cast<double>(m) - 0.5,
          0.0, static_cast<double>(n - 1));
      const auto low = static_cast<int>(std::floor(centre));
      const double weight = centre - low;
      auto& row = result[static_cast<std::size_t>(i)];
      row.push_back({low, 1.0 - weight});
      if (weight > 0) row.push_back({low + 1, weight});
    }
    return result;
  }
  // In units of 1/outputSize of an input pixel, output pixel i covers [i·n, (i+1)·n) with
  // n = inputSize and input pixel p covers [p·m, (p+1)·m) with m = outputSize: the overlaps are
  // integers, so the weights overlap / n are exact ratios.
  for (long long i = 0; i < m; ++i) {
    const long long low = i * n, high = (i + 1) * n;
    for (long long p = low / m; p * m < high; ++p) {
      const long long overlap = std::min(high, (p + 1) * m) - std::max(low, p * m);
      if (overlap > 0)
        result[static_cast<std::size_t>(i)].push_back(
            {static_cast<int>(p), static_cast<double>(overlap) / static_cast<double>(n)});
    }
  }
  return result;
}

void ImageResizer::resize(const double* input, double* output, std::vector<double>& scratch) const {
  // First the rows (outputRows × inputColumns), then the columns.
  scratch.assign(static_cast<std::size_t>(outputRows_) * static_cast<std::size_t>(inputColumns_),
                 0.0);
  for (int r = 0; r < outputRows_; ++r) {
    double* target =
        &scratch[static_cast<std::size_t>(r) * static_cast<std::size_t>(inputColumns_)];
    for (const Tap& tap : rowTaps_[static_cast<std::size_t>(r)]) {
      const double* source = input + static_cast<std::size_t>(tap.index) * inputColumns_;
      for (int c = 0; c < inputColumns_; ++c)
        target[c] += tap.weight * source[c];
    }
  }
  for (int r = 0; r < outputRows_; ++r) {
    const double* source =
        &scratch[static_cast<std::size_t>(r) * static_cast<std::size_t>(inputColumns_)];
    for (int c = 0; c < outputColumns_; ++c) {
      double sum = 0;
      for (const Tap& tap : columnTaps_[static_cast<std::size_t>(c)])
        sum += tap.weight * source[tap.index];
      output[static_cast<std::size_t>(r) * static_cast<std::size_t>(outputColumns_) + c] = sum;
    }
  }
}

}  // namespace rfscope
