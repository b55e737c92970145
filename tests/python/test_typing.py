"""The package's types, as a user's type checker sees them: mypy accepts typed code that uses the
API as documented and rejects code that misuses it, with the errors on the lines that misuse it."""

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import rfscope

pytest.importorskip("mypy")

GOOD = '''
from typing import Any

import numpy as np
from numpy.typing import NDArray
import rfscope

x: NDArray[np.float64] = np.zeros((10, 3))
v = rfscope.variance("pos", x, x + 0.1, m=8, all_pairs=True)
log_v: float | NDArray[np.float64] = v.log_variance
mc: rfscope.MonteCarlo = rfscope.monte_carlo("pos", [0.1, 0.2], [0.0, 0.3], m=4)
low, high = mc.ci95
counts: NDArray[np.int64] = mc.histogram.counts
exact: float | None = None if mc.analytic is None else mc.analytic.log_variance
fmap = rfscope.feature_map("oprf", "orf", m=16, data=x)
features: NDArray[np.floating[Any]] = fmap.transform(x, dtype=np.float32)
values, log_scale = fmap.transform_scaled(x)
k: NDArray[np.float64] = fmap.kernel(x, x)
ids: list[str] = [m["id"] for m in rfscope.mechanisms()]
'''

BAD = '''
import rfscope

mc = rfscope.monte_carlo("pos", [0.1], [0.2], m=4)
print(mc.varience)
rfscope.variance("pos", [0.1], [0.2], m="4")
text: str = rfscope.feature_map("pos", m=4, d=1).transform([[0.1]])
rfscope.feature_map("pos", m=4, d=1).transform([[0.1]], keys=True)
'''


def mypy(tmp_path: Path, *files: str) -> subprocess.CompletedProcess:
    # The installed or built package as the checker's search path (a copy: mypy does not read
    # PYTHONPATH, and refuses site-packages as MYPYPATH).
    package = Path(rfscope.__file__).parent
    search = tmp_path / "path"
    shutil.copytree(package, search / "rfscope",
                    ignore=lambda folder, names: [n for n in names
                                                  if not n.endswith((".py", ".pyi", "py.typed"))])
    environment = dict(os.environ, MYPYPATH=str(search))
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--ignore-missing-imports",
         "--cache-dir", str(tmp_path / "cache"), "--no-error-summary", "--show-error-codes",
         *files],
        capture_output=True, text=True, cwd=tmp_path, env=environment, check=False)


def test_typed_use_passes_and_misuse_is_caught_where_it_happens(tmp_path):
    (tmp_path / "good.py").write_text(textwrap.dedent(GOOD))
    (tmp_path / "bad.py").write_text(textwrap.dedent(BAD))
    done = mypy(tmp_path, "good.py", "bad.py")
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert not [e for e in errors if not e.startswith("bad.py")], done.stdout
    flagged = {int(re.match(r"bad\.py:(\d+):", e).group(1)) for e in errors}
    # Line numbers of BAD (after its leading blank line): every misuse, and nothing else.
    assert flagged == {5, 6, 7, 8}, done.stdout
    assert "has no attribute \"varience\"" in done.stdout
    assert "[arg-type]" in done.stdout and "[assignment]" in done.stdout
    assert "[call-arg]" in done.stdout


def test_the_package_is_fully_annotated(tmp_path):
    """Every function of the package has annotations mypy can check (no untyped defs)."""
    package = Path(rfscope.__file__).parent
    sources = [str(p) for p in sorted(package.glob("*.py")) if p.name != "torch.py"]
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--ignore-missing-imports", "--disallow-untyped-defs",
         "--disallow-incomplete-defs", "--cache-dir", str(tmp_path / "cache"),
         "--show-error-codes", "--no-error-summary", "--follow-imports=silent", *sources],
        capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
