"""Resuming from a checkpoint is resuming by replay, only faster.

Every game here is resumed twice: through a Session from its save (and checkpoint), and
by ``Game.replay`` from its first action; the two must be the same game in every part
the core keeps, and must play on the same (the deal, undo, the tiles reached).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import replace
from pathlib import Path
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.core.toy import TALLY
from twofold.core import checkpoint
from twofold.core._rules import Mode, Refused
from twofold.core.game import Game
from twofold.core.plugins import registry
from twofold.core.rows import SavedGame
from twofold.core.session import Session
from twofold.core.store import DB_NAME, open_store
from twofold.core.store.saves import TAIL_FROM, TAIL_SHARE, checkpoint_slot, encode_checkpoint
from twofold.core.store.writes import Writes

MODES = registry().modes
CELLS = st.tuples(st.integers(0, 7), st.integers(0, 4))


@contextmanager
def often(every: int = 7, block: int = 3) -> Iterator[None]:
    """Checkpoints every few actions, digested in small blocks, so short games have some."""
    with (
        mock.patch.object(checkpoint, "EVERY", every),
        mock.patch.object(checkpoint, "BLOCK", block),
    ):
        yield


def command(mode: Mode, game: Game, choice: int, cells: list[tuple[int, int]]) -> str:
    """One command of a hypothesis-chosen game: mostly moves, sometimes undo or a power-up."""
    if mode.controls == "slide":
        return ("left", "up", "right", "down", "undo")[choice % 5]
    (r1, c1), (r2, c2) = cells
    if choice % 7 == 1:
        return "undo"
    if choice % 7 == 2:
        return f"hammer {r1},{c1}"
    if choice % 7 == 3:
        return f"swap {r1},{c1} {r2},{c2}"
    if choice % 7 == 4:
        return "shuffle"
    hint = mode.hint(game.state) if mode.hint is not None else None
    return hint.action if hint is not None else "shuffle"


def play(session: Session, plan: list[tuple[int, list[tuple[int, int]]]]) -> None:
    for choice, cells in plan:
        if session.game.over:
            break
        with suppress(Refused):
            session.act(command(session.mode, session.game, choice, cells))


def same_game(resumed: Game, replayed: Game) -> None:
    assert resumed.log == replayed.log
    assert resumed.state == replayed.state
    assert list(resumed.history) == list(replayed.history)
    assert resumed.reached == replayed.reached
    assert list(resumed.reached_history) == list(replayed.reached_history)
    assert resumed.mode.rules.stats(resumed.state) == replayed.mode.rules.stats(replayed.state)
    assert resumed.can_undo == replayed.can_undo and resumed.over == replayed.over


def resume(mode: Mode) -> tuple[Session, Game]:
    """The save resumed by a new Session, and the same log replayed from its start."""
    store = open_store()
    saved = store.load_save(mode.id)
    assert saved is not None
    session = Session(mode, store)
    replayed = Game.replay(mode, saved.code, saved.actions, position=saved.position)
    replayed.flags = replace(session.game.flags)
    return session, replayed


def from_checkpoint(mode: Mode) -> Game | None:
    """The stored save's game rebuilt from its checkpoint alone (None if it is not used)."""
    store = open_store()
    saved = store.load_save(mode.id)
    store.close()
    assert saved is not None
    return checkpoint.resume(
        mode,
        saved.code,
        saved.actions,
        saved.checkpoint,
        position=saved.position,
        clock=time.monotonic,
    )


def stored_checkpoint(mode_id: str) -> dict[str, Any] | None:
    store = open_store()
    try:
        saved = store.load_save(mode_id)
    finally:
        store.close()
    return None if saved is None or saved.checkpoint is None else dict(saved.checkpoint)


PLANS = st.lists(
    st.tuples(st.integers(0, 34), st.lists(CELLS, min_size=2, max_size=2)), max_size=60
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(mode_id=st.sampled_from(["2048", "2048-5x5", "2248", "2248-daily"]), plan=PLANS, more=PLANS)
def test_a_game_resumed_from_its_checkpoint_is_the_game_replayed_from_the_start(
    twofold_home: Path, mode_id: str, plan: list[Any], more: list[Any]
) -> None:
    for name in (DB_NAME, f"{DB_NAME}-wal", f"{DB_NAME}-shm"):
        (twofold_home / name).unlink(missing_ok=True)  # each example starts afresh
    mode = MODES[mode_id]
    with often():
        first = Session(mode, open_store())
        play(first, plan)
        first.close()
        first.store.close()
        if not first.game.log:
            return  # nothing played, nothing saved
        kept = stored_checkpoint(mode_id)
        # a checkpoint is taken at a move (never just after an undo), once there are EVERY
        log = first.game.log
        due = any(action != "undo" for action in log[checkpoint.EVERY - 1 :])
        assert (kept is not None) == due
        if kept is not None:
            assert log[kept["at"] - 1] != "undo"
            assert from_checkpoint(mode) is not None  # the checkpoint itself is used
        session, replayed = resume(mode)
        same_game(session.game, replayed)
        assert session.game.flags == first.game.flags
        # and they play on alike: the same deal, the same undo, checkpoints taken again
        for choice, cells in more:
            if replayed.over:
                break
            text = command(mode, replayed, choice, cells)
            try:
                expected = replayed.act(text).changed
            except Refused:
                expected = None
            try:
                assert session.act(text).changed == expected
            except Refused:
                assert expected is None
        same_game(session.game, replayed)
        session.close()
        session.store.close()
        again, replayed = resume(mode)
        same_game(again.game, replayed)
        again.store.close()


def long_game(mode: Mode, actions: int) -> Game:
    """A game of ``mode`` played (with undo whenever it ends) to ``actions`` actions."""
    game = Game.start(mode, "CHECKPT1")
    turn = 0
    while len(game.log) < actions:
        turn += 1
        text = "undo" if game.over else ("left", "up", "right", "down")[turn % 4 if turn % 5 else 0]
        with suppress(Refused):
            game.act(text)
    return game


class Counting:
    """A mode's rules that count the actions applied (resume replays only the rest)."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.applied = 0

    def apply(self, state: Any, action: str) -> Any:
        self.applied += 1
        return self.rules.apply(state, action)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rules, name)


def test_resume_replays_only_the_actions_after_the_checkpoint() -> None:
    counting = Counting(MODES["2048"].rules)
    mode = replace(MODES["2048"], rules=counting)
    session = Session(mode, open_store())
    game = long_game(MODES["2048"], 2_346)  # a checkpoint is taken at a move, not an undo
    session.adopt(replace(game, mode=mode))
    session.close()
    session.store.close()
    at = stored_checkpoint("2048")
    assert at is not None and at["at"] == 2_346
    for word in ("left", "up"):
        session = Session(mode, open_store())
        session.act("undo" if session.game.over else word)
        session.close()
        session.store.close()
    counting.applied = 0
    resumed, replayed = resume(mode)
    assert counting.applied <= 2 + len(replayed.log)  # the replay's own, and two since
    same_game(resumed.game, replayed)


def tamper(mode_id: str, change: Any) -> None:
    path = open_store().path
    with sqlite3.connect(path) as connection:
        row = connection.execute(
            "SELECT data FROM saves WHERE mode_id = ?", (checkpoint_slot(mode_id),)
        ).fetchone()
        data = change(row[0])
        connection.execute(
            "UPDATE saves SET data = ? WHERE mode_id = ?", (data, checkpoint_slot(mode_id))
        )
    connection.close()


def resealed(text: str, edit: Any) -> str:
    """The checkpoint row edited and sealed again (the outer checksum agrees)."""
    data = json.loads(text)
    saved = mock.Mock(game_id=data["game_id"], code=data["code"], checkpoint=data["checkpoint"])
    edit(data["checkpoint"])
    return encode_checkpoint(saved)


def checkpointed_save(mode_id: str = "2048") -> Game:
    with often():
        session = Session(MODES[mode_id], open_store())
        session.adopt(long_game(MODES[mode_id], 40))
        session.close()
        session.store.close()
    assert stored_checkpoint(mode_id) is not None
    return session.game


def test_a_damaged_or_foreign_checkpoint_is_ignored_and_the_log_replayed() -> None:
    def other_log(data: dict[str, Any]) -> None:
        data["log"] = "0" * 32  # a checkpoint of another log

    def short(data: dict[str, Any]) -> None:
        data["at"] = 10**9  # past the end of the log

    def bad_state(data: dict[str, Any]) -> None:
        data["state"] = ["CHECKPT1", "packed", 0, 0, 0]

    def foreign_history(data: dict[str, Any]) -> None:
        data["history"] = [["OTHERGAM", 0, 0, 0, 0]] * len(data["history"])

    edits = [
        # one byte changed, the seal fails (a "0" made "0" changed nothing: 1 run in 16 failed)
        lambda text: text[:-9] + ("1" if text[-9] == "0" else "0") + text[-8:],
        lambda text: "not json",
        lambda text: resealed(text, other_log),
        lambda text: resealed(text, short),
        lambda text: resealed(text, bad_state),
        lambda text: resealed(text, foreign_history),
    ]
    for edit in edits:
        played = checkpointed_save()
        with often():
            tamper("2048", edit)
            store = open_store()
            saved = store.load_save("2048")
            assert saved is not None
            assert (
                checkpoint.resume(
                    MODES["2048"], saved.code, saved.actions, saved.checkpoint, clock=time.monotonic
                )
                is None
            )
            session = Session(MODES["2048"], store)
            assert session.notice is None
            same_game(session.game, played)
            store.close()


def test_a_codec_that_fails_costs_the_checkpoint_never_the_game() -> None:
    class Broken:
        def encode(self, state: Any) -> Any:
            raise RuntimeError("no")

        def decode(self, data: Any) -> Any:
            raise RuntimeError("no")

    mode = replace(MODES["2048"], codec=Broken())
    with often():
        session = Session(mode, open_store())
        session.adopt(long_game(mode, 30))
        session.close()
        session.store.close()
        assert stored_checkpoint("2048") is None
        resumed, replayed = resume(mode)
    same_game(resumed.game, replayed)


def test_a_mode_without_a_codec_keeps_full_replay() -> None:
    assert TALLY.codec is None
    with often():
        session = Session(TALLY, open_store())
        for _ in range(40):
            session.act("undo" if session.game.over else "add")
        session.close()
        session.store.close()
        assert stored_checkpoint(TALLY.id) is None
        resumed, replayed = resume(TALLY)
    same_game(resumed.game, replayed)
    assert len(resumed.game.log) == 40


def test_a_new_game_drops_the_old_games_checkpoint_and_set_aside_keeps_it() -> None:
    checkpointed_save()
    session = Session(MODES["2048"], open_store())
    session.new_game()
    session.act("undo" if session.game.over else "left")
    session.close()
    session.store.close()
    assert stored_checkpoint("2048") is None
    checkpointed_save()
    store = open_store()
    store.load_save("2048")  # as a session does before it sets a save aside
    store.set_aside("2048")
    with sqlite3.connect(store.path) as connection:
        slots = {row[0] for row in connection.execute("SELECT mode_id FROM saves")}
    connection.close()
    store.close()
    assert checkpoint_slot("2048") not in slots
    assert any(s.startswith("2048#aside-") and s.endswith("#checkpoint") for s in slots)


@settings(max_examples=30, deadline=None)
@given(plan=PLANS, mode_id=st.sampled_from(sorted(MODES)))
def test_every_built_in_codec_reads_back_what_it_writes(plan: list[Any], mode_id: str) -> None:
    mode = MODES[mode_id]
    assert mode.codec is not None
    game = Game.start(mode, "CODECS12")
    for choice, cells in plan:
        if game.over:
            break
        with suppress(Refused):
            game.act(command(mode, game, choice, cells))
        for state in (game.state, *game.history):
            data = json.loads(json.dumps(mode.codec.encode(state)))
            assert mode.codec.decode(data) == state


def test_a_checkpoint_waiting_to_be_written_is_not_dropped_by_the_next_save() -> None:
    first = SavedGame("2048", "CHECKPT1", ("left",), game_id="g", checkpoint={"at": 1})
    later = replace(first, actions=("left", "up"), checkpoint=None)
    other = replace(later, game_id="h")
    waiting = Writes(saves={"2048": first})
    waiting.add(Writes(saves={"2048": later}))
    kept = waiting.saves["2048"]
    assert kept is not None and kept.actions == later.actions and kept.checkpoint == {"at": 1}
    waiting.add(Writes(saves={"2048": other}))
    assert waiting.saves["2048"] == other  # another game's save takes no checkpoint


def test_the_tail_a_resume_reads_row_by_row_stays_a_small_share_of_the_save() -> None:
    store = open_store()
    longest = 0
    for count in range(1, 1_501):
        store.write_save(SavedGame("2048", "CHECKPT1", ("left",) * count, game_id="long"))
        with sqlite3.connect(store.path) as connection:
            tail = connection.execute("SELECT count(*) FROM save_tail").fetchone()[0]
        connection.close()
        longest = max(longest, tail - max((count - tail) // TAIL_SHARE, TAIL_FROM))
    store.close()
    assert longest <= 0
