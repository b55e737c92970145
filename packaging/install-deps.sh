#!/usr/bin/env bash
# Installs the Debian 12 packages RFScope needs to build, test and run — only those missing.
# Non-interactive; runs as root or through sudo. Usage: packaging/install-deps.sh [--gui]
#   --gui  also installs what the GUI needs to show a window on an X display (not needed for tests).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  qt6-base-dev qt6-svg-dev qt6-qpa-plugins libqcustomplot-dev libgl-dev
  libeigen3-dev libtbb-dev librandom123-dev libboost-math-dev nlohmann-json3-dev zlib1g-dev libhwy-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang-14 libclang-rt-14-dev
  libopenmpi-dev openmpi-bin
  python3 python3-mpmath python3-numpy python3-scipy
  # the Python module (app/python) and its pytest suites (tests/python); python3-torch for
  # rfscope.torch (Debian's CPU build: its CUDA test runs only where torch sees a GPU)
  python3-dev pybind11-dev python3-pybind11 python3-pytest python3-pandas python3-sklearn
  python3-mypy python3-torch
  # NumPy's BLAS for the feature maps' comparison (tests/benchmarks/python), as users have it
  libopenblas0-pthread python3-threadpoolctl
  xvfb xauth fonts-dejavu-core
  # the Debian package and its checks (packaging/check-package.sh)
  dpkg-dev file man-db lintian desktop-file-utils appstream
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
if ((EUID == 0)); then
  sudo_cmd=()
elif command -v sudo >/dev/null; then
  sudo_cmd=(sudo)
else
  echo "install-deps: need root or sudo to install: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
