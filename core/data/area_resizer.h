#pragma once
// Image resizing by area averaging: an output pixel is the mean of the input image (a constant per
// input pixel) over the output pixel's footprint, i.e. input pixels weighted by the area they share
// with it. For shrinking this is OpenCV's INTER_AREA and PIL's BOX filter; it preserves the mean
// intensity exactly and needs no integer ratio (28×28 → 8×8 averages 3.5×3.5 input pixels).

#include <vector>

namespace rfscope {

class AreaResizer {
 public:
  AreaResizer(int inputRows, int inputColumns, int outputRows, int outputColumns);

  int inputSize() const { return inputRows_ * inputColumns_; }
  int outputSize() const { return outputRows_ * outputColumns_; }

  // Row-major images: input has inputRows × inputColumns values, output gets outputRows ×
  // outputColumns. `scratch` avoids an allocation per image (resized as needed).
  void resize(const double* input, double* output, std::vector<double>& scratch) const;

 private:
  struct Tap {
    int index;      // input row or column
    double weight;  // its share of the output row or column; the taps of one output sum to 1
  };
  // Separable: the footprint's area weight is the product of a row and a column weight.
  static std::vector<std::vector<Tap>> taps(int inputSize, int outputSize);

  int inputRows_, inputColumns_, outputRows_, outputColumns_;
  std::vector<std::vector<Tap>> rowTaps_, columnTaps_;
};

}  // namespace rfscope
