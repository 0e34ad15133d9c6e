"""Shared paths and helpers for the kifu Python tests.

The tests run against the installed ``kifu`` module. Those that compare
with the command line need the ``kifu`` binary (``cargo build --release``,
or ``KIFU_BIN``); those that read the corpus need ``../shared/corpus``
(or ``KIFU_CORPUS``). Each skips with a message saying what is missing.
"""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
CORPUS = pathlib.Path(os.environ.get("KIFU_CORPUS") or ROOT.parent / "shared" / "corpus")


# What a folder walk picks up: the extensions of every record format kifu reads.
RECORD_EXTENSIONS = {".sgf", ".gib", ".ngf", ".ugf", ".ugi"}


def fixture_files():
    """Every record fixture of the repository, in path order."""
    return sorted(p for p in FIXTURES.rglob("*") if p.suffix.lower() in RECORD_EXTENSIONS)


def corpus_dir(part):
    """``CORPUS/part``, or skip the test when it is absent."""
    path = CORPUS / part
    if not path.is_dir():
        pytest.skip(f"{path} is absent (the corpus is not part of a user's clone)")
    return path


def record_files(folder):
    """The record files under ``folder``, in the order kifu walks them."""
    files = [p for p in folder.rglob("*") if p.suffix.lower() in RECORD_EXTENSIONS and p.is_file()]
    files.sort(key=lambda p: [os.fsencode(part) for part in p.relative_to(folder).parts])
    return files


@pytest.fixture(scope="session")
def cli():
    """Runs the kifu binary; returns (exit status, stdout lines, stderr)."""
    binary = pathlib.Path(os.environ.get("KIFU_BIN") or ROOT / "target" / "release" / "kifu")
    if not binary.is_file():
        pytest.skip(f"{binary} is absent: build it with `cargo build --release`, or set KIFU_BIN")

    def run(*args):
        done = subprocess.run([str(binary), *map(str, args)], capture_output=True, text=True, cwd=ROOT)
        return done.returncode, done.stdout.splitlines(), done.stderr

    return run


def json_lines(lines):
    """The JSON objects of JSON Lines output."""
    return [json.loads(line) for line in lines if line.strip()]
