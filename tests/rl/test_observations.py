"""What an environment observes: exponents, ranks for other values, one-hot planes."""

from __future__ import annotations

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from tests.plugins.test_contract import REGISTRY  # noqa: E402
from twofold.rl import OneHot, TwofoldEnv  # noqa: E402
from twofold.rl.observation import Encoder  # noqa: E402


def test_powers_of_two_are_their_exponents() -> None:
    encoded = Encoder().encode(((0, 2, 4), (2048, 0, 8)))
    assert encoded.dtype == np.uint8
    assert encoded.tolist() == [[0, 1, 2], [11, 0, 3]]


def test_other_values_are_their_ranks_among_the_values_shown() -> None:
    encoder = Encoder()
    assert encoder.encode(((1, 2), (0, 2))).tolist() == [[1, 2], [0, 2]]
    assert encoder.encode(((3, 5), (1, 0))).tolist() == [[3, 4], [1, 0]]
    assert encoder.ranked


def test_the_board_matches_the_game() -> None:
    env = gym.make("twofold/2048-v0")
    observation, _info = env.reset(seed=1)
    board = env.unwrapped.episode.state.board
    assert observation.tolist() == [[v.bit_length() - 1 if v else 0 for v in row] for row in board]
    fib = TwofoldEnv(REGISTRY.mode("fib"))
    observation, _info = fib.reset(seed=1)
    assert observation.dtype == np.uint8 and observation.shape == (4, 4)


def test_one_hot_planes_as_the_anchors_have_them() -> None:
    env = OneHot(gym.make("twofold/2048-v0"))
    observation, _info = env.reset(seed=1)
    assert observation.shape == (4, 4, 16) and env.observation_space.contains(observation)
    assert (observation.sum(axis=2) == 1).all()
    chain = OneHot(gym.make("twofold/2248-v0"), planes=31)
    observation, _info = chain.reset(seed=1)
    assert observation["board"].shape == (8, 5, 31)
    assert chain.observation_space.contains(observation)


def test_the_powerups_held_are_observed() -> None:
    env = gym.make("twofold/2248-v0")
    observation, _info = env.reset(seed=1)
    assert observation["powerups"].tolist() == [1, 1, 1, 1]
    assert env.reset(seed=1)[0]["aimed"] == 0


def test_a_first_board_of_ranks_gives_each_value_its_own_number() -> None:
    # a board whose first row is all powers of two and whose next one is not: the first
    # row's exponents must not stay beside the ranks the second row brought
    for board in (((0, 2), (1, 0)), ((2, 0), (0, -1)), ((2, 4), (3, 0))):
        encoded = Encoder().encode(board)
        pairs = {
            (v, int(n))
            for row, coded in zip(board, encoded, strict=True)
            for v, n in zip(row, coded, strict=True)
        }
        assert len({v for v, _n in pairs}) == len(pairs), (board, encoded.tolist())
        assert len({n for _v, n in pairs}) == len(pairs), (board, encoded.tolist())


@pytest.mark.parametrize("mode_id", ["fib", "stones"])
def test_the_first_observation_of_a_ranked_mode_tells_values_apart(mode_id: str) -> None:
    import twofold_stones

    from twofold.core.plugins import load

    stones = load([("stones", twofold_stones)], entry_points_=[])
    env = TwofoldEnv((stones if mode_id == "stones" else REGISTRY).mode(mode_id))
    for seed in range(40):
        observation, _info = env.reset(seed=seed)
        board = env.episode.state.board
        numbers: dict[int, int] = {}
        for row, coded in zip(board, observation.tolist(), strict=True):
            for value, number in zip(row, coded, strict=True):
                assert numbers.setdefault(value, number) == number
        assert len(set(numbers.values())) == len(numbers), (seed, board, observation.tolist())
