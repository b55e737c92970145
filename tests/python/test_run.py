"""Experiments from Python: the table `rfscope-cli run` writes, as NumPy columns with metadata."""

import csv
import io
import json

import numpy as np
import pytest

import rfscope
from conftest import cli


def cli_table(*arguments):
    code, out, err = cli("run", *arguments)
    assert code == 0, err
    lines = out.splitlines()
    comments = [line for line in lines if line.startswith("#")]
    rows = list(csv.reader(io.StringIO("\n".join(l for l in lines if not l.startswith("#")))))
    header, body = rows[0], rows[1:]
    # An empty cell is a missing value.
    number = lambda field: float(field) if field else np.nan
    return comments, {key: np.array([number(r[i]) for r in body]) for i, key in enumerate(header)}


def columns_of(result):
    if isinstance(result, dict):
        return {k: v for k, v in result.items() if not k.startswith("_")}, result["_metadata"]
    return {k: result[k].to_numpy() for k in result.columns}, result.attrs


def test_run_equals_the_cli_table():
    settings = {"d": 8, "pairs": 20, "sigma-steps": 12}
    arguments = ["variance-vs-sigma"]
    for key, value in settings.items():
        arguments += ["--set", f"{key}={value}"]
    comments, expected = cli_table(*arguments)
    columns, metadata = columns_of(rfscope.run("variance-vs-sigma", **settings))
    assert list(columns) == list(expected)
    for key, values in expected.items():
        np.testing.assert_array_equal(columns[key], values)  # the CSV holds 17 digits
    assert metadata["experiment"] == "variance-vs-sigma"
    assert metadata["parameters"]["d"] == 8
    for key, value in metadata["comments"]:
        assert any(key in line and value in line for line in comments)


def test_presets_and_list_parameters():
    preset = rfscope.presets()[0]
    columns, metadata = columns_of(rfscope.run(preset=preset["id"]))
    assert metadata["experiment"] == preset["experiment"]
    assert all(len(v) == len(next(iter(columns.values()))) for v in columns.values())


def test_a_preset_run_carries_its_claim_and_verdict():
    _, metadata = columns_of(rfscope.run(preset="crt-fig2-normal"))
    claim = metadata["claim"]
    assert claim["text"].startswith("OPRF has the lowest variance")
    assert claim["holds"] and all(a["holds"] for a in claim["assertions"])
    # At d = 4 OPRF is no longer below TrigRF from σ = 0.25 on: the verdict says so, with numbers.
    _, metadata = columns_of(rfscope.run(preset="crt-fig2-normal", d=4))
    assert not metadata["claim"]["holds"]
    failed = [a for a in metadata["claim"]["assertions"] if not a["holds"]]
    assert failed[0]["text"] == "OPRF below TrigRF for σ ≥ 0.25"
    assert "above TrigRF" in failed[0]["detail"]
    code, out, _ = cli("run", "--preset", "crt-fig2-normal", "--set", "d=4", "--check")
    assert code == 4 and failed[0]["detail"] in out
    # An experiment's own defaults claim nothing.
    _, metadata = columns_of(rfscope.run("hybrid-relative-error"))
    assert "claim" not in metadata


def test_a_dataframe_when_pandas_is_installed():
    pandas = pytest.importorskip("pandas")
    frame = rfscope.run("variance-vs-sigma", d=4, pairs=5, **{"sigma-steps": 3})
    assert isinstance(frame, pandas.DataFrame)
    assert frame.shape[0] == 3 and "sigma" in frame.columns
    assert frame.attrs["experiment"] == "variance-vs-sigma"
    assert frame.attrs["parameters"]["pairs"] == 5


def test_shipped_datasets_are_found_next_to_the_module():
    # The data lies beside RFScope, not beside the Python interpreter (/proc/self/exe): a module
    # run from the build tree or an installed copy finds the UCI sets without RFSCOPE_DATA_DIR.
    import os
    assert "RFSCOPE_DATA_DIR" not in os.environ
    columns, metadata = columns_of(rfscope.run("classification", dataset="banknote",
                                               features="1,2", couplings=["iid"], repeats=2))
    assert metadata["parameters"]["dataset"] == "banknote"
    assert len(next(iter(columns.values()))) == 2


def test_output_formats_are_the_registry_the_cli_offers():
    formats = rfscope.output_formats()
    assert [f["id"] for f in formats][:5] == ["csv", "json", "png", "pdf", "svg"]
    assert {f["kind"] for f in formats} == {"table", "figure"}
    code, usage, _ = cli("--help")
    assert code == 0
    for f in formats:
        assert f"[--{f['id']} FILE]" in usage
        assert f["extension"] and f["label"] and f["description"]


def test_run_writes_the_table_files_the_cli_writes(tmp_path):
    settings = {"d": 8, "pairs": 4, "sigma-steps": 5}
    arguments = ["run", "variance-vs-sigma"]
    for key, value in settings.items():
        arguments += ["--set", f"{key}={value}"]
    code, _, err = cli(*arguments, "--csv", str(tmp_path / "cli.csv"), "--json",
                       str(tmp_path / "cli.json"))
    assert code == 0, err
    rfscope.run("variance-vs-sigma", output=str(tmp_path / "py.csv"), **settings)
    rfscope.run("variance-vs-sigma", output=str(tmp_path / "py.data"), output_format="json",
                **settings)
    assert (tmp_path / "py.csv").read_bytes() == (tmp_path / "cli.csv").read_bytes()
    cli_json, py_json = (json.loads((tmp_path / name).read_text()) for name in ("cli.json", "py.data"))
    cli_json.pop("seconds")
    py_json.pop("seconds")
    assert py_json == cli_json


def test_run_refuses_outputs_it_cannot_write(tmp_path):
    with pytest.raises(ValueError, match="no table format's extension"):
        rfscope.run("variance-vs-sigma", output=str(tmp_path / "t.png"), pairs=2)
    with pytest.raises(ValueError, match="unknown table format 'png'"):
        rfscope.run("variance-vs-sigma", output=str(tmp_path / "t.csv"), output_format="png",
                    pairs=2)
    assert not list(tmp_path.iterdir())


def test_keyword_underscores_name_the_hyphenated_parameters():
    underscored, _ = columns_of(rfscope.run("variance-vs-sigma", d=8, pairs=5, sigma_steps=3,
                                            sigma_max=0.5))
    hyphenated, _ = columns_of(rfscope.run("variance-vs-sigma", d=8, pairs=5,
                                           **{"sigma-steps": 3, "sigma-max": 0.5}))
    assert list(underscored) == list(hyphenated)
    for key in hyphenated:
        np.testing.assert_array_equal(underscored[key], hyphenated[key])
    assert len(hyphenated["sigma"]) == 3 and hyphenated["sigma"][-1] == 0.5
