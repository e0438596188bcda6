"""What a player reads: announcements, the board read aloud, the plain-text board."""

from __future__ import annotations

from tests.chain2248.helpers import CLASSIC, state_with
from twofold.core._rules import Outcome
from twofold.core.game import Game


def test_announce_a_merge() -> None:
    state = state_with({(7, 0): 2, (7, 1): 2})
    outcome = CLASSIC.rules.apply(state, "chain 7,0 7,1")
    line = CLASSIC.rules.announce(state, outcome)
    assert line.startswith("2 tiles made 4 at row 8, column 2.")  # people count from 1
    assert "Score 4." in line
    assert "\n" not in line


def test_announce_power_ups_and_undo() -> None:
    state = state_with({(7, 0): 2, (6, 1): 4})
    game = Game.start(CLASSIC, state.code, position={"board": [list(r) for r in state.board]})
    step = game.act("swap 7,0 6,1")
    assert "Swapped the 2 at row 8, column 1 with the 4 at row 7, column 2." in step.announcement
    step = game.act("undo")
    assert step.announcement.startswith("Undone.")
    step = game.act("hammer 7,0")
    assert step.announcement.startswith("Hammer removed the 2 at row 8, column 1.")


def test_announce_a_stuck_board() -> None:
    none = {"hammer": 0, "swap": 0, "shuffle": 0, "undo": 0}
    stuck = state_with({}, powerups=none)
    assert CLASSIC.rules.announce(stuck, Outcome(stuck)).endswith("No more moves.")
    rescued = state_with({(7, 0): 2, (7, 2): 2})
    line = CLASSIC.rules.announce(rescued, Outcome(rescued))
    assert "a power-up can help:" in line and line.endswith("Swap, Shuffle.")


def test_read_board_row_by_row() -> None:
    state = CLASSIC.rules.new_game("7K3M9QXP")
    lines = CLASSIC.rules.read_board(state)
    assert len(lines) == 8
    assert lines[0] == "Row 1: " + ", ".join(str(v) for v in state.board[0])


def test_render_text_has_row_and_column_labels() -> None:
    state = state_with({(0, 0): 2})
    text = CLASSIC.rules.render_text(state).splitlines()
    assert len(text) == 9
    assert text[0].split() == ["1", "2", "3", "4", "5"]
    assert text[1].split()[0] == "1" and text[1].split()[1] == "2"
    assert text[8].split()[0] == "8"
    assert len({len(line) for line in text}) == 1
