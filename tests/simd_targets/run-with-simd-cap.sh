#!/usr/bin/env bash
# run-with-simd-cap.sh SET COMMAND [ARG]...: runs COMMAND with the Monte Carlo kernels capped at
# the instruction set SET (RFSCOPE_SIMD: scalar, sse4, avx2, avx512), so that this machine computes
# what a machine with SET at most computes. Exits 77 (CTest: skipped) where this CPU lacks SET.
set -euo pipefail
set_name=$1
shift
case "$set_name" in
  scalar) flag="" ;;
  sse4) flag=sse4_1 ;;
  avx2) flag=avx2 ;;
  avx512) flag=avx512f ;;
  *)
    echo "run-with-simd-cap.sh: unknown instruction set '$set_name'" >&2
    exit 2
    ;;
esac
if [[ -n "$flag" ]] && ! grep -qw "$flag" /proc/cpuinfo; then
  echo "skipped: this CPU has no $set_name"
  exit 77
fi
RFSCOPE_SIMD=$set_name exec "$@"
