#!/usr/bin/env bash
# The checks that need sanitizers, run by `packaging/dev.sh test` after the release tests: the whole
# test suite built with clang under AddressSanitizer + UndefinedBehaviorSanitizer (the "asan" CMake
# preset, build/asan), then every libFuzzer harness for a bounded time (tests/fuzz/run-fuzzers.sh).
#   packaging/sanitizer-checks.sh    RFSCOPE_FUZZ_SECONDS: seconds per harness (default 6; six harnesses, two at a time)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

start=$(date +%s)
cmake --preset asan
cmake --build --preset asan --parallel "$(nproc)"
built=$(date +%s)
# The two largest paper reproductions (CRT Table 1, SimRF Table 2: 160 s under ASan) and the
# analytic answers at every reference pair (dense d = 1024 matrices: 190 s under ASan) run in the
# release tests only; the other classification golden runs and the analytic tests at smaller d
# take the same code paths here. So do the reruns as lesser CPUs compute (label simd-targets): the
# same code under another SIMD target or libm, which the release tests check for equal numbers.
# Two tests of what the user sees rather than of memory run in the release tests only too: the
# paper layout of every preset's figure (94 s under ASan; ui_plot_export_tests exports here) and
# the CLI's once-a-second progress during a long run (70 s under ASan, a run made long on purpose).
# So does the coverage study of the Monte Carlo intervals (1800 runs: 22 s under ASan), a
# statistical check; the exact moments it rests on are checked here by ExactTail. And the
# accuracy study of the attention predictions on user arrays (3 inputs × 6 estimators × 60
# redraws), whose code paths the other attention tests take here. The golden files of every
# experiment and preset at their full sizes and the presets' failing variations (270 s of CPU time
# under ASan, numbers compared in the release tests) run here through the experiments' contract
# tests instead, every experiment on its own small and large loads; so do the Monte Carlo
# statistics of the coupled closed forms and of the Maclaurin features, the golden Monte Carlo
# runs (the same samplers as the Monte Carlo tests here), the attention runs on dataset rows and
# the menu-path tests, which run the largest attention presets in the window (57 s under ASan;
# the other window tests run here). So do the four longest statistical runs left (the pointwise
# softmax percentile study, the attention error's thread-count comparison and features-needed
# agreement: 47 s under ASan, their code paths taken here by the other tests of those experiments)
# and the package checks (files of the .deb and the wheel, no code of ours: 26 s).
ctest --preset asan --parallel "$(nproc)" --timeout 900 -LE simd-targets \
  -E 'GoldenExperiment\.|PresetClaimVariation\.|GoldenReferences\.CoupledAndSoftmax|ui_figure_layout_tests|CliOutputFailures\.Item14_|IntervalCoverage\.|PredictionsWithin15Percent|CouplingMonteCarlo\.|TrigOrthogonality\.MonteCarlo|QuasiMonteCarlo\.|GoldenMonteCarlo\.|MaclaurinReference\.MonteCarlo|RunsOnDatasetRows|ui_menu_path_tests|PackageChecks|PointwiseSoftmax\.PercentilesBracketTheTruth|AttentionErrorExperiment\.SameNumbersForAnyThreadCount|AttentionFeaturesNeeded\.PredictedAndMeasured'
tested=$(date +%s)
tests/fuzz/run-fuzzers.sh "${RFSCOPE_FUZZ_SECONDS:-6}"
echo "sanitizer-checks: build $((built - start)) s, tests $((tested - built)) s," \
     "fuzzing $(($(date +%s) - tested)) s"
