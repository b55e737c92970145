#pragma once
// Programmer misuse — a precondition every caller must have checked, such as training and test
// points of the same dimension — is asserted: RFSCOPE_EXPECTS stops the program with the message
// and the place, in every build type (a plain assert vanishes under NDEBUG, and the misuse would
// read past an array instead). Bad user input is never asserted: it throws InvalidParameter
// (core/params/invalid_parameter.h) before it reaches such a precondition.

#include <cstdio>
#include <cstdlib>

namespace rfscope::detail {

[[noreturn]] inline void contractViolated(const char* condition, const char* message,
                                          const char* file, int line) {
  std::fprintf(stderr, "%s:%d: precondition '%s' violated: %s\n", file, line, condition, message);
  std::abort();
}

}  // namespace rfscope::detail

#define RFSCOPE_EXPECTS(condition, message) \
  ((condition) ? static_cast<void>(0)       \
               : ::rfscope::detail::contractViolated(#condition, message, __FILE__, __LINE__))
