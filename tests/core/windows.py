"""A window of the line modes in a process of its own: ``twofold play 2048``, spoken to a
line at a time, on the data folder ``home`` (two of them share its seats and saves)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def window(home: Path, *flags: str) -> subprocess.Popen[str]:
    """``twofold play 2048`` with ``flags`` (``--json``, ``--plain``) on ``home``."""
    return subprocess.Popen(
        [sys.executable, "-m", "twofold.ui.command.cli", "play", "2048", *flags],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TWOFOLD_HOME": str(home)},
    )


def first(played: subprocess.Popen[str]) -> dict[str, Any]:
    """The reply a ``--json`` window starts with."""
    assert played.stdout is not None
    reply: dict[str, Any] = json.loads(played.stdout.readline())
    return reply


def send(played: subprocess.Popen[str], command: str) -> dict[str, Any]:
    """Send a ``--json`` window one command; its reply."""
    assert played.stdin is not None
    played.stdin.write(command + "\n")
    played.stdin.flush()
    return first(played)


def end(played: subprocess.Popen[str]) -> str:
    """Quit a window; what it wrote on stderr."""
    _stdout, stderr = played.communicate("quit\n", timeout=60)
    assert played.returncode == 0, stderr
    return stderr
