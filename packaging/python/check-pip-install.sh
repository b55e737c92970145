#!/usr/bin/env bash
# `pip install .` as a Python user runs it, checked: into a fresh virtual environment (Debian's
# NumPy, pytest, pandas, scikit-learn and PyTorch visible through --system-site-packages; nothing is
# downloaded), then the Python test suite from outside the source tree against the installed copy,
# which must find its bundled data sets itself. Run by `packaging/dev.sh test` after the release
# build, whose configured tree (RFSCOPE_CMAKE_BUILD_DIR, default build/release) the backend brings
# up to date and packs instead of building the core a second time.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${RFSCOPE_CMAKE_BUILD_DIR:-$root/build/release}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

/usr/bin/python3 -m venv --system-site-packages "$scratch/venv"
python="$scratch/venv/bin/python"
RFSCOPE_CMAKE_BUILD_DIR="$build" "$python" -m pip install --quiet --no-build-isolation --no-deps \
  --no-index "$root"

cd "$scratch"  # not the source tree: `import rfscope` must be the installed package
"$python" - "$scratch/venv" <<'PYTHON'
import sys
from pathlib import Path

import rfscope

installed = Path(rfscope.__file__).resolve()
assert Path(sys.argv[1]).resolve() in installed.parents, f"imported {installed}, not the venv's"
# The bundled UCI data, found next to the installed extension.
table = rfscope.run("classification", dataset="banknote", features="16", repeats=2)
assert len(table) > 0
print(f"check-pip-install: rfscope {rfscope.__version__} from {installed.parent}, data found")
PYTHON
RFSCOPE_CLI="$build/app/rfscope-cli" PYTHONDONTWRITEBYTECODE=1 \
  "$python" -m pytest -q -p no:cacheprovider "$root/tests/python"
