#!/usr/bin/env bash
# RFScope from a clean clone on Debian 12, in one command each:
#   packaging/dev.sh run      install missing packages, build the app (not the tests), launch it
#   packaging/dev.sh test     install missing packages, build, run every test (package checks too),
#                             pip install . into a fresh venv and the Python tests against it,
#                             then the test suite under ASan + UBSan and the fuzzers
#                             (packaging/sanitizer-checks.sh)
#   packaging/dev.sh build    install missing packages, build only
#   packaging/dev.sh package  install missing packages, build, write build/release/rfscope_*.deb
# Builds with the "release" CMake preset (RelWithDebInfo) into build/release.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

usage() {
  sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 2
}

# build [TARGET...]: everything, or only the named targets (and what they need).
build() {
  "$root/packaging/install-deps.sh"
  cmake --preset release
  cmake --build --preset release --parallel "$(nproc)" ${1:+--target "$@"}
}

case "${1:-}" in
  run)
    # The app alone (61 of the 218 build commands): the tests are built by `test`.
    build rfscope
    shift
    exec "$root/build/release/app/rfscope" "$@"
    ;;
  test)
    build
    # GUI tests run offscreen: no display is needed.
    QT_QPA_PLATFORM=offscreen ctest --preset release --parallel "$(nproc)" --timeout 600
    # The golden runs print every preset's claim verdict (as `rfscope-cli run --preset ID --check`).
    log="$root/build/release/Testing/Temporary/LastTest.log"
    echo "preset claims: $(grep -c '^verdict: holds' "$log") hold," \
         "$(grep -c '^verdict: does not hold' "$log") do not"
    # pip install . into a fresh venv, then the Python tests against the installed copy.
    "$root/packaging/python/check-pip-install.sh"
    "$root/packaging/sanitizer-checks.sh"
    ;;
  build)
    build
    ;;
  package)
    build
    cpack --preset release
    deb="$(ls -t "$root"/build/release/rfscope_*.deb | head -n 1)"
    echo "Install it with: sudo apt install ./${deb#"$root"/}"
    ;;
  *)
    usage
    ;;
esac
