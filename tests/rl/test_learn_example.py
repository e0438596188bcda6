"""The learning example's one command (examples/learning/learn.py) learns on the batched
2048, writes what it says, and plays held-out codes to results ``twofold verify`` accepts."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

import twofold.rl  # noqa: E402

gym.register_envs(twofold.rl)

LEARN = Path(__file__).resolve().parents[2] / "examples" / "learning" / "learn.py"
WEIGHTS = 4 * 16**6

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", autouse=True)
def _needs_a_compiler() -> None:
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler here: the example builds ntuple6.c")
    envs = gym.make_vec("twofold/2048-v0", num_envs=1, vectorization_mode="vector_entry_point")
    if not envs.compiled:
        pytest.skip("the batched 2048 is not compiled here: learning would take minutes")


def learn(folder: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(LEARN), "--out", str(folder), *arguments],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], str]:
    """Three CPU seconds of learning on a batch of 256, then 8 held-out codes."""
    folder = tmp_path_factory.mktemp("learn")
    done = learn(folder, "--minutes", "0.05", "--boards", "256", "--every", "50", "--held-out", "8")
    assert done.returncode == 0, done.stderr
    return folder, json.loads((folder / "curve.json").read_text(encoding="utf-8")), done.stdout


def test_it_writes_the_weights_the_curve_and_the_picture(
    run: tuple[Path, dict[str, Any], str],
) -> None:
    folder, report, _out = run
    weights = np.load(folder / "weights.npy", mmap_mode="r")
    assert weights.shape == (WEIGHTS,) and weights.dtype == np.float32
    assert report["training"]["games"] >= 50
    points = report["curve"]
    assert points and all(p["cpu_minutes"] <= 0.1 for p in points)
    assert [p["games"] for p in points] == sorted(p["games"] for p in points)
    assert {"mean_score", "reached_2048", "cpu_minutes", "moves"} <= set(points[-1])
    if importlib.util.find_spec("matplotlib") is None:
        pytest.skip("no matplotlib here: no curve.png to check")
    assert (folder / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_learning_beats_the_untrained_network_on_the_same_codes(
    run: tuple[Path, dict[str, Any], str],
) -> None:
    _folder, report, out = run
    codes = [game["code"] for game in report["held_out_games"]]
    assert len(codes) == len(set(codes)) == 8
    # seen: 15,828 against 2,214 after three CPU seconds (601 games)
    assert report["held_out"]["mean_score"] > 2 * report["untrained"]["mean_score"]
    assert "held out, 8 codes: mean score" in out


def test_the_held_out_codes_were_not_trained_on_and_verify(
    run: tuple[Path, dict[str, Any], str],
) -> None:
    folder, report, _out = run
    games = report["held_out_games"]
    assert report["held_out"]["verified"] == 8
    first = folder / "held-out" / games[0]["result"]
    done = subprocess.run(
        [sys.executable, "-m", "twofold", "verify", str(first)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"Score: {games[0]['score']}" in done.stdout
    assert len(list((folder / "held-out").iterdir())) == 8


def test_an_untrained_network_is_its_own_baseline(tmp_path: Path) -> None:
    done = learn(tmp_path, "--minutes", "0", "--held-out", "3")
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "curve.json").read_text(encoding="utf-8"))
    assert report["training"]["games"] == 0
    assert report["held_out"] == report["untrained"]


@pytest.mark.parametrize(
    ("arguments", "code", "said"),
    [
        (("--minutes", "-1"), 2, "usage:"),
        (("--weights", "missing.npy"), 1, "learn.py: missing.npy cannot be read"),
    ],
)
def test_bad_calls_are_said_without_a_traceback(
    tmp_path: Path, arguments: tuple[str, ...], code: int, said: str
) -> None:
    done = subprocess.run(
        [sys.executable, str(LEARN), "--out", str(tmp_path / "out"), *arguments],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == code
    lines = [
        line for line in done.stderr.splitlines() if not line.startswith("learn.py: matplotlib")
    ]
    assert lines[-1].startswith(said) or lines[0].startswith(said), done.stderr
    assert "Traceback" not in done.stderr
