"""The six-tuple example (examples/learning/ntuple6.c) builds, learns and says what is wrong."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[2] / "examples" / "learning" / "ntuple6.c"
#: 4 shapes of 16^6 weights, 4 bytes each
WEIGHTS_BYTES = 4 * 16**6 * 4

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def ntuple6(tmp_path_factory: pytest.TempPathFactory) -> Path:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler here")
    program = tmp_path_factory.mktemp("ntuple6") / "ntuple6"
    subprocess.run([compiler, "-O2", "-o", str(program), str(SOURCE), "-lm"], check=True)
    return program


def mean_score(program: Path, weights: Path) -> float:
    """The mean score of 20 greedy games (the same deals for every weights file)."""
    done = subprocess.run(
        [str(program), "play", str(weights), "20", "1"], capture_output=True, text=True, check=True
    )
    found = re.search(r"mean score (\d+)", done.stdout)
    assert found, done.stdout
    return float(found.group(1))


def test_three_cpu_seconds_of_learning_beat_scoring_alone(ntuple6: Path, tmp_path: Path) -> None:
    learned = tmp_path / "learned.bin"
    subprocess.run([str(ntuple6), "train", "0.05", str(learned), "1"], check=True)
    assert learned.stat().st_size == WEIGHTS_BYTES
    untaught = tmp_path / "zero.bin"
    with untaught.open("wb") as out:
        out.truncate(WEIGHTS_BYTES)  # every weight 0: it plays for the score of each move alone
    # seen: about 28,000 against 3,400
    assert mean_score(ntuple6, learned) > 3 * mean_score(ntuple6, untaught)


@pytest.mark.parametrize(
    ("arguments", "code", "said"),
    [
        ((), 2, "usage:"),
        (("play", "weights.bin", "1"), 2, "usage:"),
        (("play", "missing.bin", "1", "1"), 1, "missing.bin is not a file of 67108864 weights"),
    ],
)
def test_bad_calls_get_one_line(
    ntuple6: Path, tmp_path: Path, arguments: tuple[str, ...], code: int, said: str
) -> None:
    done = subprocess.run(
        [str(ntuple6), *arguments], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert done.returncode == code
    assert done.stderr.startswith(said) and done.stderr.count("\n") == 1
    assert not done.stdout
