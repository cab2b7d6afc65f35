"""The example reproduces its table of results/ exactly and draws it."""

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "reproduce_table.py"


def test_the_example_reproduces_the_committed_table_and_plots_it(tmp_path):
    pytest.importorskip("matplotlib")
    pytest.importorskip("pandas")
    png = tmp_path / "dealer.png"
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), str(png)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "70 exact probabilities, each equal to" in done.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
