"""A second window's game is never dropped: kept apart, offered as the Last game next time.

A window that opens a mode another open window holds plays a game of its own; its saves
cannot go in the mode's slot, so each goes in a slot of its own (written with every
action, so a window killed keeps its game too). The next window to open the mode, once
that window has closed, offers the game as the Last game; brought back, it is the mode's
save and is no longer offered. The line modes do as the app does (``last``).
"""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path
from typing import Any

from tests.core.toy import TALLY
from tests.core.windows import end, first, send, window
from twofold.core.session import Session
from twofold.core.store import open_store


def test_a_second_windows_game_is_kept_and_offered_once_its_window_closed(
    twofold_home: Path,
) -> None:
    with open_store(owner="first") as first, open_store(owner="second") as second:
        a = Session(TALLY, first)
        a.act("add")
        b = Session(TALLY, second)
        assert not b.seated
        b.act("add")
        b.act("add")
        kept = (b.game.game_id, tuple(b.game.log))
        with open_store(owner="third") as third:
            # the second window is still open: its game is its own, offered to no one
            assert third.waiting_games("tally") == []
        b.close()
        assert second.pending == 0  # nothing waits to be written, so nothing is dropped
        a.close()
    with open_store(owner="next") as later:
        [waiting] = later.waiting_games("tally")
        assert (waiting.game_id, waiting.actions) == kept
        session = Session(TALLY, later)
        assert session.notice and "another window was kept" in session.notice
        back = session.last_game()
        assert back is not None and (back.game_id, tuple(back.log)) == kept
        assert later.waiting_games("tally") == []  # in the mode's slot now, offered no more
        session.close()
    with open_store(owner="reader") as reader:
        saved = reader.load_save("tally")
        assert saved is not None and (saved.game_id, saved.actions) == kept


def test_a_second_windows_game_with_no_action_is_not_kept(twofold_home: Path) -> None:
    with open_store(owner="first") as first, open_store(owner="second") as second:
        a = Session(TALLY, first)
        b = Session(TALLY, second)
        b.act("add")
        b.act("undo")
        b.new_game()  # the game with actions stays kept; the fresh one has none
        b.close()
        a.close()
    with open_store(owner="next") as later:
        assert len(later.waiting_games("tally")) == 1


# -- two processes, the line modes ---------------------------------------------------------


def _play_second(home: Path) -> tuple[subprocess.Popen[str], subprocess.Popen[str], dict[str, Any]]:
    """A first window with 2048's seat, a second with three moves of its own game."""
    a = window(home, "--json")
    first(a)
    send(a, "left")
    b = window(home, "--json")
    assert "another window" in first(b)["notice"]
    reply: dict[str, Any] = {}
    for move in ("up", "left", "down", "right", "up"):
        reply = send(b, move)
    assert reply["moves"] > 0
    return a, b, reply


def test_the_second_window_quits_first_and_its_game_comes_back(twofold_home: Path) -> None:
    a, b, played = _play_second(twofold_home)
    assert end(b) == ""  # no "what was played since the last save is lost"
    assert end(a) == ""
    c = window(twofold_home, "--json")
    start = first(c)
    assert "another window was kept" in start["notice"]
    back = send(c, "last")
    assert (back["code"], back["moves"], back["score"], back["board"]) == (
        played["code"],
        played["moves"],
        played["score"],
        played["board"],
    )
    assert send(c, "last")["code"] == start["code"]  # and back again
    end(c)


def test_the_first_window_quits_first_and_plain_offers_the_game(twofold_home: Path) -> None:
    a, b, played = _play_second(twofold_home)
    assert end(a) == ""
    more = send(b, "left")  # the seat is free now, the slot still holds the first's game
    assert end(b) == ""
    c = window(twofold_home, "--plain")
    out, err = c.communicate("last\nquit\n", timeout=60)
    assert c.returncode == 0 and err == ""
    assert "another window was kept" in out
    assert f"Back to game {more['code']}, score {more['score']}." in out
    assert more["code"] == played["code"]


def test_a_second_window_killed_keeps_its_game(twofold_home: Path) -> None:
    a, b, played = _play_second(twofold_home)
    b.send_signal(signal.SIGKILL)
    b.communicate(timeout=60)
    assert end(a) == ""
    c = window(twofold_home, "--json")
    assert "another window was kept" in first(c)["notice"]
    back = send(c, "last")
    assert (back["code"], back["moves"], back["board"]) == (
        played["code"],
        played["moves"],
        played["board"],
    )
    end(c)
