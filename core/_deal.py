"""The deal: every random choice in a game, as a pure function of its code.

Draw number ``index`` of game ``code`` is the first eight bytes of
``BLAKE2b(digest_size=16, person=b"twofold-deal")`` over ``"<CODE>:<index>"``,
read as a big-endian unsigned integer. BLAKE2b is specified by RFC 7693 and
ships with every Python, so a game plays out the same on every machine and
version; nothing here touches :mod:`random`, ``hash()`` or set order.

A state records how many draws it has used; undo restores that count with the
board, so redoing an action replays the same draws: undo never rerolls.
"""

from __future__ import annotations

from hashlib import blake2b
from typing import Any

_PERSON = b"twofold-deal"
DRAW_BITS = 64
DRAW_RANGE = 1 << DRAW_BITS
#: game codes whose "<CODE>:" hash is kept, to be copied for each draw (a game draws
#: thousands of times from one code)
PREFIXES_KEPT = 256
_prefixes: dict[str, Any] = {}


def draw(code: str, index: int) -> int:
    """Draw ``index`` of the deal for ``code``: an integer in ``[0, 2**64)``."""
    prefix = _prefixes.get(code)
    if prefix is None:
        if len(_prefixes) >= PREFIXES_KEPT:
            _prefixes.clear()
        prefix = _prefixes[code] = blake2b(
            f"{code}:".encode("ascii"), digest_size=16, person=_PERSON
        )
    # the same digest as of "<CODE>:<index>" whole: the hash of "<CODE>:" taken on from
    hashed = prefix.copy()
    hashed.update(b"%d" % index)
    return int.from_bytes(hashed.digest()[:8], "big")


def below(code: str, index: int, n: int) -> int:
    """A number in ``range(n)`` from draw ``index``; the bias is under ``n / 2**64``."""
    if n <= 0:
        raise ValueError("below() needs n >= 1")
    return draw(code, index) % n


def chance(code: str, index: int) -> float:
    """A number in ``[0, 1)`` from draw ``index``."""
    return draw(code, index) / DRAW_RANGE
