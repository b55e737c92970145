#pragma once
// Text with numbers in it, compared with a relative tolerance on the numbers and exactly
// elsewhere: how the golden files are compared where bit-identity is not promised (glibc's libm
// without its FMA code, see libmRunsFmaCode).

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#if defined(__x86_64__) && __has_include(<sys/platform/x86.h>)
#if defined(__clang__)  // glibc's header is C: its inline functions return _Bool, which GCC's C++
#define _Bool bool      // takes as an extension and clang's does not
#include <sys/platform/x86.h>
#undef _Bool
#else
#include <sys/platform/x86.h>
#endif
#define RFSCOPE_HAS_X86_PLATFORM_FEATURES 1
#endif

namespace rfscope::test {

// Whether glibc's libm runs the code it compiled for FMA and AVX2 (exp, log, pow, sin, cos, …),
// as on every CPU that has both: the golden files were written with it. On a CPU without FMA (or
// under GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA) libm runs its SSE2 code, whose results
// differ from the FMA code's by one ulp about once in 1,500 calls.
inline bool libmRunsFmaCode() {
#ifdef RFSCOPE_HAS_X86_PLATFORM_FEATURES
  return CPU_FEATURE_ACTIVE(FMA) && CPU_FEATURE_ACTIVE(AVX2);
#else
  return false;
#endif
}

// The text split into the numbers in it and the text between them.
struct NumericText {
  std::vector<double> numbers;
  std::string skeleton;  // the text with each number replaced by '#'
};

inline NumericText splitNumbers(std::string_view text) {
  NumericText out;
  std::size_t i = 0;
  const auto isDigit = [&](std::size_t k) {
    return k < text.size() && text[k] >= '0' && text[k] <= '9';
  };
  while (i < text.size()) {
    // A number starts at a digit, or at a sign or point before one, not inside a word ("d3").
    const bool wordBefore =
        i > 0 && (std::isalpha(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_');
    std::size_t start = i;
    if (!wordBefore && (text[i] == '-' || text[i] == '+') &&
        (isDigit(i + 1) || (i + 2 < text.size() && text[i + 1] == '.' && isDigit(i + 2))))
      ++i;
    if (!wordBefore && (isDigit(i) || (text[i] == '.' && isDigit(i + 1)))) {
      double value = 0;
      const auto [end, error] = std::from_chars(text.data() + start + (text[start] == '+'),
                                                text.data() + text.size(), value);
      if (error == std::errc()) {
        out.numbers.push_back(value);
        out.skeleton += '#';
        i = static_cast<std::size_t>(end - text.data());
        continue;
      }
    }
    i = start;
    out.skeleton += text[i++];
  }
  return out;
}

// The largest relative difference between the numbers of two texts, number by number.
inline double largestRelativeDifference(const NumericText& e, const NumericText& a) {
  double largest = 0;
  for (std::size_t k = 0; k < std::min(e.numbers.size(), a.numbers.size()); ++k) {
    const double x = e.numbers[k], y = a.numbers[k];
    if (x != y)
      largest = std::max(largest, std::fabs(x - y) / std::max(std::fabs(x), std::fabs(y)));
  }
  return largest;
}

// Why `actual` differs from `expected` beyond `relativeTolerance` (text, or a number whose
// relative difference exceeds it), or nothing where it does not.
inline std::optional<std::string> differenceBeyond(std::string_view expected,
                                                   std::string_view actual,
                                                   double relativeTolerance) {
  const NumericText e = splitNumbers(expected), a = splitNumbers(actual);
  if (e.skeleton != a.skeleton || e.numbers.size() != a.numbers.size())
    return std::string("the text around the numbers differs");
  const double largest = largestRelativeDifference(e, a);
  if (!(largest <= relativeTolerance))
    return "a number differs by " + std::to_string(largest) + " (relative)";
  return std::nullopt;
}

}  // namespace rfscope::test
