#!/usr/bin/env bash
# The CUDA backend's checks on a machine with an NVIDIA GPU, in one command: builds the backend for
# this GPU, runs its tests (GPU vs CPU agreement for every mechanism and coupling, reproducibility,
# cancellation, agreement with the closed forms), its benchmarks (GPU, CPU on all cores, and the
# random-number ceiling), the PyTorch reference and rfscope.torch's tests when PyTorch with CUDA is
# installed, and prints the throughput ratios against the targets.
#   tests/gpu/run-gpu-checks.sh [RESULTS_DIR]        (default: build/gpu/results)
# Needs the CUDA toolkit (nvcc) and the packages of packaging/install-deps.sh.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build="$root/build/gpu"
results=${1:-"$build/results"}
mkdir -p "$results"

if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$results/gpu.csv"
else
  echo "run-gpu-checks: nvidia-smi not found: is there an NVIDIA GPU and driver?" >&2
fi
"$root/packaging/install-deps.sh"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRFSCOPE_CUDA=ON \
  -DRFSCOPE_GPU_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=native
cmake --build "$build" --parallel "$(nproc)" --target gpu_tests gpu_benchmark rfscope-cli

status=0
"$build/tests/gpu/gpu_tests" --gtest_output="json:$results/gpu_tests.json" 2>&1 |
  tee "$results/gpu_tests.txt" || status=1

"$build/tests/benchmarks/gpu/gpu_benchmark" --benchmark_format=json \
  --benchmark_out="$results/gpu_benchmark.json" --benchmark_out_format=json \
  --benchmark_repetitions=3 --benchmark_report_aggregates_only=true || status=1

if python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
  python3 "$root/tests/benchmarks/gpu/torch_reference.py" --json >"$results/torch_reference.json" ||
    status=1
  # rfscope.torch on the device (features and attention in float64, float16, bfloat16; gradients).
  cmake --build "$build" --parallel "$(nproc)" --target rfscope_python_core
  PYTHONPATH="$build/app/python" python3 -m pytest -q -p no:cacheprovider \
    "$root/tests/python/test_torch.py" 2>&1 | tee "$results/python_torch.txt" || status=1
else
  echo "run-gpu-checks: PyTorch with CUDA is not installed: the PyTorch comparison is skipped"
fi

python3 "$root/tests/gpu/summarize_gpu_results.py" "$results" || status=1
exit $status
