#include "core/data/npy_file.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/data/data_error.h"
#include "scratch_folder.h"

namespace rfscope {
namespace {

const std::filesystem::path kFixtures = std::filesystem::path(RFSCOPE_TEST_DATA_DIR) / "npy";

// A .npy file of the given format version with `header` (padded as NumPy pads it) and data.
std::string npy(const std::string& header, const std::string& data = {}, int version = 1) {
  std::string text = header;
  const std::size_t prefix = version == 1 ? 10 : 12;
  while ((prefix + text.size() + 1) % 64 != 0)
    text += ' ';
  text += '\n';
  std::string out = std::string("\x93NUMPY") + static_cast<char>(version) + '\0';
  for (std::size_t i = 0; i < prefix - 8; ++i)
    out += static_cast<char>((text.size() >> (8 * i)) & 0xff);
  return out + text + data;
}

std::string doubles(std::initializer_list<double> values) {
  std::string out(values.size() * 8, '\0');
  std::size_t at = 0;
  for (const double v : values) {
    std::memcpy(out.data() + at, &v, 8);  // little endian (x86, ARM)
    at += 8;
  }
  return out;
}

std::string parseError(const std::string& bytes) {
  try {
    parseNpy(bytes, "'a.npy'");
  } catch (const DataError& e) {
    return e.what();
  }
  return {};
}

void expectError(const std::string& bytes, const std::string& part) {
  const std::string message = parseError(bytes);
  EXPECT_NE(message.find(part), std::string::npos) << "expected '" << part << "' in: " << message;
  EXPECT_EQ(message.rfind("'a.npy': ", 0), 0u) << message;
}

TEST(NpyFile, ReadsWhatNumPyWrites) {
  const NpyArray grid = readNpyFile(kFixtures / "f8_c.npy");
  EXPECT_EQ(grid.dtype, "<f8");
  ASSERT_EQ(grid.shape, (std::vector<std::uint64_t>{3, 4}));
  for (std::uint64_t r = 0; r < 3; ++r)
    for (std::uint64_t c = 0; c < 4; ++c)
      EXPECT_EQ(grid.at(r, c), static_cast<double>(r) + static_cast<double>(c) / 4);

  const NpyArray fortran = readNpyFile(kFixtures / "f4_big_fortran.npy");
  EXPECT_TRUE(fortran.fortranOrder);
  EXPECT_EQ(fortran.dtype, ">f4");
  ASSERT_EQ(fortran.shape, (std::vector<std::uint64_t>{3, 4}));
  for (std::uint64_t r = 0; r < 3; ++r)
    for (std::uint64_t c = 0; c < 4; ++c)
      EXPECT_EQ(fortran.at(r, c), static_cast<double>(4 * r + c) - 5.5);  // row-major here

  const NpyArray ints = readNpyFile(kFixtures / "i4_big_fortran.npy");
  for (std::uint64_t r = 0; r < 3; ++r)
    for (std::uint64_t c = 0; c < 4; ++c)
      EXPECT_EQ(ints.at(r, c), (static_cast<double>(4 * r + c) - 6) * 100000);

  const NpyArray bytes = readNpyFile(kFixtures / "u1_2d.npy");
  EXPECT_EQ(bytes.at(2, 3), 220.0);
  EXPECT_EQ(readNpyFile(kFixtures / "i1_1d.npy").values,
            (std::vector<double>{-128, -1, 0, 1, 127}));
  const NpyArray shorts = readNpyFile(kFixtures / "i2_1d.npy");
  EXPECT_EQ(shorts.shape, (std::vector<std::uint64_t>{5}));
  EXPECT_EQ(shorts.columns(), 1u);
  EXPECT_EQ(shorts.values, (std::vector<double>{-32768, -2, 0, 3, 32767}));
  EXPECT_EQ(readNpyFile(kFixtures / "u2_big.npy").values, (std::vector<double>{0, 1, 256, 65535}));
  EXPECT_EQ(readNpyFile(kFixtures / "u4_1d.npy").values, (std::vector<double>{0, 1, 4294967295.0}));
}

TEST(NpyFile, ReadsFormatVersionsTwoAndThreeAndSixtyFourBitIntegers) {
  const NpyArray v3 = readNpyFile(kFixtures / "i8_v3.npy");
  ASSERT_EQ(v3.shape, (std::vector<std::uint64_t>{2, 3}));
  EXPECT_EQ(v3.values, (std::vector<double>{-9223372036854775808.0, -1, 9007199254740992.0, 0, 7,
                                            9223372036854775807.0}));
  const NpyArray v2 = readNpyFile(kFixtures / "u8_big_v2.npy");
  // 2^53 + 1 and 2^64 - 1 round to the nearest doubles.
  EXPECT_EQ(v2.values, (std::vector<double>{0, 1, 9007199254740992.0, 18446744073709551616.0}));
}

TEST(NpyFile, EmptyArraysAreValid) {
  const NpyArray empty = readNpyFile(kFixtures / "f8_empty.npy");
  EXPECT_EQ(empty.shape, (std::vector<std::uint64_t>{0, 3}));
  EXPECT_TRUE(empty.values.empty());
}

TEST(NpyFile, HeadersAsOtherWritersSpellThem) {
  // Double quotes, no trailing comma, Python 2 long integers, a one-element tuple without comma.
  const NpyArray a = parseNpy(
      npy(R"({"descr": "<f8", "fortran_order": False, "shape": (2L, 1L)})", doubles({1.5, -2})),
      "a");
  EXPECT_EQ(a.values, (std::vector<double>{1.5, -2}));
  const NpyArray b =
      parseNpy(npy("{'shape': (1), 'fortran_order': True, 'descr': '<f8'}", doubles({3}), 2), "b");
  EXPECT_EQ(b.values, (std::vector<double>{3}));
}

TEST(NpyFile, RefusesWhatIsNotAnNpyFile) {
  expectError("", "truncated: 0 bytes");
  expectError("\x93NUM", "truncated: 4 bytes");
  expectError("PK\x03\x04 zip archive", "not an NPY file");
  expectError(std::string("\x93NUMPY\x04\x00", 8) + std::string(8, ' '),
              "unsupported NPY format version 4.0");
  expectError(std::string("\x93NUMPY\x01\x01", 8) + std::string(8, ' '), "version 1.1");
}

TEST(NpyFile, RefusesTruncatedAndOversizedFiles) {
  const std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }";
  const std::string whole = npy(header, doubles({1, 2, 3}));
  EXPECT_EQ(parseError(whole), "");
  expectError(whole.substr(0, whole.size() - 1), "truncated: the shape (3,) of <f8 needs 24");
  expectError(whole.substr(0, 9), "truncated: 9 bytes");
  expectError(whole.substr(0, 40), "truncated: the header claims");
  expectError(whole + "x", "size mismatch: 1 bytes follow the 24 data bytes");
  // A header length or shape that promises far more than could ever be read.
  std::string huge = npy(header, doubles({1, 2, 3}), 2);
  for (int i = 8; i < 12; ++i)
    huge[i] = '\xff';
  expectError(huge, "claims 4294967295 bytes, over the 65536-byte limit");
  expectError(npy("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296)}"),
              "over 134217728 values");
  expectError(npy("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,)}"),
              "too large");
  expectError(npy("{'descr': '|u1', 'fortran_order': False, 'shape': (200000000,)}"),
              "over 134217728 values");
}

TEST(NpyFile, RefusesMalformedHeaders) {
  expectError(npy("{'descr': '<f8', 'fortran_order': False}"), "lacks the key 'shape'");
  expectError(npy("{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': ()}"),
              "appears twice");
  expectError(npy("{'descr': '<f8', 'fortran_order': 0, 'shape': (1,)}"), "True or False");
  expectError(npy("{'descr': '<f8', 'fortran_order': False, 'shape': (-1,)}"),
              "non-negative integers");
  expectError(npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), 'extra': 1}"),
              "unexpected key 'extra'");
  expectError(npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1,)} trailing"),
              "unexpected text after");
  expectError(npy("{'descr': '<f8, 'fortran_order': False, 'shape': (1,)}"), "malformed");
  expectError(npy("['descr']"), "expected '{'");
  expectError(npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1,"), "ends early");
}

TEST(NpyFile, RefusesUnsupportedContent) {
  const std::string order = "'fortran_order': False, ";
  expectError(npy("{'descr': [('a', '<f8')], " + order + "'shape': (1,)}"), "structured array");
  expectError(npy("{'descr': '|O', " + order + "'shape': (1,)}"), "Python objects");
  for (const char* dtype : {"<f2", "<c16", "|b1", "<U4", "|f8", "<i3", "<f16"})
    expectError(npy(std::string("{'descr': '") + dtype + "', " + order + "'shape': (1,)}"),
                "unsupported dtype");
  expectError(npy("{'descr': '<f8', " + order + "'shape': ()}", doubles({1})),
              "shape () has 0 dimensions; a 1-D or 2-D array is needed");
  expectError(npy("{'descr': '<f8', " + order + "'shape': (1, 1, 1)}", doubles({1})),
              "has 3 dimensions");
  expectError(npy("{'descr': '<f8', " + order + "'shape': (2, 2)}",
                  doubles({1, 2, std::numeric_limits<double>::quiet_NaN(), 4})),
              "value 1, 0 is NaN");
  expectError(npy("{'descr': '<f8', " + order + "'shape': (2,)}",
                  doubles({1, -std::numeric_limits<double>::infinity()})),
              "value 1 is infinite");
}

TEST(NpyFile, FilesAreReadSafely) {
  const ScratchFolder folder;
  EXPECT_THROW(readNpyFile(folder.path() / "missing.npy"), DataError);
  try {
    readNpyFile(folder.write("bad.npy", "not numpy"));
    FAIL() << "no error";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("/bad.npy': not an NPY file"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace rfscope
