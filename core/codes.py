"""Game codes and share strings.

A game code is eight symbols of Crockford's base32 alphabet (no I, L, O or U), the
last of which is a check symbol, so a mistyped code is caught rather than silently
opening a different game. Codes are case-insensitive; ``I``/``L`` read as ``1``,
``O`` as ``0``, and hyphens and spaces are ignored, so ``7k3m-9qxp`` works.

A share string carries the mode and the code: ``2048-5x5/7K3M9QXP``.
"""

from __future__ import annotations

import secrets
from hashlib import blake2b

from twofold.core._i18n import _

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 8
_DATA_LENGTH = CODE_LENGTH - 1
_LOOKALIKES = str.maketrans({"I": "1", "L": "1", "O": "0"})
SHARE_SEPARATOR = "/"


class CodeError(ValueError):
    """A game code or share string that cannot be read; the message is one line."""


def _gf32_times_x(value: int) -> int:
    """Multiply by x in GF(32) = GF(2)[x] / (x^5 + x^2 + 1)."""
    value <<= 1
    return value ^ 0b100101 if value & 0b100000 else value


def _check_symbol(data: str) -> str:
    # A check in GF(32) (Horner's rule) catches every single typo and every adjacent swap.
    total = 0
    for ch in data:
        total = _gf32_times_x(total) ^ ALPHABET.index(ch)
    return ALPHABET[_gf32_times_x(total)]


def _from_number(number: int) -> str:
    symbols = []
    for _position in range(_DATA_LENGTH):
        number, digit = divmod(number, len(ALPHABET))
        symbols.append(ALPHABET[digit])
    data = "".join(reversed(symbols))
    return data + _check_symbol(data)


#: how many codes there are (a code is a number below this, and its check symbol)
CODE_COUNT = len(ALPHABET) ** _DATA_LENGTH


def code_from_number(number: int) -> str:
    """The code of ``number`` (below :data:`CODE_COUNT`): its symbols and check symbol."""
    return _from_number(number)


def code_number(code: str) -> int:
    """The number a valid code stands for (the inverse of :func:`code_from_number`)."""
    number = 0
    for ch in code[:_DATA_LENGTH]:
        number = number * len(ALPHABET) + ALPHABET.index(ch)
    return number


def new_code() -> str:
    """A fresh random code for a new game (the only place randomness enters)."""
    return _from_number(secrets.randbelow(len(ALPHABET) ** _DATA_LENGTH))


def code_from_text(text: str) -> str:
    """A valid code derived from any text, the same everywhere (used for the daily seed)."""
    digest = blake2b(text.encode("utf-8"), digest_size=8).digest()
    return _from_number(int.from_bytes(digest, "big"))


def parse_code(text: str) -> str:
    """Normalise a code typed by a person, or raise :class:`CodeError` saying what is wrong."""
    cleaned = text.strip().upper().replace("-", "").replace(" ", "").translate(_LOOKALIKES)
    if not cleaned:
        raise CodeError(_("the game code is empty"))
    for position, ch in enumerate(cleaned, start=1):
        if ch not in ALPHABET:
            raise CodeError(
                _(
                    "the game code has {ch!r} at position {position}; codes use 0-9 and A-Z "
                    "without I, L, O or U"
                ).format(ch=ch, position=position)
            )
    if len(cleaned) != CODE_LENGTH:
        raise CodeError(
            _("a game code has {length} characters, {text!r} has {count}").format(
                length=CODE_LENGTH, text=text.strip(), count=len(cleaned)
            )
        )
    if _check_symbol(cleaned[:-1]) != cleaned[-1]:
        raise CodeError(
            _("{text!r} is not a valid game code (check for a typo)").format(text=text.strip())
        )
    return cleaned


def format_code(code: str) -> str:
    """The code as shown to people: two groups of four, ``7K3M-9QXP``."""
    return f"{code[:4]}-{code[4:]}"


def share_string(mode_id: str, code: str) -> str:
    """The share string for a game, ``MODE/CODE``, its code in the one form people see
    (``2048/7K3M-9QXP``, as the top bar shows it); :func:`parse_share` reads either form."""
    return f"{mode_id}{SHARE_SEPARATOR}{format_code(code)}"


def is_share_string(text: str) -> bool:
    return SHARE_SEPARATOR in text


def parse_share(text: str) -> tuple[str, str]:
    """Split a share string into ``(mode_id, code)``, checking the code."""
    mode_id, sep, code = text.strip().rpartition(SHARE_SEPARATOR)
    if not sep or not mode_id:
        raise CodeError(
            _("{text!r} is not a share string (expected MODE/CODE)").format(text=text.strip())
        )
    return mode_id.lower(), parse_code(code)
