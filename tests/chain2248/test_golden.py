"""Golden games: the opening board and the first actions of fixed codes, per mode.

A change here is a change to the deal or the odds: make it on purpose, then update
the pinned boards (and say so in the commit).
"""

from __future__ import annotations

import pytest

from tests.chain2248.helpers import MODES
from twofold.core.game import Game

GOLDEN = {
    "2248": (
        "A9HGV49T",
        [
            [16, 4, 16, 2, 8],
            [2, 8, 4, 4, 2],
            [2, 2, 2, 2, 4],
            [2, 2, 2, 16, 2],
            [4, 2, 4, 2, 8],
            [4, 2, 2, 2, 2],
            [2, 8, 4, 4, 4],
            [8, 2, 4, 2, 8],
        ],
        [
            (
                "chain 7,1 6,0 5,1 5,2 4,1 3,1 3,0 2,0 1,0 2,1 3,2 2,2 "
                "2,3 3,4 4,3 5,4 5,3 6,4 6,3 7,2 6,2 6,1 7,0",
                [
                    [2, 2, 8, 4, 4],
                    [2, 4, 2, 8, 2],
                    [2, 2, 2, 2, 2],
                    [4, 4, 4, 2, 8],
                    [16, 32, 2, 2, 2],
                    [4, 2, 16, 4, 4],
                    [4, 4, 4, 16, 8],
                    [128, 8, 4, 2, 8],
                ],
                128,
                62,
            ),
            (
                "hammer 3,2",
                [
                    [2, 2, 2, 4, 4],
                    [2, 4, 8, 8, 2],
                    [2, 2, 2, 2, 2],
                    [4, 4, 2, 2, 8],
                    [16, 32, 2, 2, 2],
                    [4, 2, 16, 4, 4],
                    [4, 4, 4, 16, 8],
                    [128, 8, 4, 2, 8],
                ],
                128,
                63,
            ),
            (
                "shuffle",
                [
                    [32, 4, 2, 2, 2],
                    [4, 2, 4, 2, 4],
                    [128, 2, 2, 2, 8],
                    [2, 4, 2, 2, 4],
                    [4, 16, 8, 8, 8],
                    [8, 4, 4, 2, 2],
                    [4, 4, 2, 16, 16],
                    [2, 8, 4, 2, 2],
                ],
                128,
                102,
            ),
            (
                "undo",
                [
                    [2, 2, 2, 4, 4],
                    [2, 4, 8, 8, 2],
                    [2, 2, 2, 2, 2],
                    [4, 4, 2, 2, 8],
                    [16, 32, 2, 2, 2],
                    [4, 2, 16, 4, 4],
                    [4, 4, 4, 16, 8],
                    [128, 8, 4, 2, 8],
                ],
                128,
                63,
            ),
        ],
    ),
    "2248-daily": (
        "T18QQB8Y",
        [
            [4, 2, 4, 2, 2],
            [32, 2, 16, 4, 2],
            [16, 4, 2, 2, 2],
            [2, 4, 8, 2, 2],
            [2, 4, 2, 4, 2],
            [8, 2, 8, 2, 2],
            [16, 2, 2, 4, 8],
            [2, 2, 2, 8, 32],
        ],
        [
            (
                "chain 2,2 2,3 3,3",
                [
                    [4, 2, 2, 2, 2],
                    [32, 2, 4, 2, 2],
                    [16, 4, 16, 4, 2],
                    [2, 4, 8, 8, 2],
                    [2, 4, 2, 4, 2],
                    [8, 2, 8, 2, 2],
                    [16, 2, 2, 4, 8],
                    [2, 2, 2, 8, 32],
                ],
                8,
                42,
            ),
            (
                "swap 0,0 0,1",
                [
                    [2, 4, 2, 2, 2],
                    [32, 2, 4, 2, 2],
                    [16, 4, 16, 4, 2],
                    [2, 4, 8, 8, 2],
                    [2, 4, 2, 4, 2],
                    [8, 2, 8, 2, 2],
                    [16, 2, 2, 4, 8],
                    [2, 2, 2, 8, 32],
                ],
                8,
                42,
            ),
            (
                "hammer 7,4",
                [
                    [2, 4, 2, 2, 4],
                    [32, 2, 4, 2, 2],
                    [16, 4, 16, 4, 2],
                    [2, 4, 8, 8, 2],
                    [2, 4, 2, 4, 2],
                    [8, 2, 8, 2, 2],
                    [16, 2, 2, 4, 2],
                    [2, 2, 2, 8, 8],
                ],
                8,
                43,
            ),
        ],
    ),
    "2248-blitz": (
        "0Q0AHR6C",
        [
            [2, 2, 2, 2, 32],
            [16, 2, 4, 4, 8],
            [4, 64, 2, 16, 4],
            [4, 2, 2, 4, 2],
            [32, 2, 4, 16, 8],
            [4, 2, 2, 4, 2],
            [4, 2, 4, 2, 4],
            [2, 4, 64, 32, 4],
        ],
        [
            (
                "chain 0,0 0,1 0,2 0,3",
                [
                    [4, 2, 2, 8, 32],
                    [16, 2, 4, 4, 8],
                    [4, 64, 2, 16, 4],
                    [4, 2, 2, 4, 2],
                    [32, 2, 4, 16, 8],
                    [4, 2, 2, 4, 2],
                    [4, 2, 4, 2, 4],
                    [2, 4, 64, 32, 4],
                ],
                8,
                43,
            ),
            (
                "chain 0,2 0,1 1,1",
                [
                    [4, 2, 8, 8, 32],
                    [16, 8, 4, 4, 8],
                    [4, 64, 2, 16, 4],
                    [4, 2, 2, 4, 2],
                    [32, 2, 4, 16, 8],
                    [4, 2, 2, 4, 2],
                    [4, 2, 4, 2, 4],
                    [2, 4, 64, 32, 4],
                ],
                16,
                45,
            ),
        ],
    ),
}


@pytest.mark.parametrize("mode_id", sorted(GOLDEN))
def test_golden_game(mode_id: str) -> None:
    code, opening, steps = GOLDEN[mode_id]
    game = Game.start(MODES[mode_id], code)
    assert [list(row) for row in game.state.board] == opening
    for action, board, score, draws in steps:
        game.act(action)
        assert [list(row) for row in game.state.board] == board, action
        assert (game.state.score, game.state.draws) == (score, draws), action


@pytest.mark.parametrize("mode_id", sorted(GOLDEN))
def test_golden_game_replays(mode_id: str) -> None:
    code, _opening, steps = GOLDEN[mode_id]
    played = Game.start(MODES[mode_id], code)
    for action, *_ in steps:
        played.act(action)
    replayed = Game.replay(MODES[mode_id], code, [action for action, *_ in steps])
    assert replayed.state == played.state
