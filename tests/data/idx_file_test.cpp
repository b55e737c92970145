#include "core/data/idx_file.h"

#include <gtest/gtest.h>

#include <numeric>

#include "core/data/data_directory.h"
#include "core/data/data_error.h"
#include "core/data/mnist_regime.h"
#include "scratch_folder.h"

namespace rfscope {
namespace {

using Bytes = std::vector<unsigned char>;

// The DataError message of reading `path`, or "" when it reads fine.
std::string idxReadError(const std::filesystem::path& path) {
  try {
    readIdxFile(path);
  } catch (const DataError& e) {
    return e.what();
  }
  return {};
}

template <class T>
IdxArray makeArray(std::vector<std::uint32_t> dimensions, std::vector<T> values) {
  IdxArray array;
  array.dimensions = std::move(dimensions);
  array.values = std::move(values);
  return array;
}

void expectSameArray(const IdxArray& a, const IdxArray& b) {
  EXPECT_EQ(a.dimensions, b.dimensions);
  EXPECT_EQ(a.type(), b.type());
  ASSERT_EQ(a.size(), b.size());
  EXPECT_TRUE(a.values == b.values);
}

TEST(IdxFile, RoundTripsEveryTypeGzippedAndPlain) {
  const ScratchFolder folder;
  const std::vector<IdxArray> arrays{
      makeArray<std::uint8_t>({2, 3}, {0, 1, 127, 128, 254, 255}),
      makeArray<std::int8_t>({6}, {-128, -1, 0, 1, 100, 127}),
      makeArray<std::int16_t>({3, 2}, {-32768, -2, 0, 3, 1000, 32767}),
      makeArray<std::int32_t>({1, 2, 3}, {-2147483647 - 1, -70000, 0, 1, 70000, 2147483647}),
      makeArray<float>({2, 3}, {-1.5f, 0.0f, 0.25f, 1e-30f, 3.4e38f, 0.1f}),
      makeArray<double>({3, 2}, {-1e300, 0.0, 0.1, 1.0 / 3.0, 5e-324, 42.0}),
  };
  for (const auto& array : arrays) {
    for (const bool gzipped : {false, true}) {
      const auto file = folder.path() / ("a" + std::to_string(static_cast<int>(array.type())) +
                                         (gzipped ? ".gz" : ".idx"));
      writeIdxFile(file, array, gzipped);
      SCOPED_TRACE(file.string());
      expectSameArray(readIdxFile(file), array);
    }
  }
}

TEST(IdxFile, WritesTheStandardByteLayout) {
  // Big-endian header and values, as in the MNIST distribution.
  const ScratchFolder folder;
  const auto file = folder.path() / "s.idx";
  writeIdxFile(file, makeArray<std::int16_t>({2}, {258, -2}), false);
  const std::string bytes = ScratchFolder::read(file);
  const Bytes expected{0, 0, 0x0B, 1, 0, 0, 0, 2, 0x01, 0x02, 0xFF, 0xFE};
  EXPECT_EQ(bytes, std::string(expected.begin(), expected.end()));
  EXPECT_EQ(readIdxFile(file).value(1), -2.0);
  EXPECT_EQ(readIdxFile(file).shape(), "2");
}

TEST(IdxFile, ShippedMnistDigitsAreTenThousandLabelledImages) {
  const auto images = findDataFile(MnistRegime::kShippedImages);
  ASSERT_FALSE(images.empty());
  const IdxArray array = readIdxFile(images);
  EXPECT_EQ(array.type(), IdxType::UnsignedByte);
  EXPECT_EQ(array.shape(), "10000×28×28");
  const IdxArray labels = readIdxFile(images.parent_path() / "mnist-10k-labels-idx1-ubyte.gz");
  ASSERT_EQ(labels.shape(), "10000");
  std::vector<int> perDigit(10, 0);
  for (std::size_t i = 0; i < labels.size(); ++i)
    ++perDigit.at(static_cast<std::size_t>(labels.value(i)));
  EXPECT_EQ(perDigit, (std::vector<int>{1001, 1127, 991, 1032, 980, 863, 1014, 1070, 944, 978}));
  for (int i = 0; i < 10; ++i)
    EXPECT_EQ(labels.value(static_cast<std::size_t>(i)), i);  // interleaved
  // Real digits: ink on a background, the familiar mean intensity of MNIST (about 0.13).
  double sum = 0;
  for (std::size_t i = 0; i < array.size(); ++i)
    sum += array.value(i);
  const double mean = sum / static_cast<double>(array.size()) / 255.0;
  EXPECT_GT(mean, 0.11);
  EXPECT_LT(mean, 0.15);
}

class MalformedIdx : public ::testing::Test {
 protected:
  // A valid plain file: 2×3 unsigned bytes.
  static Bytes valid() { return {0, 0, 0x08, 2, 0, 0, 0, 2, 0, 0, 0, 3, 1, 2, 3, 4, 5, 6}; }

  void expectError(const Bytes& bytes, const std::string& fragment) {
    const auto file = folder_.writeBytes("bad-" + std::to_string(count_++) + ".idx", bytes);
    const std::string message = idxReadError(file);
    EXPECT_NE(message.find(fragment), std::string::npos) << "message: " << message;
    EXPECT_NE(message.find(file.string()), std::string::npos) << "message: " << message;
  }

  ScratchFolder folder_;
  int count_ = 0;
};

TEST_F(MalformedIdx, ValidFileReads) {
  const auto file = folder_.writeBytes("good.idx", valid());
  EXPECT_EQ(idxReadError(file), "");
  EXPECT_EQ(readIdxFile(file).value(5), 6.0);
}

TEST_F(MalformedIdx, MissingFileOrFolder) {
  const auto missing = folder_.path() / "missing.idx";
  EXPECT_NE(idxReadError(missing).find("cannot open"), std::string::npos) << idxReadError(missing);
  EXPECT_NE(idxReadError(folder_.path()), "");
}

TEST_F(MalformedIdx, EmptyAndTooShortForAHeader) {
  expectError({}, "truncated: 0 bytes");
  expectError({0, 0, 8}, "truncated: 3 bytes");
}

TEST_F(MalformedIdx, BadMagicNumber) {
  expectError({'P', 'K', 3, 4, 0, 0, 0, 0}, "not an IDX file");
  expectError({0, 1, 8, 1, 0, 0, 0, 1, 7}, "not an IDX file");
}

TEST_F(MalformedIdx, UnknownTypeCode) {
  expectError({0, 0, 0x07, 1, 0, 0, 0, 1, 7}, "unknown type code 0x07");
}

TEST_F(MalformedIdx, NoDimensions) {
  expectError({0, 0, 8, 0}, "no dimensions");
}

TEST_F(MalformedIdx, EndsInsideTheDimensions) {
  expectError({0, 0, 8, 3, 0, 0, 0, 2, 0, 0}, "ends inside them");
}

TEST_F(MalformedIdx, TruncatedData) {
  Bytes bytes = valid();
  bytes.pop_back();
  expectError(bytes, "need 6 data bytes, the file holds 5");
  Bytes wide{0, 0, 0x0C, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0};  // two 32-bit ints, 6 bytes
  expectError(wide, "need 8 data bytes, the file holds 6");
}

TEST_F(MalformedIdx, TrailingBytesAreASizeMismatch) {
  Bytes bytes = valid();
  bytes.push_back(9);
  bytes.push_back(9);
  expectError(bytes, "size mismatch: 2 bytes follow");
}

TEST_F(MalformedIdx, ImplausiblyLargeDimensions) {
  expectError({0, 0, 0x0E, 3, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 2, 1},
              "over 1 GiB");
  // 2^31 · 4 · 2^31 = 2^64 would wrap to 0 in 64 bits.
  expectError({0, 0, 0x08, 3, 0x80, 0, 0, 0, 0, 0, 0, 4, 0x80, 0, 0, 0, 1}, "over 1 GiB");
}

TEST_F(MalformedIdx, TruncatedGzipStream) {
  std::vector<std::uint8_t> values(5000);
  std::iota(values.begin(), values.end(), 0);
  const auto whole = folder_.path() / "whole.gz";
  writeIdxFile(whole, makeArray<std::uint8_t>({50, 100}, values), true);
  const std::string content = ScratchFolder::read(whole);
  ASSERT_EQ(idxReadError(whole), "");
  expectError(Bytes(content.begin(), content.begin() + static_cast<long>(content.size() / 2)),
              "truncated");
  // Cut inside the 8-byte trailer (CRC, length): every data byte is there, the check is not.
  const Bytes noTrailer(content.begin(), content.end() - 4);
  const auto file = folder_.writeBytes("no-trailer.gz", noTrailer);
  EXPECT_NE(idxReadError(file), "");
}

// Issue 12, item 13: with a large file, a gzip stream cut inside its 8-byte trailer was accepted:
// every data byte had been read, and only gzclose reports the missing trailer.
TEST_F(MalformedIdx, TruncatedTrailerOfALargeGzipFile) {
  // 1000 images of 28×28 (784 KB), part noise: a gzip file of ~180 KB, larger than zlib's
  // buffers (the old check only caught cuts in files under ~150 KB).
  std::vector<std::uint8_t> values(1000 * 28 * 28);
  std::uint32_t state = 12345;
  for (std::size_t i = 0; i < values.size(); ++i) {
    state = state * 1664525u + 1013904223u;
    values[i] = i % 28 < 10 ? 0 : static_cast<std::uint8_t>(state >> 30);
  }
  const auto whole = folder_.path() / "large.gz";
  writeIdxFile(whole, makeArray<std::uint8_t>({1000, 28, 28}, values), true);
  const std::string content = ScratchFolder::read(whole);
  ASSERT_GT(content.size(), 170000u);
  ASSERT_EQ(idxReadError(whole), "");
  for (const long cut : {1, 4, 7, 8}) {
    const auto file = folder_.writeBytes("cut.gz", Bytes(content.begin(), content.end() - cut));
    EXPECT_NE(idxReadError(file).find("truncated"), std::string::npos)
        << cut << ": " << idxReadError(file);
  }
}

TEST_F(MalformedIdx, CorruptGzipData) {
  std::vector<std::uint8_t> values(5000);
  std::iota(values.begin(), values.end(), 0);
  const auto whole = folder_.path() / "whole.gz";
  writeIdxFile(whole, makeArray<std::uint8_t>({5000}, values), true);
  std::string content = ScratchFolder::read(whole);
  content[content.size() - 6] ^= 0x55;  // the stored CRC no longer matches
  expectError(Bytes(content.begin(), content.end()), "corrupt gzip data");
}

TEST(IdxFile, WriteRejectsInconsistentArraysAndUnwritablePaths) {
  const ScratchFolder folder;
  EXPECT_THROW(writeIdxFile(folder.path() / "x.idx", makeArray<float>({3}, {1.f, 2.f}), false),
               DataError);
  EXPECT_THROW(writeIdxFile(folder.path() / "no" / "x.idx", makeArray<float>({1}, {1.f}), false),
               DataError);
  EXPECT_THROW(writeIdxFile(folder.path() / "no" / "x.gz", makeArray<float>({1}, {1.f}), true),
               DataError);
}

}  // namespace
}  // namespace rfscope
