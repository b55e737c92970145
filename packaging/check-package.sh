#!/usr/bin/env bash
# Builds the Debian package from a finished build and checks it as a user would get it:
#   packaging/check-package.sh BUILD_DIR
# lintian reports no errors; the menu entry and AppStream metadata validate; the programs, unpacked
# into a temporary root (dpkg-deb -x) or installed under a temporary prefix (cmake --install), run
# from there and find their bundled data (rfscope-cli list, run with CSV and PNG output on the MNIST
# digits, rfscope --help offscreen); the Python module imports from the unpacked root and computes;
# the manual pages cover every option of --help.
# Run by ctest (test PackageChecks), and so by packaging/dev.sh test.
set -euo pipefail

build_dir="$(cd "${1:?usage: check-package.sh BUILD_DIR}" && pwd)"
source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
app_id=org.rfscope.rfscope
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
step() { echo "== $*"; }
fail() { echo "check-package: FAILED: $*" >&2; exit 1; }

step "cpack"
cpack --config "$build_dir/CPackConfig.cmake" -G DEB -B "$work/cpack" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; fail "cpack"; }
debs=("$work"/cpack/rfscope_*.deb)
((${#debs[@]} == 1)) && [[ -f "${debs[0]}" ]] ||
  fail "expected one rfscope_*.deb, found: ${debs[*]}"
deb="${debs[0]}"
echo "$(basename "$deb"): $(du -k "$deb" | cut -f1) KiB"
dpkg-deb --field "$deb" Package Version Architecture Section Depends

step "control fields"
[[ "$(dpkg-deb --field "$deb" Package)" == rfscope ]] || fail "package name"
depends="$(dpkg-deb --field "$deb" Depends)"
# dpkg-shlibdeps ran (Qt and oneTBB come from it), and nothing asks for CUDA packages: the runtime
# is static, so the package installs and runs on machines without a GPU.
[[ "$depends" == *libqt6widgets6* && "$depends" == *libtbb12* ]] || fail "Depends lacks shlibdeps"
[[ "$depends" != *cuda* && "$depends" != *nvidia* ]] || fail "Depends asks for CUDA: $depends"

step "lintian"
# Errors fail; warnings are printed (packaging/README.md says why the remaining ones stay).
lintian --fail-on error --display-level ">=warning" --tag-display-limit 0 "$deb" ||
  fail "lintian reported errors"

step "unpack into a temporary root"
root="$work/root"
dpkg-deb -x "$deb" "$root"
bin="$root/usr/bin"
share="$root/usr/share"

step "desktop entry and AppStream metadata"
desktop-file-validate "$share/applications/$app_id.desktop"
appstreamcli validate --no-net --pedantic "$share/metainfo/$app_id.metainfo.xml"
[[ -f "$share/icons/hicolor/scalable/apps/$app_id.svg" ]] || fail "icon missing"
grep -qx "Icon=$app_id" "$share/applications/$app_id.desktop" ||
  fail "the desktop entry names another icon"
grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" \
  "$share/metainfo/$app_id.metainfo.xml" || fail "metainfo launches another desktop entry"
# The variant with screenshots, as written once the project has a public address for them.
cmake -DTEMPLATE="$source_dir/packaging/linux/$app_id.metainfo.xml.in" \
  -DOUTPUT="$work/with-screenshots.metainfo.xml" -DSCREENSHOT_BASE_URL=https://example.org/rfscope \
  -P "$source_dir/packaging/linux/metainfo.cmake"
grep -q "<screenshot type=\"default\">" "$work/with-screenshots.metainfo.xml" ||
  fail "no screenshots"
appstreamcli validate --no-net --pedantic "$work/with-screenshots.metainfo.xml"

step "programs run from the unpacked root and find its data"
unset RFSCOPE_DATA_DIR
export QT_QPA_PLATFORM=offscreen
cd "$work"
"$bin/rfscope-cli" --version
"$bin/rfscope-cli" list >list.json
/usr/bin/python3 -c 'import json
ids = [experiment["id"] for experiment in json.load(open("list.json"))["experiments"]]
assert "variance-vs-sigma" in ids, ids' || fail "rfscope-cli list"
mnist_run=(run variance-vs-sigma --set regime=mnist --set d=16 --set pairs=20 --set sigma-steps=8)
"$bin/rfscope-cli" "${mnist_run[@]}" --csv out.csv --png out.png --width 640 --height 480
grep -q '^# experiment' out.csv && [[ $(grep -vc '^#' out.csv) -ge 9 ]] ||
  fail "CSV: $(head -c 600 out.csv)"
[[ "$(head -c 8 out.png | od -An -tx1 | tr -d ' \n')" == 89504e470d0a1a0a ]] ||
  fail "out.png is no PNG"
"$bin/rfscope" --help >gui-help.txt
grep -q -- --screenshot gui-help.txt || fail "rfscope --help: $(cat gui-help.txt)"
# The digits came from the unpacked root, not from this source tree: without them the run fails.
mv "$share/rfscope/mnist" "$work/mnist-aside"
if "$bin/rfscope-cli" "${mnist_run[@]}" --csv missing.csv 2>missing.txt; then
  fail "the MNIST run succeeded without the package's digits"
fi
grep -q "$share/rfscope" missing.txt || fail "unexpected message: $(cat missing.txt)"
mv "$work/mnist-aside" "$share/rfscope/mnist"
# Installed under another prefix by CMake itself, the programs find their data the same way.
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
"$work/prefix/bin/rfscope-cli" "${mnist_run[@]}" --csv prefix.csv
cmp <(grep -v '^#' out.csv) <(grep -v '^#' prefix.csv) ||
  fail "the prefix install computes otherwise"
# The UCI datasets are installed unchanged beside the digits.
for file in "$source_dir"/resources/uci/*.data "$source_dir"/resources/uci/*.txt; do
  cmp "$file" "$share/rfscope/uci/$(basename "$file")" || fail "uci/$(basename "$file")"
done
# and the classification experiment reads them from there.
"$bin/rfscope-cli" run classification --set dataset=wifi --set features=1 --set repeats=2 \
  --csv classification.csv
grep -q ',accuracy-exact,' classification.csv ||
  fail "classification CSV: $(head -c 600 classification.csv)"

step "the Python module imports from the unpacked root"
if [[ -d "$build_dir/app/python/rfscope" ]]; then
  site="$root/usr/lib/python3/dist-packages"
  [[ -f "$site/rfscope/__init__.py" ]] || fail "the package lacks the Python module"
  PYTHONPATH="$site" /usr/bin/python3 -c '
import sys, rfscope
assert rfscope.__file__.startswith(sys.argv[1]), rfscope.__file__
v = rfscope.variance("oprf", [0.1, 0.2, 0.3], [0.3, -0.1, 0.5], m=4)
assert -10 < v.log_variance < 0, v
fmap = rfscope.feature_map("pos", "simrf", 8, 3, 1)
assert fmap.transform([[0.1, 0.2, 0.3]]).shape == (1, 8)
print("rfscope", rfscope.__version__, "from", rfscope.__file__)' "$site" || fail "import rfscope"
fi

step "manual pages cover every option of --help"
for program in rfscope rfscope-cli; do
  page="$(MANWIDTH=200 man -l "$share/man/man1/$program.1.gz" 2>/dev/null)"
  for option in $("$bin/$program" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
    grep -qF -- "$option" <<<"$page" || fail "man page of $program lacks $option"
  done
done

echo "check-package: OK"
