#pragma once
// Latency bounds in tests are scaled, never removed, where sanitizers slow the code down: the
// "asan" preset (AddressSanitizer + UndefinedBehaviorSanitizer at -O1) runs a few times slower
// than the release build, and less evenly. Use: EXPECT_LT(seconds, 0.05 * kLatencyScale).

namespace rfscope::test {

#if defined(__SANITIZE_ADDRESS__)  // gcc
inline constexpr double kLatencyScale = 5;
#elif defined(__has_feature)  // clang
#if __has_feature(address_sanitizer)
inline constexpr double kLatencyScale = 5;
#else
inline constexpr double kLatencyScale = 1;
#endif
#else
inline constexpr double kLatencyScale = 1;
#endif

}  // namespace rfscope::test
