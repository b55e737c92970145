#pragma once
// Image resizing, separable (rows, then columns), with one of three methods:
//   Area      area averaging: an output pixel is the mean of the input image (a constant per input
//             pixel) over the output pixel's footprint, i.e. input pixels weighted by the area they
//             share with it. For shrinking this is OpenCV's INTER_AREA and PIL's BOX filter; it
//             keeps the mean intensity exactly (28×28 → 8×8 averages 3.5×3.5 input pixels).
//   Nearest   the input pixel under the output pixel's centre (sharp; drops most pixels).
//   Bilinear  interpolation between the four input pixels around the output pixel's centre,
//             half-pixel centres and no antialiasing (OpenCV INTER_LINEAR, PyTorch
//             align_corners=False).

#include <string_view>
#include <vector>

namespace rfscope {

enum class ResizeMethod { Area, Nearest, Bilinear };

class ImageResizer {
 public:
  ImageResizer(int inputRows, int inputColumns, int outputRows, int outputColumns,
               ResizeMethod method = ResizeMethod::Area);

  int inputSize() const { return inputRows_ * inputColumns_; }
  int outputSize() const { return outputRows_ * outputColumns_; }

  // Row-major images: input has inputRows × inputColumns values, output gets outputRows ×
  // outputColumns. `scratch` avoids an allocation per image (resized as needed).
  void resize(const double* input, double* output, std::vector<double>& scratch) const;

 private:
  struct Tap {
    int index;      // input row or column
    double weight;  // the taps of one output row or column sum to 1
  };
  static std::vector<std::vector<Tap>> taps(int inputSize, int outputSize, ResizeMethod method);

  int inputRows_, inputColumns_, outputRows_, outputColumns_;
  std::vector<std::vector<Tap>> rowTaps_, columnTaps_;
};

}  // namespace rfscope
