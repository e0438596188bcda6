"""The batched 2048: many games a call, each the game ``twofold/2048-v0`` plays for the same
code and actions (boards, rewards, ends, masks), autoreset, results verify; the compiled
batch and its Python fallback play alike."""

from __future__ import annotations

import gc
import os
import time

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

gym = pytest.importorskip("gymnasium")

from twofold.core._deal import draw  # noqa: E402
from twofold.core.daily import daily_code, utc_today  # noqa: E402
from twofold.core.verify import verify  # noqa: E402
from twofold.rl import TwofoldEnv  # noqa: E402
from twofold.rl.batch import BatchEnv  # noqa: E402
from twofold.variants.classic2048.batch import COMPILED, PythonGames, code_number  # noqa: E402
from twofold.variants.classic2048.rules import FOUR_ODDS  # noqa: E402
from twofold.variants.classic2048.slide import trace_line  # noqa: E402

BATCHED = ("2048", "2048-5x5", "2048-6x6", "2048-daily")


def batch(mode_id: str, count: int, **kwargs: object) -> BatchEnv:
    envs = gym.make_vec(
        f"twofold/{mode_id}-v0",
        num_envs=count,
        vectorization_mode="vector_entry_point",
        **kwargs,
    )
    assert isinstance(envs, BatchEnv)
    return envs


def random_legal(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """A random legal move of every game (0 for a game with none: it is started again)."""
    weights = rng.random(masks.shape) * masks
    return weights.argmax(axis=1).astype(np.int64)


@pytest.mark.parametrize("mode_id", BATCHED)
@pytest.mark.parametrize("reward", ["score", "log2"])
def test_every_game_is_the_single_environments_game(mode_id: str, reward: str) -> None:
    count, rng = 4, np.random.default_rng(len(mode_id))
    envs = batch(mode_id, count, reward=reward)
    obs, info = envs.reset(seed=7)
    singles = [TwofoldEnv(mode_id, reward=reward, results=False) for _ in range(count)]
    for i, single in enumerate(singles):
        code, moves = envs.games.playing(i)
        assert moves == b""
        single_obs, single_info = single.reset(options={"code": code})
        assert np.array_equal(single_obs, obs[i])
        assert np.array_equal(single_info["action_mask"], info["action_mask"][i])
    ended = np.zeros(count, bool)
    finished = 0
    # random games of 4x4 end in about 130 moves, of 6x6 in about 1,000
    for _step in range({4: 400, 5: 1_500, 6: 4_000}[obs.shape[1]]):
        actions = random_legal(rng, info["action_mask"])
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert not truncated.any()
        for i, single in enumerate(singles):
            if ended[i]:  # started again, its action unread (next-step autoreset)
                code, moves = envs.games.playing(i)
                assert moves == b""
                single_obs, single_info = single.reset(options={"code": code})
                assert rewards[i] == 0 and not terminated[i]
            else:
                single_obs, reward_i, over, _cut, single_info = single.step(int(actions[i]))
                assert rewards[i] == reward_i and terminated[i] == over
            assert np.array_equal(single_obs, obs[i])
            assert np.array_equal(single_info["action_mask"], info["action_mask"][i])
            assert single_info["score"] == info["score"][i]
        finished += int(terminated.sum())
        ended = terminated
    assert finished > 0  # autoreset was met


def test_finished_episodes_verify_and_daily_boards_are_the_days() -> None:
    for mode_id in ("2048", "2048-daily"):
        envs = batch(mode_id, 8)
        rng = np.random.default_rng(1)
        _obs, info = envs.reset(seed=1)
        results: dict[int, str] = {}
        for _step in range(600):
            _obs, _rewards, terminated, _cut, info = envs.step(
                random_legal(rng, info["action_mask"])
            )
            for i in np.flatnonzero(terminated):
                results[int(i)] = envs.result(int(i))
                assert envs.finished(int(i))[2] == info["score"][i]
            if len(results) >= 3:
                break
        assert len(results) >= 3
        for i, text in results.items():
            verified = verify(text)
            assert verified.status == 0 and verified.differences == []
            if mode_id == "2048-daily":
                assert verified.day == utc_today()
                assert envs.finished(i)[0] == daily_code("2048-daily", utc_today())
        assert verify(envs.result_now(0)).status == 0


def test_the_python_fallback_plays_the_same_games_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from twofold.variants.classic2048 import batch as games

    if not games.COMPILED:
        pytest.skip("the compiled batch is not built here")
    compiled = batch("2048-5x5", 6, reward="log2")
    monkeypatch.setattr(games, "_Compiled", None)
    with pytest.warns(RuntimeWarning, match="not built here"):
        python = batch("2048-5x5", 6, reward="log2")
    assert compiled.compiled and not python.compiled
    rng = np.random.default_rng(3)
    a, b = compiled.reset(seed=3), python.reset(seed=3)
    for _step in range(250):
        assert np.array_equal(a[0], b[0])
        for key in ("action_mask", "score"):
            assert np.array_equal(a[-1][key], b[-1][key])
        actions = random_legal(rng, a[-1]["action_mask"])
        a, b = compiled.step(actions), python.step(actions)
        for one, other in zip(a[1:4], b[1:4], strict=True):
            assert np.array_equal(one, other)
    assert compiled.games.playing(2) == python.games.playing(2)


def test_codes_and_draws_are_cores() -> None:
    from twofold.core.codes import CODE_COUNT, code_from_number
    from twofold.variants.classic2048 import batch as games

    rng = np.random.default_rng(8)
    for number in [0, CODE_COUNT - 1, *rng.integers(CODE_COUNT, size=200).tolist()]:
        assert games.code_from_number(number) == code_from_number(number)
        if games.COMPILED:
            from twofold.variants.classic2048 import _batch

            code = code_from_number(number)
            assert _batch.code(number) == code
            for index in (0, 1, 9, 10, int(rng.integers(10**9))):
                assert _batch.draw(code, index) == draw(code, index)


def test_threads_step_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled batch's own threads (parts of a step handed over in C, from 128 games
    up) and the pool of Python threads the batch falls back to play the same games."""
    from twofold.variants.classic2048 import batch as games

    one, two, three = (
        batch("2048", 300),
        batch("2048", 300, threads=2),
        batch("2048", 300, threads=3),
    )
    monkeypatch.setattr(games, "_Compiled", None)
    with pytest.warns(RuntimeWarning, match="not built here"):
        python = batch("2048", 300, threads=2)
    assert python._pool is not None and (two._pool is None) == games.COMPILED
    rng = np.random.default_rng(5)
    resets = [envs.reset(seed=5) for envs in (one, two, three, python)]
    for obs, info in resets[1:]:
        assert np.array_equal(obs, resets[0][0])
        assert np.array_equal(info["action_mask"], resets[0][1]["action_mask"])
    a = resets[0]
    for step in range(120):
        actions = random_legal(rng, a[-1]["action_mask"])
        stepped = [envs.step(actions) for envs in (one, two, three)]
        if step < 30:  # the Python batch is slow
            stepped.append(python.step(actions))
        for other in stepped[1:]:
            for mine, theirs in zip(stepped[0], other, strict=True):
                if isinstance(mine, dict):
                    assert all(np.array_equal(mine[k], theirs[k]) for k in mine)
                else:
                    assert np.array_equal(mine, theirs)
        a = stepped[0]
    for envs in (two, three, python):
        envs.close()


@pytest.mark.parametrize(
    "actions", [np.full(4, 1.5), np.array([0, 1, 2, 4]), np.array([0, -1, 2, 3]), np.zeros(3, int)]
)
def test_actions_that_are_not_moves_are_refused_in_one_line(actions: np.ndarray) -> None:
    envs = batch("2048", 4)
    envs.reset(seed=0)
    with pytest.raises(ValueError) as raised:
        envs.step(actions)
    assert "\n" not in str(raised.value) and len(str(raised.value)) < 120


def test_the_batch_is_for_sliding_modes_and_the_others_vectorise_as_before() -> None:
    assert gym.spec("twofold/2248-v0").vector_entry_point is None
    with pytest.raises(ValueError, match="has no batch"):
        BatchEnv("2248", 2)
    envs = gym.make_vec("twofold/2248-v0", num_envs=2, vectorization_mode="sync")
    assert envs.reset(seed=0)[1]["action_mask"].shape == (2, 44)


# -- the compiled parts against the rules in Python ------------------------------------------

compiled = pytest.mark.skipif(not COMPILED, reason="the compiled batch is not built here")


def boards(side: int) -> st.SearchStrategy[list[int]]:
    """Boards of ``side`` x ``side`` exponents: most with tiles of four bits (the packed
    4x4 board's), sparse ones, many at its edge (15s, a 16), some with any tile up to 31."""
    cells = side * side
    return st.one_of(
        st.lists(st.sampled_from([0] * 6 + [1, 2, 3]), min_size=cells, max_size=cells),
        st.lists(st.integers(0, 11), min_size=cells, max_size=cells),
        st.lists(st.integers(0, 15), min_size=cells, max_size=cells),
        st.lists(st.sampled_from([0, 1, 14, 15]), min_size=cells, max_size=cells),
        st.lists(st.sampled_from([0, 2, 15, 16]), min_size=cells, max_size=cells),
        st.lists(st.integers(0, 31), min_size=cells, max_size=cells),
    )


def reference_moves(board: list[int], side: int, direction: int) -> bool:
    return PythonGames(side, 1)._moves(board, direction)


def reference_slide(board: list[int], side: int, direction: int, d: int) -> tuple[bytes, int, int]:
    """The move by trace_line, then draw d's tile by the deal's rule (rules.py's)."""
    after, gain, made = list(board), 0, 0
    for line in PythonGames(side, 1).lines[direction]:
        trace = trace_line(tuple(board[c] for c in line))
        for cell, e in zip(line, trace.result, strict=True):
            after[cell] = e
        gain += trace.gain
        made += sum(e for _index, e in trace.merges)
    empty = [c for c, e in enumerate(after) if not e]
    after[empty[d % len(empty)]] = 2 if (d >> 32) % FOUR_ODDS == 0 else 1
    return bytes(after), gain, made


@compiled
@given(
    st.sampled_from([2, 3, 4, 4, 4, 5, 6]).flatmap(
        lambda side: st.tuples(st.just(side), boards(side))
    )
)
def test_the_compiled_masks_are_the_rules(found: tuple[int, list[int]]) -> None:
    from twofold.variants.classic2048 import _batch

    side, board = found
    bits = _batch.legal(side, bytes(board))
    assert [bool(bits >> d & 1) for d in range(4)] == [
        reference_moves(board, side, d) for d in range(4)
    ]


@compiled
@given(
    st.sampled_from([4, 4, 4, 5, 3]).flatmap(lambda side: st.tuples(st.just(side), boards(side))),
    st.integers(0, 3),
    st.builds(draw, st.sampled_from(["00000000", "ZZZZZZZC", "03NQK8N1"]), st.integers(0, 10**6)),
)
def test_the_compiled_moves_and_tiles_are_the_rules(
    found: tuple[int, list[int]], direction: int, d: int
) -> None:
    from twofold.variants.classic2048 import _batch

    side, board = found
    played = _batch.slide(side, bytes(board), direction, d)
    if not reference_moves(board, side, direction):
        assert played is None
    else:
        assert played == reference_slide(board, side, direction, d)


@compiled
@given(st.integers(0, 32**7 - 1), st.integers(0, 10**7 - 4))
def test_every_hash_kernel_draws_the_deal(number: int, index: int) -> None:
    from twofold.core.codes import code_from_number
    from twofold.variants.classic2048 import _batch

    code, kernel = code_from_number(number), _batch.kernel(None)
    expected = tuple(draw(code, index + k) for k in range(4))
    try:
        for name in {"plain", kernel}:
            _batch.kernel(name)
            assert _batch.draws(code, index) == expected
    finally:
        _batch.kernel(kernel)


@compiled
@given(st.integers(0, 2**64 - 1), st.integers(0, 2**20), st.integers(0, 2**40))
def test_code_numbers_are_the_same_in_c_and_python(key: int, game: int, episode: int) -> None:
    from twofold.variants.classic2048 import _batch

    number = code_number(key, game, episode)
    assert _batch.number(key, game, episode) == number < 32**7


@compiled
def test_the_plain_hash_kernel_plays_the_same_games() -> None:
    from twofold.variants.classic2048 import _batch

    kernel = _batch.kernel(None)
    runs = []
    try:
        for name in ("plain", kernel):
            _batch.kernel(name)
            envs, rng = batch("2048", 16), np.random.default_rng(4)
            obs, info = envs.reset(seed=4)
            seen = [obs]
            for _step in range(300):
                obs, *_rest, info = envs.step(random_legal(rng, info["action_mask"]))
                seen.append(obs)
            runs.append(np.stack(seen))
    finally:
        _batch.kernel(kernel)
    assert np.array_equal(runs[0], runs[1])


@compiled
def test_a_game_past_four_bits_a_tile_plays_on_by_the_rules() -> None:
    """Two tiles of 2**15 on a 4x4 board: the move that merges them makes a 2**16, beyond
    the packed board's four bits a cell; the game plays on as the rules say."""
    from twofold.variants.classic2048 import _batch

    games = _batch.Games(4, 1)
    obs, masks, scores = np.zeros(16, np.uint8), np.zeros(4, np.int8), np.zeros(1, np.int64)
    games.seed(3)
    games.reset(obs, masks, scores)
    board = [15, 15, 3, 0, 1, 2, 3, 4, 0, 0, 0, 0, 2, 0, 0, 0]
    games.put(0, bytes(board))
    rng = np.random.default_rng(3)
    rewards, over = np.zeros(1), np.zeros(1, np.uint8)
    for step in range(40):
        legal = [d for d in range(4) if reference_moves(board, 4, d)]
        if not legal:
            break
        direction = 0 if step == 0 else int(rng.choice(legal))
        code, moves = games.playing(0)
        d = draw(code, len(moves) + 2)  # two draws started the game, one a move since
        expected, gain, _made = reference_slide(board, 4, direction, d)
        games.step(np.array([direction]), obs, rewards, over, masks, scores)
        assert bytes(obs) == expected and rewards[0] == gain
        board = list(expected)
        assert [bool(m) for m in masks] == [reference_moves(board, 4, d) for d in range(4)]
    assert max(board) >= 16


@compiled
@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="threads counted by /proc")
def test_a_batch_let_go_stops_its_own_threads() -> None:
    """A batch dropped without ``threads(1)`` (an environment never closed) stops its
    threads: none is left waiting for a step that never comes."""
    from twofold.variants.classic2048 import _batch

    def running() -> int:
        return len(os.listdir("/proc/self/task"))

    before = running()
    games = _batch.Games(4, 256)
    assert games.threads(9) == 9
    assert running() >= before + 8
    del games
    gc.collect()
    deadline = time.monotonic() + 10  # a joined thread leaves /proc a moment after
    while running() >= before + 8 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert running() < before + 8
