"""A checkpoint edited with its checksum recomputed is checked against
the log (its last action played again), and one that fails costs a replay, never the save.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.core.test_checkpoint import (
    MODES,
    checkpointed_save,
    often,
    resealed,
    same_game,
    stored_checkpoint,
    tamper,
)
from twofold.core import checkpoint
from twofold.core.session import Session
from twofold.core.store import open_store


def score(data: dict[str, Any]) -> None:
    data["state"][2] += 4  # a 2048 state: [code, packed board, score, moves, draws]


def board(data: dict[str, Any]) -> None:
    data["state"][1] ^= 1  # one cell of the board


def history(data: dict[str, Any]) -> None:
    data["history"][-1][2] += 4  # the score of the state undo goes back to


def reached(data: dict[str, Any]) -> None:
    data["reached"] = sorted({*data["reached"], 4096})


def reached_run(data: dict[str, Any]) -> None:
    data["reached_history"] = [[10**9, [2]]]  # a run of a billion: 53 s to unroll


@pytest.mark.timeout(60)
@pytest.mark.parametrize("edit", [score, board, history, reached, reached_run])
def test_an_edited_checkpoint_resumes_the_logs_game(edit: Any) -> None:
    played = checkpointed_save()
    with often():
        tamper("2048", lambda text: resealed(text, edit))
        store = open_store()
        saved = store.load_save("2048")
        assert saved is not None and saved.checkpoint is not None
        began = time.monotonic()
        rebuilt = checkpoint.resume(
            MODES["2048"], saved.code, saved.actions, saved.checkpoint, clock=time.monotonic
        )
        assert rebuilt is None
        assert time.monotonic() - began < 30
        session = Session(MODES["2048"], store)
        assert session.notice is None  # nothing was lost: the log holds it all
        same_game(session.game, played)
        store.close()
    with open_store() as store:
        assert not [row for row in store._read("SELECT mode_id FROM saves") if "#aside" in row[0]]


def test_a_checkpoint_is_taken_at_a_move_and_used() -> None:
    played = checkpointed_save()
    kept = stored_checkpoint("2048")
    assert kept is not None and played.log[kept["at"] - 1] != "undo"
    with often():
        store = open_store()
        saved = store.load_save("2048")
        assert saved is not None
        rebuilt = checkpoint.resume(
            MODES["2048"], saved.code, saved.actions, saved.checkpoint, clock=time.monotonic
        )
        assert rebuilt is not None
        same_game(rebuilt, played)
        store.close()
