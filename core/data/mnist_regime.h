#pragma once
// mnist (CRT §5.1): x and y are two different random MNIST images, resized to k×k by area averaging
// (k² = d; the paper uses 8×8, d = 64), pixel values in [0, 1], flattened row by row. The base pair
// is σ = 1; experiments scale it by σ. Images come from the IDX file in the parameter mnist-images,
// by default the 10,000 real digits shipped with RFScope (resources/mnist).
//
// mnist-resize offers sharper resizing too (nearest, bilinear; see image_resizer.h). The choice
// matters: area averaging blurs the digits (mean |x|² ≈ 4.7 at 8×8, nearest ≈ 7.3), and OPRF's mean
// log-variance gain over PosRF at σ = 1, d = 64 (10,000 pairs) is e^4.1 with area averaging, e^5.8
// bilinear and e^6.8 nearest, against the "more than e^7" of CRT §5.1.

#include "core/data/regime.h"

namespace rfscope {

class MnistRegime final : public Regime {
 public:
  static constexpr const char* kImagesKey = "mnist-images";
  static constexpr const char* kResizeKey = "mnist-resize";
  // any | same-digit | different-digits; by digit reads the labels file next to the images.
  static constexpr const char* kPairsKey = "mnist-pairs";
  // The shipped digits, relative to a data folder (see data_directory.h).
  static constexpr const char* kShippedImages = "mnist/mnist-10k-images-idx3-ubyte.gz";

  const RegimeInfo& info() const override;
  std::vector<ParameterSpec> parameters() const override;
  std::string dimensionError(int dimension) const override;  // d = k², d <= 784
  std::shared_ptr<const PairSampler> prepare(int dimension,
                                             const ParameterSet& params) const override;
};

}  // namespace rfscope
