"""The 2048 solver, the Sample and ``twofold solve``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twofold.core._rules import Mode
from twofold.core.autoplay import milestones, play_out, summarise
from twofold.core.game import Game
from twofold.ui.command.cli import main
from twofold.variants.classic2048 import modes
from twofold.variants.classic2048 import solver as solver_module
from twofold.variants.classic2048.rules import ClassicRules, SlideState
from twofold.variants.classic2048.sample import samples
from twofold.variants.classic2048.solver import CORNER_MOST, Solver, choose, line_score

CODE = "1NYG88J8"


def position(*rows: list[int]) -> SlideState:
    return ClassicRules(len(rows)).from_position({"board": list(rows)}, CODE)


def mode(mode_id: str) -> Mode:
    return {m.id: m for m in modes()}[mode_id]


@st.composite
def states(draw: st.DrawFn) -> SlideState:
    n = draw(st.sampled_from([4, 4, 5, 6]))
    cell = st.one_of(st.just(0), st.integers(1, 11).map(lambda e: 1 << e))
    board = draw(st.lists(st.lists(cell, min_size=n, max_size=n), min_size=n, max_size=n))
    return ClassicRules(n).from_position({"board": board}, CODE)


@settings(max_examples=60, deadline=None)
@given(states(), st.sampled_from([1, 2]))
def test_the_solver_never_picks_a_move_that_changes_nothing(state: SlideState, depth: int) -> None:
    rules = ClassicRules(state.size)
    move = Solver(state.size, depth).choose(state)
    if rules.is_over(state):
        assert move is None
    else:
        assert move is not None
        assert rules.apply(state, move).changed


@settings(max_examples=15, deadline=None)
@given(states())
def test_the_solver_is_deterministic(state: SlideState) -> None:
    first = Solver(state.size, 2).choose(state)
    assert Solver(state.size, 2).choose(state) == first
    assert choose(state, 2) == first
    assert choose(state, 2) == first


def test_no_move_on_a_finished_board() -> None:
    over = position([2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2])
    assert choose(over) is None


@pytest.mark.parametrize("depth", [2, 3, None])
@pytest.mark.parametrize(
    ("board", "safe"),
    [
        # one move survives every new tile, another loses to every new tile
        ([[4, 64, 2, 64], [32, 8, 16, 32], [64, 32, 4, 0], [16, 4, 32, 64]], "right"),
        ([[64, 16, 32, 4], [16, 4, 8, 64], [0, 8, 4, 2], [32, 16, 64, 16]], "left"),
        ([[8, 64, 4, 8], [16, 4, 64, 0], [8, 2, 4, 2], [32, 16, 8, 32]], "right"),
        ([[8, 32, 16, 32], [32, 2, 8, 64], [8, 64, 16, 2], [16, 0, 2, 32]], "down"),
    ],
)
def test_the_only_move_that_avoids_game_over(
    board: list[list[int]], safe: str, depth: int | None
) -> None:
    assert Solver(4, depth).choose(position(*board)) == safe


@pytest.mark.parametrize("depth", [1, 2, 3, None])
def test_merges_the_big_tiles_into_the_corner(depth: int | None) -> None:
    solver = Solver(4, depth)
    assert solver.choose(position([0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2], [0, 4, 512, 512])) == (
        "right"
    )
    assert solver.choose(position([256, 0, 0, 0], [256, 2, 0, 0], [4, 0, 0, 0], [2, 0, 0, 0])) == (
        "up"
    )


def test_the_heuristic_prefers_monotone_lines_with_room() -> None:
    assert line_score((11, 10, 9, 8)) > line_score((10, 11, 8, 9))
    assert line_score((3, 2, 0, 0)) > line_score((3, 2, 1, 1)) - 1000
    assert line_score((2, 2, 0, 0)) > line_score((2, 3, 0, 0))


def test_a_4x4_line_pays_for_rising_towards_its_end_and_never_more_than_its_share() -> None:
    assert line_score((10, 8, 0, 0)) > line_score((0, 0, 8, 10))
    assert line_score((10, 8, 0, 0), 0.0) == line_score((0, 0, 8, 10), 0.0)
    # eight lines at most: a live board never comes down to a lost one's value this way
    lines = [tuple(r >> s & 15 for s in (0, 4, 8, 12)) for r in range(0, 1 << 16, 7)]
    assert all(0 <= line_score(ln, 0.0) - line_score(ln) <= CORNER_MOST + 1e-6 for ln in lines)


def test_the_big_boards_keep_lines_free_to_rise_either_way() -> None:
    rows = [[1024, 256, 0, 0, 2], [64, 0, 0, 0, 0], [4, 0, 2, 0, 0], [0] * 5, [0, 0, 0, 0, 8]]
    leaves = Solver(5)._leaves  # the heuristic of whole boards
    mirrored = position(*(r[::-1] for r in rows))
    assert leaves[position(*rows).packed] == pytest.approx(leaves[mirrored.packed], rel=1e-12)


def test_depth_grows_with_the_kinds_of_tile_on_a_4x4_board() -> None:
    solver = Solver(4)
    assert solver.depth_for(position(*[[2, 0, 0, 0]] * 2, *[[0, 0, 0, 2]] * 2).packed) == 3
    roomy = position([2, 4, 8, 16], [32, 64, 128, 256], [0, 0, 0, 0], [0, 0, 0, 512])
    assert solver.depth_for(roomy.packed) == 9 - 2
    assert Solver(4, 1).depth_for(roomy.packed) == 1
    with pytest.raises(ValueError):
        Solver(4, 0)


def test_a_crowded_4x4_board_is_searched_five_moves_ahead_whatever_its_kinds_of_tile() -> None:
    solver = Solver(4)
    # four kinds of tile would give three moves; two empty cells give five
    assert (
        solver.depth_for(position([2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 8, 16], [4, 8, 0, 0]).packed)
        == 5
    )
    # half the board empty, but two moves open only (left and up change nothing)
    assert (
        solver.depth_for(position([2, 4, 8, 16], [4, 0, 0, 0], [2, 0, 0, 0], [4, 0, 0, 0]).packed)
        == 5
    )
    # a crowded board of many kinds keeps its deeper search
    crowded = position([2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 2, 0], [4, 8, 0, 0])
    assert solver.depth_for(crowded.packed) == 10 - 2
    assert Solver(4, 3).depth_for(crowded.packed) == 3


#: one empty cell (bottom left after "right"), and whatever tile fills it leaves no move
DOOMED = [[8, 32, 16, 32], [32, 2, 8, 64], [8, 64, 16, 2], [16, 0, 2, 32]]


@pytest.mark.parametrize("compiled", [True, False])
def test_the_pruning_never_hides_a_tile_that_ends_the_game(
    compiled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every branch too unlikely to search: each move's board is scored where it is pruned
    monkeypatch.setattr(solver_module, "PRUNE_PROBABILITY", 2.0)
    scores = Solver(4, 2, compiled=compiled).scores(position(*DOOMED).packed)
    assert scores["right"] == 0.0  # a lost game, whatever tile comes
    assert scores["left"] > 0 and scores["down"] > 0


@pytest.mark.parametrize("compiled", [True, False])
def test_a_board_lost_whatever_happens_plays_for_time(compiled: bool) -> None:
    # six moves ahead every line of play loses: down loses last (see the test above)
    scores = Solver(4, 6, compiled=compiled).scores(position(*DOOMED).packed)
    assert all(value < 0 for value in scores.values())
    assert max(scores, key=lambda d: scores[d]) == "down"


def test_depth_adapts_to_how_full_a_big_board_is() -> None:
    solver = Solver(5)
    assert solver.depth_for(position(*[[2, 0, 0, 0, 0]] * 5).packed) == 2
    crowded = [[2, 4, 8, 16, 2], [32, 64, 128, 256, 4], [512, 1024, 2, 0, 8], [4, 8, 0, 0, 16]]
    assert solver.depth_for(position(*crowded, [2, 4, 2, 4, 2]).packed) > 2


def test_play_out_and_summary() -> None:
    game = play_out(mode("2048"), CODE, Solver(4, 1))
    assert game.moves > 50 and game.largest >= 128
    summary = summarise([game], milestones(mode("2048")))
    assert set(summary["reached"]) == {"2048", "4096", "8192", "16384"}
    assert summary["games"] == 1
    assert summary["largest"] == game.largest
    assert summary["median_score"] == game.score
    assert summarise([])["games"] == 0


# -- the Sample -----------------------------------------------------------------------------


def sample_game(mode: Mode) -> Game:
    """The Sample for ``mode``'s board size, replayed as the app opens it (never counted)."""
    sample = samples()[str(mode.size or 4)]
    game = Game.replay(mode, sample["code"], sample["moves"])
    game.flags.uncounted = True
    return game


@pytest.mark.parametrize("mode_id", ["2048", "2048-5x5", "2048-6x6", "2048-daily"])
def test_the_sample_opens_at_move_240_with_the_same_board_every_time(mode_id: str) -> None:
    first = sample_game(mode(mode_id))
    again = sample_game(mode(mode_id))
    stored = samples()[str(first.mode.size)]
    assert first.state.moves == 240 and len(first.log) == 240
    assert first.state.board == again.state.board
    assert [list(row) for row in first.state.board] == stored["board"]
    assert first.state.score == stored["score"]
    assert first.flags.uncounted
    assert first.can_undo


def test_the_4x4_sample_is_pinned() -> None:
    assert samples()["4"]["code"] == "J6E9AHV3"
    assert samples()["4"]["board"] == [
        [8, 2, 0, 0],
        [32, 4, 0, 0],
        [128, 16, 0, 0],
        [256, 64, 8, 2],
    ]


# -- twofold solve --------------------------------------------------------------------------


def test_twofold_solve_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--games", "2", "--depth", "1", "--code", CODE, "--workers", "1"]) == 0
    out = capsys.readouterr().out
    for words in ("games", "reached 2048", "reached 16384", "median score", "moves per second"):
        assert words in out


def test_solver_games_are_never_recorded(
    twofold_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", "--games", "1", "--depth", "1", "--code", CODE, "--workers", "1"]) == 0
    assert list(twofold_home.iterdir()) == []


def test_twofold_solve_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["solve", "--games", "2", "--depth", "1", "--code", CODE, "--json", "--workers", "1"])
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2 and data["mode"] == "2048"
    assert set(data["reached"]) == {"2048", "4096", "8192", "16384"}
    assert data["results"][0]["code"] == CODE
    assert data["moves_per_second"] > 0


def test_twofold_solve_plays_the_same_games_from_the_same_code(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = [
        "solve",
        "--games",
        "2",
        "--depth",
        "1",
        "--code",
        CODE,
        "--json",
        "--size",
        "5",
        "--workers",
        "1",
    ]
    main(args)
    first = json.loads(capsys.readouterr().out)["results"]
    main(args)
    assert json.loads(capsys.readouterr().out)["results"] == first


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--size", "7"], "mode '2048' has no 7x7 board (sizes: 4, 5, 6)"),
        (["--depth", "0"], "--depth 0: the search depth is from 1 to 6"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["nothing"], "unknown mode 'nothing' (modes: "),
        (["--games", "0"], "--games must be at least 1"),
        (["--code", "XX"], "a game code has 8 characters, 'XX' has 2"),
    ],
)
def test_twofold_solve_refuses_bad_options_in_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"twofold: {message}") and err.count("\n") == 1


def test_ctrl_c_prints_the_games_finished_so_far(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from twofold.ui.command import solve

    played = []
    real = solve.play_out

    def interrupted_after_one(*args: object, **kwargs: object) -> object:
        if played:
            raise KeyboardInterrupt
        played.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(solve, "play_out", interrupted_after_one)
    assert main(["solve", "--games", "3", "--depth", "1", "--code", CODE, "--workers", "1"]) == 130
    out = capsys.readouterr().out
    assert "reached 2048" in out
    assert "Stopped: 1 game finished." in out
