"""Episodes exact to the end and tools that work out of the box: the terminated mask, the
actions refused, bounded messages, the daily for real, rewards, limits, the clock, images,
copies, pickles and spawned vector environments."""

from __future__ import annotations

import copy
import math
import pickle
from datetime import date

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from tests.plugins.test_contract import REGISTRY  # noqa: E402
from twofold.core._events import Merged  # noqa: E402
from twofold.core.daily import daily_code, utc_today  # noqa: E402
from twofold.core.palette import rgb  # noqa: E402
from twofold.core.verify import verify  # noqa: E402
from twofold.rl import TwofoldEnv  # noqa: E402
from twofold.rl.registration import MAX_EPISODE_STEPS  # noqa: E402

BUILT_IN = ("2048", "2048-5x5", "2048-6x6", "2048-daily", "2248", "2248-daily", "2248-blitz")


def random_steps(env: gym.Env, rng: np.random.Generator, steps: int, info: dict) -> tuple:
    """Up to ``steps`` random legal steps; the last step's (info, terminated, truncated)."""
    over = cut = False
    for _step in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        _obs, _reward, over, cut, info = env.step(legal[rng.integers(len(legal))])
        if over or cut:
            break
    return info, over, cut


@pytest.mark.parametrize("seed", range(6))
def test_2248_daily_terminates_at_its_last_merge_with_an_all_zero_mask(seed: int) -> None:
    env = gym.make("twofold/2248-daily-v0", results=False)
    rng = np.random.default_rng(seed)
    _obs, info = env.reset(seed=seed)
    for _step in range(20_000):
        legal = np.flatnonzero(info["action_mask"])
        assert len(legal) > 0, "a legal action is left whenever the game goes on"
        _obs, _reward, over, _cut, info = env.step(legal[rng.integers(len(legal))])
        if over:
            break
    assert over
    assert info["action_mask"].sum() == 0
    assert env.unwrapped.action_masks().sum() == 0
    # a step after the end changes nothing and says the episode is over
    _obs, reward, again, _cut, info = env.step(0)
    assert (reward, again, info["invalid"]) == (0.0, True, True)


@pytest.mark.parametrize(
    "action", [1.5, "3", True, np.float64(1.0), None, -1, 4, np.int64(4), [1], np.array([1])]
)
def test_an_action_that_is_not_a_whole_number_in_range_is_refused(action: object) -> None:
    env = gym.make("twofold/2048-v0").unwrapped
    env.reset(seed=0)
    with pytest.raises(ValueError) as raised:
        env.step(action)
    assert "\n" not in str(raised.value) and len(str(raised.value)) < 120


@pytest.mark.parametrize("action", [2, np.int64(2), np.int8(2), np.array(2)])
def test_whole_numbers_of_any_integer_type_are_actions(action: object) -> None:
    env = gym.make("twofold/2048-v0").unwrapped
    env.reset(seed=0)
    env.step(action)


@pytest.mark.parametrize(
    "bad",
    [
        {"options": {"code": "x" * 100_000}},
        {"options": {"daily": "x" * 100_000}},
        {"options": {"y" * 100_000: 1, "z": 2}},
        {"options": "w" * 100_000},
    ],
)
def test_error_messages_are_bounded_whatever_the_input(bad: dict) -> None:
    env = gym.make("twofold/2048-v0").unwrapped
    with pytest.raises(ValueError) as raised:
        env.reset(**bad)
    assert "\n" not in str(raised.value) and len(str(raised.value)) < 200


def test_a_mode_or_reward_given_wrongly_is_one_short_line() -> None:
    for kwargs in ({"mode": "m" * 100_000}, {"reward": "r" * 100_000}, {"day": "d" * 100_000}):
        with pytest.raises(ValueError) as raised:
            TwofoldEnv(**kwargs)
        assert "\n" not in str(raised.value) and len(str(raised.value)) < 400


@pytest.mark.parametrize("mode_id", BUILT_IN)
def test_every_reset_seeded_or_not_ends_in_a_result_verify_accepts(mode_id: str) -> None:
    env = gym.make(f"twofold/{mode_id}-v0")
    mode = env.unwrapped.mode
    # 2048's episodes end within a few hundred random steps: played whole
    steps = 2_000 if mode.controls == "slide" else 40
    for seed in [*range(21), None]:
        rng = np.random.default_rng(seed)
        _obs, info = env.reset(seed=seed)
        if mode.daily:
            assert info["code"] == daily_code(mode_id, utc_today())
        info, over, _cut = random_steps(env, rng, steps, info)
        result = info["result"] if over else env.unwrapped.result()
        verified = verify(result)
        assert verified.status == 0 and verified.differences == [], (seed, result)
        if mode.daily:
            assert verified.day == utc_today()


def test_a_daily_plays_the_day_given_whatever_the_seed() -> None:
    env = gym.make("twofold/2048-daily-v0", day="2026-11-30")
    wanted = daily_code("2048-daily", date(2026, 11, 30))
    assert {env.reset(seed=seed)[1]["code"] for seed in range(5)} == {wanted}
    assert env.reset()[1]["code"] == wanted
    _obs, info = env.reset(seed=1)
    info, _over, _cut = random_steps(env, np.random.default_rng(1), 30, info)
    assert verify(env.unwrapped.result()).day == date(2026, 11, 30)


def merges_of(env: TwofoldEnv, action: int) -> list[float]:
    """log2 of each tile the action's command makes, asked of the rules themselves."""
    state = env.episode.state
    command = env.controls.sends[action]
    outcome = env.mode.rules.apply(state, env.mode.rules.parse(command))
    return [math.log2(e.value) for e in outcome.events if isinstance(e, Merged)]


def test_the_log2_and_normalised_rewards() -> None:
    log2 = TwofoldEnv("2048", reward="log2")
    scaled = TwofoldEnv("2048", reward="normalised")
    score = TwofoldEnv("2048")
    rng = np.random.default_rng(2)
    infos = [env.reset(seed=2)[1] for env in (log2, scaled, score)]
    for _step in range(300):
        legal = np.flatnonzero(infos[0]["action_mask"])
        action = int(legal[rng.integers(len(legal))])
        wanted = sum(merges_of(log2, action))
        steps = [env.step(action) for env in (log2, scaled, score)]
        assert steps[0][1] == wanted
        assert steps[1][1] == pytest.approx(wanted / 11)
        assert (steps[2][1] > 0) == (wanted > 0)
        infos = [s[4] for s in steps]
        if steps[0][2]:
            break


def test_an_undo_gives_back_what_its_step_paid_in_log2() -> None:
    env = TwofoldEnv("2248", reward="log2", results=False)
    rng = np.random.default_rng(4)
    _obs, info = env.reset(seed=4)
    undo = env.table.first + [t.word for t in env.table.tools].index("undo")
    paid = 0.0
    while paid == 0.0:
        legal = np.flatnonzero(info["action_mask"][: env.table.first])
        _obs, paid, _over, _cut, info = env.step(int(legal[rng.integers(len(legal))]))
    _obs, back, _over, _cut, info = env.step(undo)
    assert back == -paid > -math.inf and paid > 0


def test_a_score_reward_past_float64s_whole_numbers_is_said() -> None:
    env = TwofoldEnv("2248")
    env.reset(seed=0)
    board = [list(row) for row in env.episode.state.board]
    board[0][0] = board[0][1] = 1 << 60  # a chain of the two: 2**61 points, past 2**53
    env.episode.state = env.mode.rules.from_position({"board": board}, env.episode.code)
    env._mask = env._mask_now()
    env.step(0)
    env.step(1)
    with pytest.warns(RuntimeWarning, match="log2"):
        _obs, reward, *_rest = env.step(1)
    assert reward >= 2.0**61


def test_every_id_where_an_episode_can_run_on_is_cut() -> None:
    assert gym.spec("twofold/2248-v0").max_episode_steps == MAX_EPISODE_STEPS
    assert gym.spec("twofold/2248-daily-v0").max_episode_steps == MAX_EPISODE_STEPS
    for ends in ("2048", "2048-5x5", "2048-6x6", "2048-daily", "2248-blitz"):
        assert gym.spec(f"twofold/{ends}-v0").max_episode_steps is None


def test_blitz_counts_its_clock_in_steps() -> None:
    env = gym.make("twofold/2248-blitz-v0", results=False)
    limit = env.unwrapped.mode.time_limit
    rng = np.random.default_rng(0)
    _obs, info = env.reset(seed=0)
    step = 0
    for step in range(1, 10_000):  # noqa: B007 (the step it ended on)
        legal = np.flatnonzero(info["action_mask"])
        _obs, _reward, over, _cut, info = env.step(legal[rng.integers(len(legal))])
        if over:
            break
    assert step == limit  # one second a step: 180 steps
    assert info["action_mask"].sum() == 0
    slower = gym.make("twofold/2248-blitz-v0", step_seconds=2.0, results=False)
    _obs, info = slower.reset(seed=0)
    info, over, _cut = random_steps(slower, rng, 10_000, info)
    assert over and slower.unwrapped.steps == limit / 2


@pytest.mark.parametrize("mode_id", BUILT_IN)
def test_an_rgb_array_in_the_apps_colours(mode_id: str) -> None:
    # stable-baselines3's make_vec_env asks for rgb_array when no render_mode is given
    env = gym.make(f"twofold/{mode_id}-v0", render_mode="rgb_array")
    env.reset(seed=0)
    image = env.render()
    board = env.unwrapped.episode.state.board
    assert image.dtype == np.uint8 and image.shape == (
        len(board) * 36 + 4, len(board[0]) * 36 + 4, 3)  # fmt: skip
    if mode_id.startswith("2048"):
        r, c = next((r, c) for r, row in enumerate(board) for c, v in enumerate(row) if v == 2)
        assert tuple(image[4 + r * 36 + 16, 4 + c * 36 + 16]) == rgb("#eee4da")


def test_record_video_records_an_episode(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("moviepy")
    env = gym.wrappers.RecordVideo(
        gym.make("twofold/2048-v0", render_mode="rgb_array"), str(tmp_path)
    )
    _obs, info = env.reset(seed=0)
    random_steps(env, np.random.default_rng(0), 50, info)
    env.close()
    assert list(tmp_path.glob("*.mp4"))


def twins_agree(first: gym.Env, second: gym.Env, seed: int) -> None:
    rng = np.random.default_rng(seed)
    info = {"action_mask": first.unwrapped.action_masks().astype(np.int8)}
    for _step in range(30):
        legal = np.flatnonzero(info["action_mask"])
        if not len(legal):
            break
        action = legal[rng.integers(len(legal))]
        a, b = first.step(action), second.step(action)
        assert np.array_equal(
            np.concatenate(
                [np.ravel(v) for v in (a[0].values() if isinstance(a[0], dict) else [a[0]])]
            ),
            np.concatenate(
                [np.ravel(v) for v in (b[0].values() if isinstance(b[0], dict) else [b[0]])]
            ),
        )
        assert a[1:4] == b[1:4] and a[4]["score"] == b[4]["score"]
        info = a[4]
    assert first.reset()[1]["code"] == second.reset()[1]["code"]  # the generator copied too


@pytest.mark.parametrize("mode_id", sorted(REGISTRY.modes))
def test_every_env_deep_copies(mode_id: str) -> None:
    env = TwofoldEnv(REGISTRY.mode(mode_id))
    _obs, info = env.reset(seed=3)
    random_steps(env, np.random.default_rng(3), 10, info)
    twins_agree(env, copy.deepcopy(env), seed=5)


@pytest.mark.parametrize("mode_id", BUILT_IN)
def test_every_registered_env_pickles(mode_id: str) -> None:
    env = gym.make(f"twofold/{mode_id}-v0")
    _obs, info = env.reset(seed=3)
    random_steps(env, np.random.default_rng(3), 10, info)
    twin = pickle.loads(pickle.dumps(env))
    assert copy.deepcopy(env).unwrapped.episode.log == env.unwrapped.episode.log
    twins_agree(env, twin, seed=6)


def test_an_async_vector_env_with_spawn() -> None:
    envs = gym.make_vec(
        "twofold/2048-v0",
        num_envs=2,
        vectorization_mode="async",
        vector_kwargs={"context": "spawn"},
    )
    try:
        _obs, info = envs.reset(seed=0)
        for _step in range(5):
            actions = np.array(
                [np.flatnonzero(m)[0] if m.any() else 0 for m in info["action_mask"]]
            )
            _obs, _rewards, _over, _cut, info = envs.step(actions)
        assert info["action_mask"].shape == (2, 4)
    finally:
        envs.close()
