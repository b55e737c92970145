#include "core/data/area_resizer.h"

#include <gtest/gtest.h>

#include <numeric>
#include <random>

namespace rfscope {
namespace {

std::vector<double> resized(const AreaResizer& resizer, const std::vector<double>& input) {
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

TEST(AreaResizer, IntegerRatioAveragesBlocks) {
  const std::vector<double> image{1,  2,  3,  4,   //
                                  5,  6,  7,  8,   //
                                  9,  10, 11, 12,  //
                                  13, 14, 15, 16};
  const auto out = resized(AreaResizer(4, 4, 2, 2), image);
  EXPECT_EQ(out, (std::vector<double>{3.5, 5.5, 11.5, 13.5}));
}

TEST(AreaResizer, FractionalRatioWeighsPixelsByOverlap) {
  // 3 → 2: output pixel 0 covers input [0, 1.5): weights 2/3, 1/3; pixel 1 covers [1.5, 3).
  const auto out = resized(AreaResizer(1, 3, 1, 2), {3, 6, 12});
  EXPECT_DOUBLE_EQ(out[0], 3 * 2.0 / 3 + 6 / 3.0);
  EXPECT_DOUBLE_EQ(out[1], 6 / 3.0 + 12 * 2.0 / 3);
}

TEST(AreaResizer, MnistSizeMatchesSupersampledAverage) {
  // 28×28 → 8×8 (3.5 input pixels per output pixel): split every input pixel into 8×8 equal
  // sub-pixels (224×224); each output pixel is then the plain mean of a 28×28 block of them.
  const int in = 28, out = 8, sub = 8;
  const auto image = randomImage(in, in, 5);
  const auto fast = resized(AreaResizer(in, in, out, out), image);
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

TEST(AreaResizer, PreservesMeanAndConstantsForAnySizes) {
  for (const auto& [ri, ci, ro, co] : std::vector<std::array<int, 4>>{
           {28, 28, 5, 5}, {7, 5, 3, 2}, {28, 28, 27, 27}, {2, 3, 5, 4}, {9, 9, 9, 9}}) {
    const AreaResizer resizer(ri, ci, ro, co);
    const auto image = randomImage(ri, ci, static_cast<unsigned>(ri * 100 + ro));
    EXPECT_NEAR(mean(resized(resizer, image)), mean(image), 1e-14);
    for (double v : resized(resizer, std::vector<double>(static_cast<std::size_t>(ri * ci), 0.7)))
      EXPECT_NEAR(v, 0.7, 1e-15);
  }
}

TEST(AreaResizer, SameSizeIsTheIdentity) {
  const auto image = randomImage(28, 28, 9);
  EXPECT_EQ(resized(AreaResizer(28, 28, 28, 28), image), image);
}

}  // namespace
}  // namespace rfscope
