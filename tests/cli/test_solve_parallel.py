"""``twofold solve`` over worker processes and a Dask cluster: the same games, in order."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.processes import alive, cpu_seconds, descendants
from tests.waiting import wait_until
from twofold.ui.command.cli import main

CODE = "1NYG88J8"
#: a handful of short games: they stop at 256 and look one move ahead
SHORT = ["solve", "--games", "5", "--depth", "1", "--stop-at", "256", "--code", CODE, "--json"]


def solved(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, object]:
    assert main([*SHORT, *extra]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_two_workers_play_the_same_games_in_the_same_order(
    capsys: pytest.CaptureFixture[str],
) -> None:
    one = solved(capsys, "--workers", "1")
    two = solved(capsys, "--workers", "2")
    assert one["results"] == two["results"]
    assert one["results"][0]["code"] == CODE  # type: ignore[index]
    results = one["results"]
    assert isinstance(results, list)
    # each game played to its end: 256 reached, or (a greedy search) no move left before it
    assert {r["largest"] for r in results} <= {128, 256}
    assert sum(r["largest"] == 256 for r in results) >= 4
    for key in ("games", "reached", "mean_score", "median_score", "largest", "moves"):
        assert one[key] == two[key]


@pytest.mark.slow
def test_a_dask_cluster_plays_the_same_games(capsys: pytest.CaptureFixture[str]) -> None:
    distributed = pytest.importorskip(
        "distributed", reason="Dask distributed is not installed (pip install twofold[cluster])"
    )
    one = solved(capsys, "--workers", "1")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        on_cluster = solved(capsys, "--cluster", cluster.scheduler_address)
    assert on_cluster["results"] == one["results"]


def test_an_unreachable_scheduler_is_one_line_within_seconds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("distributed", reason="Dask distributed is not installed")
    started = time.monotonic()
    assert main(["solve", "--cluster", "tcp://127.0.0.1:1"]) == 2
    assert time.monotonic() - started < 8
    err = capsys.readouterr().err
    assert err == "twofold: cannot reach the Dask scheduler at tcp://127.0.0.1:1\n"


def test_without_dask_the_cluster_says_how_to_install_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    assert main(["solve", "--cluster", "tcp://127.0.0.1:8786"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install twofold[cluster]" in err


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_ctrl_c_stops_every_worker_and_prints_the_games_finished(tmp_path: Path) -> None:
    env = {**os.environ, "TWOFOLD_HOME": str(tmp_path)}
    argv = ["solve", "--games", "100000", "--depth", "1", "--workers", "2", "--code", CODE]
    solve = subprocess.Popen(
        [sys.executable, "-m", "twofold.ui.command.cli", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        # a test run started in the background ignores SIGINT, and a child inherits that:
        # the solver would never see the Ctrl+C (it played on for minutes)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    workers: set[int] = (
        wait_until(lambda: len(descendants(solve.pid)) >= 2 and descendants(solve.pid), 30) or set()
    )
    # let the workers finish some games: three seconds of their CPU is past their start-up
    # (0.6 s each with the proof codec and the front: one second was not) and some hundred
    # depth-1 games (a fixed sleep was not, when busy)
    wait_until(lambda: sum(map(cpu_seconds, workers)) >= 3, 120)
    workers |= descendants(solve.pid)
    solve.send_signal(signal.SIGINT)
    try:
        out, err = solve.communicate(timeout=30)
    finally:
        if solve.poll() is None:  # never leave a solver playing on after a failure
            solve.kill()
            for pid in workers:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
    assert solve.returncode == 130, err
    assert "reached 2048" in out and "Stopped:" in out
    finished = int(out.split("Stopped:")[1].split()[0])
    assert 1 <= finished < 100000
    assert len(workers) >= 2
    wait_until(lambda: not any(alive(pid) for pid in workers), 20)
    assert not [pid for pid in workers if alive(pid)]
