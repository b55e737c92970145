"""PEP 517 build backend of the Python package `rfscope` (pyproject.toml names it).

`pip install .` (and `pip wheel .`) from the source tree build only the Python module — the C++
core and its pybind11 extension, no Qt — with CMake (RFSCOPE_GUI=OFF), then pack the wheel:

    rfscope/__init__.py, sklearn.py, torch.py, _core.pyi,        the package as the build tree
        py.typed, _core.<abi>.so                                 holds it
    rfscope/data/uci/, rfscope/data/mnist/                       the bundled data sets, found next
                                                                 to the extension at run time
    rfscope-<version>.dist-info/                                 METADATA from pyproject.toml

Standard library only (Debian's pip installs it with --no-build-isolation, no download). Where the
CMake build happens:
    RFSCOPE_CMAKE_BUILD_DIR (environment) or config setting build-dir: an existing, configured
        build tree (e.g. build/release) whose module target is brought up to date and packed;
    otherwise build/python in the source tree, configured here for the module alone.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.machinery
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple

_ROOT = Path(__file__).resolve().parents[2]
_MODULE_TARGET = "rfscope_python_core"


def _project() -> Dict:
    with open(_ROOT / "pyproject.toml", "rb") as file:
        project = tomllib.load(file)["project"]
    # One version for the programs, the Debian package and the wheel: the CMake project's.
    found = re.search(r"project\(RFScope VERSION ([0-9.]+)",
                      (_ROOT / "CMakeLists.txt").read_text(encoding="utf-8"))
    if not found:
        raise RuntimeError("CMakeLists.txt: no 'project(RFScope VERSION x.y.z' to take the version")
    project["version"] = found.group(1)
    return project


def _tag() -> str:
    version = f"{sys.version_info.major}{sys.version_info.minor}"
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"cp{version}-cp{version}-{platform}"


def _run(command: List[str]) -> None:
    print("rfscope build:", " ".join(command), file=sys.stderr, flush=True)
    subprocess.run(command, check=True, cwd=_ROOT)


def _build_module(config_settings: Optional[Dict]) -> Path:
    """Builds the extension; returns the build tree's package folder (app/python/rfscope)."""
    given = os.environ.get("RFSCOPE_CMAKE_BUILD_DIR") or (config_settings or {}).get("build-dir")
    if given:
        build = Path(given)
        if not build.is_absolute():
            build = _ROOT / build
        if not (build / "CMakeCache.txt").is_file():
            raise RuntimeError(f"{build} is not a configured CMake build tree (no CMakeCache.txt)")
    else:
        build = _ROOT / "build" / "python"
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        _run(["cmake", "-S", str(_ROOT), "-B", str(build), *generator,
              "-DCMAKE_BUILD_TYPE=Release", "-DRFSCOPE_GUI=OFF", "-DRFSCOPE_PYTHON=ON",
              "-DRFSCOPE_BUILD_TESTS=OFF", "-DRFSCOPE_BUILD_BENCHMARKS=OFF", "-DRFSCOPE_CUDA=OFF",
              "-DRFSCOPE_MPI=OFF", f"-DPython3_EXECUTABLE={sys.executable}"])
    _run(["cmake", "--build", str(build), "--target", _MODULE_TARGET, "--parallel",
          str(os.cpu_count() or 1)])
    package = build / "app" / "python" / "rfscope"
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    if not any(p.name.startswith("_core") and p.name.endswith(suffixes) for p in package.iterdir()):
        raise RuntimeError(f"{package} holds no extension this Python can import "
                           f"(suffixes {', '.join(suffixes)}): was the build tree configured for "
                           f"another interpreter?")
    return package


def _package_files(package: Path) -> List[Tuple[str, Path]]:
    """(path in the wheel, file) for the package and its data."""
    files = [(f"rfscope/{p.name}", p) for p in sorted(package.iterdir())
             if p.is_file() and (p.suffix in (".py", ".pyi", ".so") or p.name == "py.typed")]
    for folder, patterns in (("uci", ("*.data", "*.txt", "README.md")),
                             ("mnist", ("*.gz", "README.md"))):
        source = _ROOT / "resources" / folder
        for pattern in patterns:
            files += [(f"rfscope/data/{folder}/{p.name}", p) for p in sorted(source.glob(pattern))]
    return files


def _metadata(project: Dict) -> str:
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}",
             f"Version: {project['version']}", f"Summary: {project['description']}",
             f"Requires-Python: {project['requires-python']}"]
    lines += [f"License: {project['license']['text']}"] if "license" in project else []
    lines += [f"Requires-Dist: {d}" for d in project.get("dependencies", [])]
    for extra, requirements in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {r}; extra == "{extra}"' for r in requirements]
    readme = project.get("readme")
    if readme:
        lines.append("Description-Content-Type: text/markdown")
    text = "\n".join(lines) + "\n"
    if readme:
        text += "\n" + (_ROOT / readme).read_text(encoding="utf-8")
    return text


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings: Optional[Dict] = None) -> List[str]:
    return []


def build_wheel(wheel_directory: str, config_settings: Optional[Dict] = None,
                metadata_directory: Optional[str] = None) -> str:
    project = _project()
    package = _build_module(config_settings)
    name, version = project["name"], project["version"]
    dist_info = f"{name}-{version}.dist-info"
    wheel_name = f"{name}-{version}-{_tag()}.whl"
    contents: List[Tuple[str, bytes]] = [(arcname, path.read_bytes())
                                         for arcname, path in _package_files(package)]
    contents += [
        (f"{dist_info}/METADATA", _metadata(project).encode()),
        (f"{dist_info}/WHEEL", (f"Wheel-Version: 1.0\nGenerator: rfscope_build_backend\n"
                                f"Root-Is-Purelib: false\nTag: {_tag()}\n").encode()),
        (f"{dist_info}/top_level.txt", b"rfscope\n"),
    ]
    record = [_record_line(arcname, data) for arcname, data in contents]
    record.append(f"{dist_info}/RECORD,,")
    contents.append((f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode()))
    target = Path(wheel_directory) / wheel_name
    temporary = target.with_suffix(".partial")
    with zipfile.ZipFile(temporary, "w", compression=zipfile.ZIP_DEFLATED) as wheel:
        for arcname, data in contents:
            info = zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if arcname.endswith(".so") else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
    os.replace(temporary, target)
    return wheel_name
