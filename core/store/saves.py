"""A save as stored: the JSON text of its base, sealed by a checksum, and its tail rows.

A save is the game's log as JSON text with a format number and a checksum (the
*base*), plus the actions taken since, one row each in ``save_tail``, each sealed with
a checksum that chains it to its base. The base is written again only when the tail
has grown to a sixteenth of the base, so a save costs O(1) per action however long the
game, and the tail a resume reads and checks row by row stays short.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, replace
from hashlib import blake2b
from typing import Any

from twofold.core._i18n import _
from twofold.core.rows import NewerSave, SavedGame
from twofold.core.store.schema import SAVE_TAIL

#: the format of the JSON a save is stored as; a newer one is refused, never guessed at
SAVE_FORMAT = 1
#: a save's base is rewritten once its tail is this long and a TAIL_SHARE-th of the base
TAIL_FROM = 64
TAIL_SHARE = 16
_CODE = re.compile(r"[0-9A-Z]{8}")
#: the tail columns a save is read back from, in :data:`SAVE_TAIL`'s order after mode_id
TAIL_COLUMNS = ", ".join(SAVE_TAIL.names[1:])
TAIL_INSERT = SAVE_TAIL.insert(replace=True)


def checksum(payload: Mapping[str, Any]) -> str:
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return blake2b(canonical.encode("utf-8"), digest_size=8).hexdigest()


def encode_save(saved: SavedGame) -> str:
    """A save as the JSON text stored in the database."""
    return encode_sealed(saved)[0]


def encode_sealed(saved: SavedGame) -> tuple[str, str]:
    """The JSON text of a save and its checksum (which seals the save's tail rows)."""
    payload: dict[str, Any] = {
        "format": SAVE_FORMAT,
        "mode_id": saved.mode_id,
        "code": saved.code,
        "actions": list(saved.actions),
        "elapsed": float(saved.elapsed),
        "flags": dict(saved.flags) if saved.flags is not None else None,
        "position": saved.position,
        "day": saved.day,
        "game_id": saved.game_id,
    }
    # Checksum what a reader will see (tuples become lists, keys become strings).
    payload = json.loads(json.dumps(payload))
    payload["check"] = check = checksum(payload)
    return json.dumps(payload, ensure_ascii=False), check


def decode_save(text: str | bytes, mode_id: str) -> SavedGame:
    """The save stored for ``mode_id``; raise ValueError with a short reason if unreadable."""
    return decode_sealed(text, mode_id)[0]


def decode_sealed(text: str | bytes, mode_id: str) -> tuple[SavedGame, str]:
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        data = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ValueError(_("it is not valid JSON")) from None
    except RecursionError:
        raise ValueError(_("it is nested too deeply")) from None
    if not isinstance(data, dict):
        raise ValueError(_("it is not a saved game"))
    version = data.get("format")
    if type(version) is not int or version < 1:
        raise ValueError(_("it has no format number"))
    if version > SAVE_FORMAT:
        raise NewerSave(
            _("it was written by a newer twofold (save format {version})").format(version=version)
        )
    check = data.pop("check", None)
    if check != checksum(data):
        raise ValueError(_("its checksum does not match"))
    saved_mode = data.get("mode_id")
    if saved_mode != mode_id:
        raise ValueError(_("it belongs to mode {mode}").format(mode=repr(saved_mode)))
    code = data.get("code")
    actions = data.get("actions")
    elapsed = data.get("elapsed")
    flags = data.get("flags")
    position = data.get("position")
    day = data.get("day")
    game_id = data.get("game_id", "")
    if not isinstance(code, str) or not code:
        raise ValueError(_("its game code is missing"))
    if not _CODE.fullmatch(code):
        raise ValueError(_("its game code is not a game code"))
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise ValueError(_("its list of actions is damaged"))
    if (
        not isinstance(elapsed, int | float)
        or isinstance(elapsed, bool)
        or not math.isfinite(elapsed)
        or elapsed < 0
    ):
        raise ValueError(_("its play time is damaged"))
    if flags is not None and not (
        isinstance(flags, dict) and all(isinstance(v, bool) for v in flags.values())
    ):
        raise ValueError(_("its flags are damaged"))
    if position is not None and not isinstance(position, dict):
        raise ValueError(_("its starting position is damaged"))
    if day is not None and not isinstance(day, str):
        raise ValueError(_("its day is damaged"))
    if not isinstance(game_id, str):
        raise ValueError(_("its game id is damaged"))
    saved = SavedGame(
        mode_id=mode_id,
        code=code,
        # one string per distinct action: a long log of few words costs a pointer an action
        actions=tuple(map(sys.intern, actions)),
        elapsed=float(elapsed),
        flags=flags,
        position=position,
        day=day,
        game_id=game_id,
    )
    return saved, check


def tail_seal(base: str, seq: int, action: str, elapsed: float, flags: str) -> str:
    canonical = json.dumps([base, seq, action, elapsed, flags], ensure_ascii=True)
    return blake2b(canonical.encode("utf-8"), digest_size=8).hexdigest()


def tail_row(
    mode_id: str, base: str, seq: int, action: str, elapsed: float, flags: str
) -> tuple[Any, ...]:
    return (
        mode_id,
        seq,
        action,
        elapsed,
        flags,
        base,
        tail_seal(base, seq, action, elapsed, flags),
    )


@dataclass(frozen=True)
class Slot:
    """What this store last wrote (or read) in a mode's save slot, so a save appends."""

    game_id: str
    code: str
    written: int
    base_length: int
    base: str


def flags_text(flags: Mapping[str, bool] | None) -> str:
    return json.dumps(dict(flags) if flags is not None else None, sort_keys=True)


def with_tail(saved: SavedGame, base: str, rows: list[tuple[Any, ...]]) -> tuple[SavedGame, int]:
    """``saved`` with the actions of its tail rows, up to the first that does not read.

    Rows left by an earlier base are skipped (never read). Returns the save and how
    many of its tail's rows were lost (the damaged one and every one after it).
    """
    actions = list(saved.actions)
    elapsed, flags = saved.elapsed, saved.flags
    mine = [row for row in rows if row[4] == base]
    for number, (seq, action, row_elapsed, row_flags, _base, seal) in enumerate(mine):
        if (
            seq != len(actions)
            or not isinstance(action, str)
            or not isinstance(row_flags, str)
            or not isinstance(row_elapsed, int | float)
            or isinstance(row_elapsed, bool)
            or not math.isfinite(row_elapsed)
            or row_elapsed < 0
            or seal != tail_seal(base, seq, action, row_elapsed, row_flags)
        ):
            # the base and the rows before are sealed and valid: resume there
            lost = max(len(mine) - number, _last_seq(mine) + 1 - len(actions))
            break
        actions.append(sys.intern(action))
        elapsed = float(row_elapsed)
        flags = _flags(row_flags, flags)
    else:
        lost = 0
    return replace(saved, actions=tuple(actions), elapsed=elapsed, flags=flags), lost


def _last_seq(rows: list[tuple[Any, ...]]) -> int:
    numbers = [row[0] for row in rows if isinstance(row[0], int)]
    return max(numbers, default=-1)


def _flags(text: str, default: Mapping[str, bool] | None) -> Mapping[str, bool] | None:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return default
    if value is None:
        return None
    if isinstance(value, dict) and all(isinstance(v, bool) for v in value.values()):
        return value
    return default


def checkpoint_slot(mode_id: str) -> str:
    """The ``saves`` row that keeps a mode's checkpoint beside its save (no reader of
    saves lists it: an older twofold passes it by, as it does a save set aside)."""
    return f"{mode_id}#checkpoint"


def last_slot(mode_id: str) -> str:
    """The ``saves`` row that keeps a mode's game one step back (Last game), passed by as
    the checkpoint's is."""
    return f"{mode_id}#last"


def window_slot(mode_id: str, game_id: str) -> str:
    """The ``saves`` row that keeps a game a second window played on a mode whose slot
    another window held: kept whole, offered when the mode is next opened."""
    return f"{mode_id}#window-{game_id}"


def tip_slot(mode_id: str) -> str:
    """The ``saves`` row that says how long a mode's save is (its *tip*), written with
    every save: a tail row lost to damage no check of SQLite's sees (a skipped row, a
    hidden one) shortens the save, and the tip tells by how much."""
    return f"{mode_id}#tip"


def encode_tip(saved: SavedGame, base: str) -> str:
    """The tip of ``saved`` as stored: its length, tied to its base's checksum."""
    payload: dict[str, Any] = {"format": SAVE_FORMAT, "base": base, "count": len(saved.actions)}
    payload["check"] = checksum(payload)
    return json.dumps(payload)


def unsealed(text: Any) -> dict[str, Any] | None:
    """A small sealed row (a tip, a checkpoint) read back without its check, or None when
    it is not JSON or its check does not match."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.pop("check", None) != checksum(data):
        return None
    return data


def decode_tip(text: Any, base: str) -> int | None:
    """How many actions the save of ``base`` has, or None when the tip does not read."""
    data = unsealed(text)
    if data is None:
        return None
    count = data.get("count")
    if data.get("base") != base or type(count) is not int or count < 0:
        return None
    return count


def encode_checkpoint(saved: SavedGame) -> str:
    """The checkpoint of ``saved`` as stored: sealed, and tied to its game."""
    payload: dict[str, Any] = {
        "format": SAVE_FORMAT,
        "game_id": saved.game_id,
        "code": saved.code,
        "checkpoint": saved.checkpoint,
    }
    payload = json.loads(json.dumps(payload))
    payload["check"] = checksum(payload)
    return json.dumps(payload, ensure_ascii=False)


def decode_checkpoint(text: Any, saved: SavedGame) -> Mapping[str, Any] | None:
    """The checkpoint stored for ``saved``'s game, or None when it is not one (ignored)."""
    data = unsealed(text)
    if data is None:
        return None
    if data.get("format") != SAVE_FORMAT or data.get("game_id") != saved.game_id:
        return None
    found = data.get("checkpoint")
    return found if data.get("code") == saved.code and isinstance(found, dict) else None
