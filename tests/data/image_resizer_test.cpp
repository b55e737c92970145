#include "core/data/image_resizer.h"

#include <gtest/gtest.h>

#include <numeric>
#include <random>

namespace rfscope {
namespace {

std::vector<double> resized(const ImageResizer& resizer, const std::vector<double>& input) {
  std::vector<double> output(static_cast<std::size_t>(resizer.outputSize())), scratch;
  resizer.resize(input.data(), output.data(), scratch);
  return output;
}

std::vector<double> randomImage(int rows, int columns, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> uniform(0, 1);
  std::vector<double> image(static_cast<std::size_t>(rows * columns));
  for (double& v : image)
    v = uniform(engine);
  return image;
}

double mean(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

TEST(ImageResizer, AreaIntegerRatioAveragesBlocks) {
  const std::vector<double> image{1,  2,  3,  4,   //
                                  5,  6,  7,  8,   //
                                  9,  10, 11, 12,  //
                                  13, 14, 15, 16};
  const auto out = resized(ImageResizer(4, 4, 2, 2), image);
  EXPECT_EQ(out, (std::vector<double>{3.5, 5.5, 11.5, 13.5}));
}

TEST(ImageResizer, FractionalRatioWeighsPixelsByOverlap) {
  // 3 → 2: output pixel 0 covers input [0, 1.5): weights 2/3, 1/3; pixel 1 covers [1.5, 3).
  const auto out = resized(ImageResizer(1, 3, 1, 2), {3, 6, 12});
  EXPECT_DOUBLE_EQ(out[0], 3 * 2.0 / 3 + 6 / 3.0);
  EXPECT_DOUBLE_EQ(out[1], 6 / 3.0 + 12 * 2.0 / 3);
}

TEST(ImageResizer, MnistSizeMatchesSupersampledAverage) {
  // 28×28 → 8×8 (3.5 input pixels per output pixel): split every input pixel into 8×8 equal
  // sub-pixels (224×224); each output pixel is then the plain mean of a 28×28 block of them.
  const int in = 28, out = 8, sub = 8;
  const auto image = randomImage(in, in, 5);
  const auto fast = resized(ImageResizer(in, in, out, out), image);
  const int block = in * sub / out;
  for (int r = 0; r < out; ++r)
    for (int c = 0; c < out; ++c) {
      double sum = 0;
      for (int i = r * block; i < (r + 1) * block; ++i)
        for (int j = c * block; j < (c + 1) * block; ++j)
          sum += image[static_cast<std::size_t>((i / sub) * in + j / sub)];
      EXPECT_NEAR(fast[static_cast<std::size_t>(r * out + c)], sum / (block * block), 1e-14);
    }
}

TEST(ImageResizer, PreservesMeanAndConstantsForAnySizes) {
  for (const auto& [ri, ci, ro, co] : std::vector<std::array<int, 4>>{
           {28, 28, 5, 5}, {7, 5, 3, 2}, {28, 28, 27, 27}, {2, 3, 5, 4}, {9, 9, 9, 9}}) {
    const ImageResizer resizer(ri, ci, ro, co);
    const auto image = randomImage(ri, ci, static_cast<unsigned>(ri * 100 + ro));
    EXPECT_NEAR(mean(resized(resizer, image)), mean(image), 1e-14);
    for (double v : resized(resizer, std::vector<double>(static_cast<std::size_t>(ri * ci), 0.7)))
      EXPECT_NEAR(v, 0.7, 1e-15);
  }
}

TEST(ImageResizer, SameSizeIsTheIdentity) {
  const auto image = randomImage(28, 28, 9);
  EXPECT_EQ(resized(ImageResizer(28, 28, 28, 28), image), image);
}

}  // namespace
}  // namespace rfscope

namespace rfscope {
namespace {

TEST(ImageResizer, NearestTakesThePixelUnderEachCentre) {
  // 28 → 8: centres at (i + 1/2)·3.5 = 1.75, 5.25, 8.75, ... → pixels 1, 5, 8, 12, 15, 19, 22, 26.
  std::vector<double> image(28 * 28);
  for (int r = 0; r < 28; ++r)
    for (int c = 0; c < 28; ++c)
      image[static_cast<std::size_t>(r * 28 + c)] = 100 * r + c;
  const auto out = resized(ImageResizer(28, 28, 8, 8, ResizeMethod::Nearest), image);
  const int expected[] = {1, 5, 8, 12, 15, 19, 22, 26};
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c)
      EXPECT_EQ(out[static_cast<std::size_t>(r * 8 + c)], 100 * expected[r] + expected[c]);
}

TEST(ImageResizer, BilinearInterpolatesAtHalfPixelCentres) {
  // On a linear ramp, bilinear interpolation is exact: the output is the ramp at the centre
  // (i + 1/2)·n/m - 1/2, clamped to the image.
  std::vector<double> ramp(28 * 28);
  for (int r = 0; r < 28; ++r)
    for (int c = 0; c < 28; ++c)
      ramp[static_cast<std::size_t>(r * 28 + c)] = 2.0 * r + c;
  const auto out = resized(ImageResizer(28, 28, 8, 8, ResizeMethod::Bilinear), ramp);
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c)
      EXPECT_NEAR(out[static_cast<std::size_t>(r * 8 + c)],
                  2.0 * (3.5 * r + 1.25) + (3.5 * c + 1.25), 1e-12);
  // Enlarging clamps at the border: 2 → 4 gives centres -0.25, 0.25, 0.75, 1.25.
  const auto wide = resized(ImageResizer(1, 2, 1, 4, ResizeMethod::Bilinear), {0, 4});
  EXPECT_EQ(wide, (std::vector<double>{0, 1, 3, 4}));
}

TEST(ImageResizer, EveryMethodKeepsConstantsAndIdentity) {
  for (const auto method : {ResizeMethod::Area, ResizeMethod::Nearest, ResizeMethod::Bilinear}) {
    for (double v : resized(ImageResizer(28, 28, 8, 8, method), std::vector<double>(784, 0.3)))
      EXPECT_NEAR(v, 0.3, 1e-15);
    const auto image = randomImage(6, 6, 3);
    EXPECT_EQ(resized(ImageResizer(6, 6, 6, 6, method), image), image);
  }
}

}  // namespace
}  // namespace rfscope
