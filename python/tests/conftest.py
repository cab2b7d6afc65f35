"""What the tests share: the deckodds binary to hold the package to (env
DECKODDS_BIN, else the repository's target/release/deckodds) and a way to
run it."""

import json
import os
import subprocess
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]


def binary() -> Path:
    named = os.environ.get("DECKODDS_BIN")
    path = Path(named) if named else REPOSITORY / "target" / "release" / "deckodds"
    if not path.exists():
        pytest.fail(f"no deckodds binary at {path}: build it (cargo build --release) or set DECKODDS_BIN")
    return path


def cli(*argv: str) -> subprocess.CompletedProcess:
    """Runs the binary quietly; its output and status, never raising."""
    return subprocess.run(
        [str(binary()), "--quiet", *argv], capture_output=True, text=True, timeout=600
    )


def cli_json(*argv: str) -> dict:
    done = cli(*argv, "--format", "json")
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def cli_error(*argv: str) -> str:
    """The one line the binary prints for a command line it refuses (exit
    status 2), as the package words it: without `error: ` and `(see
    --help)`."""
    done = cli(*argv)
    assert done.returncode == 2, (argv, done.returncode, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    line = lines[0]
    assert line.startswith("error: "), line
    line = line[len("error: "):]
    return line[: -len(" (see --help)")] if line.endswith(" (see --help)") else line


def hide_pandas(monkeypatch) -> None:
    """Makes `import pandas` fail for the rest of the test, as on a
    machine without it."""
    import builtins

    real_import = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas" or name.startswith("pandas."):
            raise ImportError("no pandas here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
