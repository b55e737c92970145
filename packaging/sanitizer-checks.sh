#!/usr/bin/env bash
# The checks that need sanitizers, run by `packaging/dev.sh test` after the release tests: the whole
# test suite built with clang under AddressSanitizer + UndefinedBehaviorSanitizer (the "asan" CMake
# preset, build/asan), then every libFuzzer harness for a bounded time (tests/fuzz/run-fuzzers.sh).
#   packaging/sanitizer-checks.sh    RFSCOPE_FUZZ_SECONDS: seconds per harness (default 30)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

start=$(date +%s)
cmake --preset asan
cmake --build --preset asan --parallel "$(nproc)"
built=$(date +%s)
ctest --preset asan --parallel "$(nproc)" --timeout 900
tested=$(date +%s)
tests/fuzz/run-fuzzers.sh "${RFSCOPE_FUZZ_SECONDS:-30}"
echo "sanitizer-checks: build $((built - start)) s, tests $((tested - built)) s," \
     "fuzzing $(($(date +%s) - tested)) s"
