"""In the line modes, Blitz is recorded when its clock runs out; cells are counted for people."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Iterator

import pytest

from twofold.core._rules import Mode
from twofold.core.codes import code_from_text
from twofold.core.game import Game
from twofold.core.plugins import registry
from twofold.core.session import Session
from twofold.core.store import SqliteStore, open_store
from twofold.ui.cells import for_people
from twofold.ui.lines import run_lines

CODE = code_from_text("line-promises")


@pytest.fixture
def store() -> Iterator[SqliteStore]:
    with open_store() as opened:
        yield opened


def mode(mode_id: str) -> Mode:
    modes = registry().modes
    assert mode_id in modes, f"{mode_id} is not registered: {sorted(modes)}"
    return modes[mode_id]


def first_chain(chain_mode: Mode) -> str:
    assert chain_mode.hint is not None
    hint = chain_mode.hint(Game.start(chain_mode, CODE).state)
    assert hint is not None
    return hint.action


@pytest.mark.parametrize("json_mode", [True, False])
def test_blitz_is_recorded_when_its_clock_runs_out(store: SqliteStore, json_mode: bool) -> None:
    blitz = mode("2248-blitz")
    now = [0.0]
    session = Session(blitz, store, clock=lambda: now[0])
    session.new_game(CODE)
    chain = first_chain(blitz)
    if not json_mode:
        chain = for_people(chain)  # people type cells counted from 1
    recorded: list[bool] = []

    def lines() -> Iterator[str]:
        yield chain + "\n"
        now[0] = 182.0  # the clock runs out while nobody types
        deadline = time.monotonic() + 5
        while not store.finished_games("2248-blitz") and time.monotonic() < deadline:
            time.sleep(0.05)
        recorded.append(bool(store.finished_games("2248-blitz")))
        yield "quit\n"

    out = io.StringIO()
    run_lines(session, json_mode=json_mode, stdin=lines(), stdout=out)
    assert recorded == [True]  # at once, before any further command
    [row] = store.finished_games("2248-blitz")
    assert row.elapsed == pytest.approx(180.0)
    assert row.moves == 1
    if not json_mode:
        assert "Time is up" in out.getvalue()
    else:  # the protocol stays one object per command
        assert len(out.getvalue().splitlines()) == 3


def replies(session: Session, commands: list[str], *, json_mode: bool) -> str:
    out = io.StringIO()
    run_lines(session, json_mode=json_mode, stdin=[c + "\n" for c in commands], stdout=out)
    return out.getvalue()


def test_plain_2248_counts_cells_from_1_and_json_from_0(store: SqliteStore) -> None:
    classic = mode("2248")
    chain = first_chain(classic)  # protocol cells, from 0
    cells = [tuple(int(n) for n in cell.split(",")) for cell in chain.split()[1:]]
    typed = "chain " + " ".join(f"{r + 1},{c + 1}" for r, c in cells)
    session = Session(classic, store)
    session.new_game(CODE)
    plain = replies(session, [typed, "read", "hint"], json_mode=False)
    assert "Not allowed" not in plain
    last = cells[-1]
    assert f"at row {last[0] + 1}, column {last[1] + 1}." in plain
    assert "Row 1: " in plain and "Row 0: " not in plain
    assert "\n   1  2  3  4  5\n" in plain or " 1  2  3  4  5" in plain
    assert "row 9 is off the board (rows 1 to 8)" in replies(
        session, ["chain 9,1 8,1"], json_mode=False
    )
    session = Session(classic, store)
    session.new_game(CODE)
    _start, moved = map(json.loads, replies(session, [chain], json_mode=True).splitlines()[:2])
    assert moved["changed"] is True
    merged = [e for e in moved["events"] if e["type"] == "merged"]
    assert merged and merged[0]["cell"] == list(last)  # the protocol counts from 0


def test_plain_2048_announces_cells_from_1(store: SqliteStore) -> None:
    session = Session(mode("2048"), store)
    session.new_game(CODE)
    plain = replies(session, ["left", "read"], json_mode=False)
    assert "row 0" not in plain.lower() and "column 0" not in plain.lower()
    assert "Row 1" in plain
