"""The human game's deal: codes from seeds, a code or a day given, and replay over --json."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from twofold.core.codes import CodeError  # noqa: E402
from twofold.core.daily import daily_code  # noqa: E402


def test_a_seed_gives_a_code_and_the_same_seed_the_same_games() -> None:
    env = gym.make("twofold/2048-v0")
    first = [env.reset(seed=5)[1]["code"], env.reset()[1]["code"], env.reset()[1]["code"]]
    again = [env.reset(seed=5)[1]["code"], env.reset()[1]["code"], env.reset()[1]["code"]]
    assert first == again and len(set(first)) == 3
    assert env.reset(seed=6)[1]["code"] != first[0]


def test_a_code_or_a_day_is_played_as_given() -> None:
    assert gym.make("twofold/2248-v0").reset(options={"code": "kaf3-q0d0"})[1]["code"] == "KAF3Q0D0"
    env = gym.make("twofold/2248-daily-v0")
    day = daily_code("2248-daily", date(2026, 12, 1))
    assert env.reset(options={"code": day.lower()})[1]["code"] == day  # a daily code is taken
    with pytest.raises(ValueError, match="not a daily code"):
        env.reset(options={"code": "kaf3-q0d0"})
    assert env.reset(options={"daily": "2026-12-01"})[1]["code"] == day
    assert env.reset(options={"daily": date(2026, 12, 1)})[1]["code"] == day


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"code": "KAF3-Q0D1"}, CodeError),
        ({"daily": "1 December"}, ValueError),
        ({"code": "KAF3Q0D0", "daily": "2026-12-01"}, ValueError),
        ({"level": 3}, ValueError),
    ],
)
def test_bad_options_are_one_line(options: dict[str, object], error: type) -> None:
    env = gym.make("twofold/2048-v0")
    with pytest.raises(error) as raised:
        env.reset(options=options)
    assert "\n" not in str(raised.value)


def test_the_code_is_never_observed() -> None:
    env = gym.make("twofold/2248-v0")
    observation, info = env.reset(seed=3)
    assert set(observation) == {"board", "chain", "powerups", "aimed"}
    assert info["code"] not in repr(observation)


def random_episode(env_id: str, steps: int, seed: int, **reset: object) -> tuple[str, list]:
    """A code and, for each command sent, (command, board, score) after it."""
    env = gym.make(env_id)
    rng = np.random.default_rng(seed)
    _observation, info = env.reset(seed=seed, **reset)
    code, sent = info["code"], []
    for _step in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        if not len(legal):
            break
        _observation, _reward, over, _cut, info = env.step(legal[rng.integers(len(legal))])
        if info["command"] is not None:
            state = env.unwrapped.episode.state
            sent.append((info["command"], [list(row) for row in state.board], state.score))
        if over:
            break
    return code, sent


@pytest.mark.slow
@pytest.mark.parametrize(
    ("mode_id", "steps", "reset"),
    [
        ("2048", 300, {}),
        ("2248", 200, {}),
        ("2248-daily", 150, {"options": {"daily": "2026-12-01"}}),
    ],
)
def test_an_episode_replays_identically_over_json(
    mode_id: str, steps: int, reset: dict[str, object]
) -> None:
    code, sent = random_episode(f"twofold/{mode_id}-v0", steps, seed=11, **reset)
    assert len(sent) > 10
    lines = "".join(command + "\n" for command, _board, _score in sent) + "quit\n"
    done = subprocess.run(
        [sys.executable, "-m", "twofold", "play", mode_id, "--code", code, "--json"],
        input=lines, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    replies = [json.loads(line) for line in done.stdout.splitlines()][1:]
    for (command, board, score), reply in zip(sent, replies, strict=False):
        assert reply["changed"], f"{command!r}: {reply.get('error')}"
        assert (reply["board"], reply["score"]) == (board, score), command
