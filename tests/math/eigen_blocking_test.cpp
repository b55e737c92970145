// Eigen blocks its matrix products for the CPU's caches, and the blocks fix the order in which a
// long product's terms are summed. The build pins the cache sizes (CMakeLists.txt: no CPUID), so
// a product gives the same bits on every CPU; these tests hold the pin and show why it matters.
#include <cstdint>
#include <cstring>

#include <gtest/gtest.h>
#include <Eigen/Core>

namespace rfscope {
namespace {

TEST(EigenBlocking, CacheSizesArePinnedNotReadFromTheCpu) {
#ifndef EIGEN_NO_CPUID
  ADD_FAILURE() << "EIGEN_NO_CPUID is not defined: Eigen would read this CPU's cache sizes";
#endif
  EXPECT_EQ(Eigen::l1CacheSize(), 32 * 1024);
  EXPECT_EQ(Eigen::l2CacheSize(), 512 * 1024);
  EXPECT_EQ(Eigen::l3CacheSize(), 8 * 1024 * 1024);
}

// Deterministic data: no random engine whose sequence could change with a library.
Eigen::MatrixXd fixedMatrix(int rows, int cols, std::uint64_t seed) {
  Eigen::MatrixXd m(rows, cols);
  std::uint64_t state = seed;
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      m(i, j) = static_cast<double>(state >> 11) * 0x1.0p-53 - 0.5;
    }
  return m;
}

bool sameBits(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

TEST(EigenBlocking, AnotherCpusCacheSizesWouldChangeTheLastBitsOfALongProduct) {
  // The attention experiments' sums over L = 1024 keys have this shape.
  const Eigen::MatrixXd a = fixedMatrix(1024, 1024, 1), b = fixedMatrix(1024, 8, 2);
  const Eigen::MatrixXd pinned = a.transpose() * b;
  const std::ptrdiff_t l1 = Eigen::l1CacheSize(), l2 = Eigen::l2CacheSize(),
                       l3 = Eigen::l3CacheSize();
  Eigen::setCpuCacheSizes(48 * 1024, 2 * 1024 * 1024, 32 * 1024 * 1024);  // a recent Xeon core
  const Eigen::MatrixXd xeon = a.transpose() * b;
  Eigen::setCpuCacheSizes(l1, l2, l3);
  const Eigen::MatrixXd again = a.transpose() * b;
  EXPECT_TRUE(sameBits(pinned, again));
  EXPECT_FALSE(sameBits(pinned, xeon)) << "the blocking no longer changes this product's sums";
  EXPECT_LT((pinned - xeon).cwiseAbs().maxCoeff(), 1e-12);  // the last bits, nothing more
}

}  // namespace
}  // namespace rfscope
