"""The README against the registries and the build, so that neither drifts from the other.

- The module table of "Architecture" lists every module of core/ with exactly the modules its
  core/<module>/CMakeLists.txt DEPENDS on.
- Every mechanism, coupling and experiment of `rfscope-cli list` is named in the README (`id`),
  and every output format of the registry as the option `--id` of `rfscope-cli run`.
- The Python module: the functions of rfscope.__all__ are exactly those the README's Python section
  describes, and the ids its docstrings give as examples (mechanisms, couplings, kernels) exist.

Usage: readme_test.py SOURCE_DIR RFSCOPE_CLI
"""

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def module_table(readme):
    """{module: set of links} from the table under "module  what  links"."""
    lines = readme.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(r"\s+module\s+what\s+links", line))
    column = lines[start].index("links")
    table, current = {}, None
    for line in lines[start + 1:]:
        if line.strip() == "```":
            break
        row = re.match(r"\s+([a-z]+) ─+ ", line)
        if row:
            current = row.group(1)
            check(current not in table, f"README: module '{current}' has two rows")
            table[current] = set()
        links = line[column:].split() if len(line) > column else []
        if current is not None:
            table[current].update(link for link in links if link != "—")
    return table


def declared_dependencies(source):
    """{module: set of DEPENDS} from core/<module>/CMakeLists.txt."""
    out = {}
    for cmake in sorted((source / "core").glob("*/CMakeLists.txt")):
        text = cmake.read_text()
        call = re.search(r"rfscope_core_module\(\s*([a-z]+)(.*?)\)", text, re.S)
        if not call:
            continue
        words = call.group(2).split()
        depends = set()
        if "DEPENDS" in words:
            for word in words[words.index("DEPENDS") + 1:]:
                if word == "SOURCES":
                    break
                depends.add(word)
        out[call.group(1)] = depends
    return out


def main():
    source, cli = Path(sys.argv[1]), sys.argv[2]
    readme = (source / "README.md").read_text()

    table, declared = module_table(readme), declared_dependencies(source)
    check(set(table) == set(declared),
          f"README's module table lists {sorted(table)}, core/ has {sorted(declared)}")
    for module in sorted(set(table) & set(declared)):
        check(table[module] == declared[module],
              f"README: module '{module}' links {sorted(table[module])}, its CMakeLists.txt "
              f"DEPENDS on {sorted(declared[module])}")
    check(readme.count("module        what") == 1, "README: the module table is written twice")

    catalogue = json.loads(subprocess.run([cli, "list", "--compact"], check=True,
                                          capture_output=True, text=True).stdout)
    for kind in ("mechanisms", "couplings", "experiments"):
        for entry in catalogue[kind]:
            check(f"`{entry['id']}`" in readme, f"README never names the {kind[:-1]} `{entry['id']}`")
    usage = subprocess.run([cli, "--help"], check=True, capture_output=True, text=True).stdout
    for option in re.findall(r"\[(--[a-z0-9-]+) FILE\]", usage):
        check(f"{option} " in readme, f"README never shows the output option {option}")

    package = source / "app" / "python" / "rfscope" / "__init__.py"
    tree = ast.parse(package.read_text())
    exported = next(ast.literal_eval(node.value) for node in tree.body
                    if isinstance(node, ast.Assign)
                    and any(getattr(t, "id", None) == "__all__" for t in node.targets))
    functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    exported_functions = {name for name in exported if name in functions}
    python_section = readme[readme.index("## Python"):readme.index("## Architecture")]
    bullets = set(re.findall(r"^- `([a-z_]+)\(", python_section, re.M))
    for name in sorted(exported_functions):
        check(f"`{name}(" in python_section, f"README's Python section never describes {name}()")
    for name in sorted(bullets - exported_functions):
        check(False, f"README's Python section describes {name}(), which rfscope does not export")

    docstrings = [ast.get_docstring(node) or "" for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef))]
    ids = {kind: {entry["id"] for entry in catalogue[kind]} for kind in ("mechanisms", "couplings")}
    ids["kernels"] = {"gaussian", "softmax"}
    for text in docstrings:
        text = " ".join(text.split())
        for kind, pattern in (("mechanisms", r"mechanism: an id of mechanisms\(\) \(([^)]*)\)"),
                              ("couplings", r"coupling: ((?:\"[a-z-]+\"(?:, | or )?)+)"),
                              ("kernels", r"kernel: ((?:\"[a-z-]+\"(?:, | or )?)+)")):
            for match in re.finditer(pattern, text):
                for quoted in re.findall(r"\"([a-z0-9-]+)\"", match.group(1)):
                    check(quoted in ids[kind],
                          f"rfscope docstring names '{quoted}', not among the {kind} {sorted(ids[kind])}")
        catalogue_line = re.search(r"Catalogue: (.*?) Closed forms:", text)
        if catalogue_line:
            for name in re.findall(r"([a-z_]+)\(\)", catalogue_line.group(1)):
                check(name in exported_functions, f"rfscope docstring lists {name}(), not exported")

    for failure in failures:
        print("FAIL:", failure)
    print(f"{len(failures)} problem(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
