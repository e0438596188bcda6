"""ui/ is its front ends: a line mode's game runs without the app or Textual being imported."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PLAY_AND_LIST = """
import io, sys
sys.stdin = io.TextIOWrapper(io.BytesIO(b"left\\nquit\\n"))
from twofold.ui.command.cli import main
status = main(["play", "2048", "--json"])
loaded = sorted({name.split(".")[0] for name in sys.modules} & {"textual"})
front_ends = sorted(n for n in sys.modules if n.startswith(("twofold.ui.app", "twofold.ui.web")))
print(status, loaded, front_ends, file=sys.stderr)
"""


def test_a_json_game_imports_neither_the_app_nor_textual(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PLAY_AND_LIST],
        env={**os.environ, "TWOFOLD_HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout.count("\n") == 3  # the start, left, quit: one JSON line each
    assert done.stderr.strip().splitlines()[-1] == "0 [] []"
