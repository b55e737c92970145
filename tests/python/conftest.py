"""Shared helpers: the rfscope-cli next to the module under test (RFSCOPE_CLI)."""

import json
import os
import subprocess

import pytest


def cli(*arguments):
    """(exit code, stdout, stderr) of rfscope-cli ARGUMENTS."""
    executable = os.environ.get("RFSCOPE_CLI")
    if not executable:
        pytest.skip("RFSCOPE_CLI (the rfscope-cli to compare with) is not set")
    done = subprocess.run([executable, *arguments], capture_output=True, text=True, check=False)
    return done.returncode, done.stdout, done.stderr


def cli_json(*arguments):
    code, out, err = cli(*arguments)
    assert code == 0, err
    return json.loads(out)


def cli_error(*arguments):
    """The message rfscope-cli prints for bad input (exit 2), without its 'rfscope-cli: ' prefix."""
    code, out, err = cli(*arguments)
    assert code == 2, (code, out, err)
    return err.strip().removeprefix("rfscope-cli: ")


def number_list(values):
    return ",".join(repr(float(v)) for v in values)
