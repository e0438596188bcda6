"""A checkpoint: a game's state at one action of its log, so a long save resumes quickly.

A game is its log; a checkpoint only saves replaying it. It holds the state after the
log's first ``at`` actions and what undo needs (the undo history and the tiles reached
before each of its states), written with the mode's :class:`StateCodec`, and a digest
of those ``at`` actions, the mode, the code and the position. Resuming checks the
digest against the save's own log and replays only the actions after ``at``. A
checkpoint that does not read, or that belongs to another log, is ignored: the log is
replayed from its first action, as it is for a mode without a codec.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from hashlib import blake2b
from typing import Any

from twofold.core._rules import Mode, State, tile_values
from twofold.core.game import UNDO, Clock, Flags, Game, undo_depth

#: a checkpoint is taken once the log has grown by this many actions since the last one
EVERY = 1000
#: the log is digested in blocks of this many actions, so a digest extends in O(EVERY)
BLOCK = 1000
FORMAT = 1


@dataclass(frozen=True)
class Digest:
    """The digest of a log's first ``blocks * BLOCK`` actions, kept to be extended."""

    blocks: int
    value: str


def opening(mode_id: str, code: str, position: Mapping[str, Any] | None) -> Digest:
    """The digest before any action: the game the log belongs to."""
    seed = json.dumps([mode_id, code, position], sort_keys=True, ensure_ascii=True)
    return Digest(0, _hash(seed, ""))


def _hash(previous: str, text: str) -> str:
    digest = blake2b(previous.encode("ascii"), digest_size=16, person=b"twofold-ckpt")
    digest.update(text.encode("utf-8"))
    return digest.hexdigest()


def _block(actions: Sequence[str], number: int) -> str:
    return "\n".join(actions[number * BLOCK : (number + 1) * BLOCK])


def extend(digest: Digest, actions: Sequence[str], upto: int | None = None) -> Digest:
    """``digest`` carried over every whole block of ``actions[:upto]`` it does not cover yet."""
    value = digest.value
    whole = (len(actions) if upto is None else upto) // BLOCK
    for number in range(digest.blocks, whole):
        value = _hash(value, _block(actions, number))
    return Digest(max(whole, digest.blocks), value)


def log_digest(digest: Digest, actions: Sequence[str], at: int) -> str:
    """The digest of ``actions[:at]``, from ``digest`` of its whole blocks (extended here)."""
    if digest.blocks * BLOCK > at:
        raise ValueError("the digest covers more than the checkpoint")
    head = extend(digest, actions, at)
    rest = "\n".join(actions[head.blocks * BLOCK : at])
    return _hash(head.value, f"{at}:{rest}")


def take(game: Game, digest: Digest) -> dict[str, Any] | None:
    """A checkpoint of ``game`` as it is now (JSON), or None when its mode has no codec."""
    codec = game.mode.codec
    if codec is None:
        return None
    return {
        "format": FORMAT,
        "at": len(game.log),
        "log": log_digest(digest, game.log, len(game.log)),
        "state": codec.encode(game.state),
        "history": [codec.encode(state) for state in game.history],
        "reached": sorted(game.reached),
        "reached_history": _runs(game.reached_history),
        "won": game.flags.won,
    }


def _runs(sets: deque[frozenset[int]]) -> list[list[Any]]:
    """``[[count, tiles], ...]``: the tiles reached change seldom from one state to the next."""
    runs: list[list[Any]] = []
    for tiles in sets:
        if runs and runs[-1][1] == sorted(tiles):
            runs[-1][0] += 1
        else:
            runs.append([1, sorted(tiles)])
    return runs


def _unruns(data: Any, most: int) -> deque[frozenset[int]]:
    """The tiles reached before each undo state: at most ``most`` of them (the history's)."""
    if not isinstance(data, list) or len(data) > most:
        raise ValueError("reached_history")
    sets: deque[frozenset[int]] = deque()
    for count, tiles in data:
        if type(count) is not int or not 1 <= count <= most - len(sets):
            raise ValueError("reached_history")
        sets.extend([_tiles(tiles)] * count)
    return sets


def _tiles(data: Any) -> frozenset[int]:
    if not isinstance(data, list) or not all(type(v) is int and v > 0 for v in data):
        raise ValueError("tiles")
    return frozenset(data)


def resume(
    mode: Mode,
    code: str,
    actions: Sequence[str],
    checkpoint: Mapping[str, Any] | None,
    *,
    position: Mapping[str, Any] | None = None,
    clock: Clock,
) -> Game | None:
    """The game of ``actions`` rebuilt from ``checkpoint`` (the actions after it replayed).

    None when the mode has no codec or the checkpoint does not fit this log (then the
    caller replays the log from its start). Raises ReplayError only for the actions
    after the checkpoint, as a full replay would.
    """
    codec = mode.codec
    if codec is None or not isinstance(checkpoint, Mapping):
        return None
    try:
        game = _restore(mode, code, actions, checkpoint, position, clock)
    except Exception:  # a checkpoint is never trusted: any fault, full replay
        return None
    if game is None:
        return None
    try:
        game.play_on(actions[len(game.log) :])
    except Exception:  # the log replays from its start, or fails there as it would anyway
        return None
    return game


def _restore(
    mode: Mode,
    code: str,
    actions: Sequence[str],
    data: Mapping[str, Any],
    position: Mapping[str, Any] | None,
    clock: Clock,
) -> Game | None:
    codec = mode.codec
    at = data["at"]
    if codec is None:
        return None
    if data["format"] != FORMAT or type(at) is not int or not 0 < at <= len(actions):
        return None
    if data["log"] != log_digest(opening(mode.id, code, position), actions, at):
        return None
    if not isinstance(data["history"], list) or len(data["history"]) > undo_depth(mode):
        return None
    state = codec.decode(data["state"])
    history = deque(codec.decode(item) for item in data["history"])
    reached_history = _unruns(data["reached_history"], len(history))
    if not isinstance(state, State) or state.code != code or not 0 <= state.moves <= at:
        return None
    if any(s.code != code for s in history):
        return None
    reached = set(_tiles(data["reached"]))
    if not tile_values(state.board) <= reached or type(data["won"]) is not bool:
        return None
    game = Game(
        mode=mode,
        code=code,
        state=state,
        position=position,
        log=list(actions[:at]),
        flags=Flags(won=data["won"], uncounted=position is not None),
        clock=clock,
        history=history,
        reached=reached,
        reached_history=reached_history,
    )
    return game if _last_action_holds(game) else None


def _last_action_holds(game: Game) -> bool:
    """Whether the checkpoint's last action, played again from the undo state before it,
    gives the state, undo history and tiles reached it claims (an edit that recomputed the
    checksum changes a score, a board, a history; a cheap replay tells)."""
    if not game.undo_depth:
        return True  # a mode without undo keeps no state to play again from
    if not game.log or game.log[-1] == UNDO or not game.history:
        return False  # nothing to play again from: only the whole log can tell
    if len(game.reached_history) != len(game.history):
        return False
    history, reached_history = deque(game.history), deque(game.reached_history)
    before, reached = history.pop(), set(reached_history.pop())
    again = Game(
        mode=game.mode,
        code=game.code,
        state=before,
        position=game.position,
        log=list(game.log[:-1]),
        flags=Flags(won=game.flags.won),
        clock=game.clock,
        history=history,
        reached=reached,
        reached_history=reached_history,
    )
    try:
        again.act(game.log[-1])
    except Exception:
        return False
    return (
        again.state == game.state
        and again.reached == game.reached
        and list(again.history) == list(game.history)
        and list(again.reached_history) == list(game.reached_history)
    )
