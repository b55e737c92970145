#!/usr/bin/env bash
# Builds the libFuzzer harnesses (the "asan" CMake preset: clang 14, ASan + UBSan, build/asan) and
# runs each for a bounded time, starting from a copy of its committed seed corpus
# (tests/fuzz/corpus/<harness>). Fails when any harness finds a crash, a leak, an input that takes
# over 10 s, or one that needs over 2 GiB; the input is kept in build/asan/fuzz-runs/<harness>/.
#   tests/fuzz/run-fuzzers.sh [SECONDS_EACH]    default 45; FUZZ_JOBS harnesses at once (default 2)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
seconds="${1:-45}"
jobs="${FUZZ_JOBS:-2}"
harnesses=(cli_arguments csv idx npy result session)

cmake --preset asan >/dev/null
cmake --build --preset asan --parallel "$(nproc)" --target "${harnesses[@]/%/_fuzzer}"

runs="$root/build/asan/fuzz-runs"
rm -rf "$runs"

run_one() {
  local name="$1" dir="$runs/$1"
  mkdir -p "$dir/corpus" "$dir/artifacts"
  local dict=()
  [[ -f "tests/fuzz/$name.dict" ]] && dict=("-dict=tests/fuzz/$name.dict")
  # New inputs go to the scratch corpus; the committed seeds are only read.
  if "build/asan/tests/fuzz/${name}_fuzzer" "${dict[@]}" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$dir/artifacts/" \
      "$dir/corpus" "tests/fuzz/corpus/$name" >"$dir/log" 2>&1; then
    echo ok >"$dir/status"
  else
    echo failed >"$dir/status"
  fi
}

running=0
for name in "${harnesses[@]}"; do
  run_one "$name" &
  running=$((running + 1))
  if ((running >= jobs)); then
    wait -n || true
    running=$((running - 1))
  fi
done
wait

failed=0
for name in "${harnesses[@]}"; do
  log="$runs/$name/log"
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  echo "fuzz: $name: $(cat "$runs/$name/status"), ${execs:-?} inputs in ${seconds} s (${rate:-?}/s)"
  if [[ "$(cat "$runs/$name/status")" != ok ]]; then
    failed=1
    grep -E "ERROR|SUMMARY|Test unit written|runtime error" "$log" | head -20 || true
  fi
done
exit "$failed"
