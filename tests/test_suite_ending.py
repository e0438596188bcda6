"""A worker's slow end (pytest's last garbage passes over a big heap, on a
busy machine) is never interrupted by execnet's SIGINT, so the suite ends with no warning."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: a test whose full garbage passes each take 1.5 s, as a worker's heap can on a busy
#: machine; an interrupt in its gc callback is written down (execnet waits 5 s, then SIGINT)
SLOW_GARBAGE = """
import gc, time

def _full_pass_is_slow(phase, info):
    if phase == "start" and info["generation"] == 2:
        try:
            time.sleep(1.5)
        except BaseException as interrupt:
            with open("interrupted.txt", "a") as log:
                log.write(repr(interrupt) + "\\n")
            raise

def test_a_heavy_heap():
    gc.callbacks.append(_full_pass_is_slow)
"""


@pytest.mark.slow
def test_a_worker_that_ends_slowly_is_not_interrupted(tmp_path: Path) -> None:
    (tmp_path / "test_heavy.py").write_text(SLOW_GARBAGE)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    # the suite's own conftest as a plugin, on one xdist worker
    argv = [sys.executable, "-m", "pytest", "-q", "-n", "1", "-p", "tests.conftest"]
    argv += ["-p", "no:randomly", "-p", "no:cacheprovider", "-c", os.devnull, "test_heavy.py"]
    result = subprocess.run(
        argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    interrupted = tmp_path / "interrupted.txt"
    assert not interrupted.exists(), interrupted.read_text()
    assert "Warning" not in result.stdout + result.stderr
