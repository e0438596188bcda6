"""A proof's line: ``TF``, the format symbol, the payload's symbols and six check symbols.

The payload is bits (:mod:`twofold.core.choices`: format 2 codes its choices in chunks,
after a first 1 bit; format 1, still read, as one whole number), written five bits a symbol
in the game codes' alphabet (Crockford's base32). The check is 30 bits of BLAKE2b over the
rest, so a typo or a cut-off proof is refused rather than misread. A line is read as codes
are: case-insensitive, ``I``/``L`` as ``1``, ``O`` as ``0``, hyphens and spaces ignored.
"""

from __future__ import annotations

import hashlib

from twofold.core._i18n import _
from twofold.core.codes import ALPHABET

PREFIX = "TF"
#: the format of the payload written; a new format gets a new symbol, and old ones stay
#: readable (1: one number, read in time the square of its length; 2: in chunks, linear)
FORMAT = "2"
FORMATS = ("1", "2")
CHECK_SYMBOLS = 6
_PERSON = b"twofold-proof"
_SYMBOL = {ch: i for i, ch in enumerate(ALPHABET)}
_LOOKALIKES = str.maketrans({"I": "1", "L": "1", "O": "0"})


class ProofError(ValueError):
    """A proof that cannot be read or does not replay; the message is one line."""


def line_of(bits: str, form: str = FORMAT) -> str:
    """The proof line of a payload's bits (format 2's start with a 1 bit)."""
    body = PREFIX + form + _symbols(bits.lstrip("0") or "0")
    return body + _check(body)


def _symbols(bits: str) -> str:
    bits = "0" * (-len(bits) % 5) + bits
    return "".join(ALPHABET[int(bits[i : i + 5], 2)] for i in range(0, len(bits), 5))


def _check(body: str) -> str:
    digest = hashlib.blake2b(body.encode("ascii"), digest_size=4, person=_PERSON).digest()
    value = int.from_bytes(digest, "big") >> 2
    return "".join(ALPHABET[(value >> (5 * i)) & 31] for i in reversed(range(CHECK_SYMBOLS)))


def normalise(text: str) -> str:
    """A proof as its symbols: upper case, look-alikes read as codes read them, no spaces."""
    return "".join(text.split()).replace("-", "").upper().translate(_LOOKALIKES)


def is_proof(text: str) -> bool:
    """Whether ``text`` looks like a proof line (``TF2...``), checked or not."""
    symbols = normalise(text)
    return symbols.startswith(PREFIX) and all(ch in _SYMBOL for ch in symbols)


def payload_of(text: str) -> tuple[str, str]:
    """The format and the payload's bits of a proof line (no leading 0 bit); ProofError (one
    line) if it is not one."""
    symbols = normalise(text)
    if not symbols.startswith(PREFIX) or len(symbols) < len(PREFIX) + 2 + CHECK_SYMBOLS:
        raise ProofError(_("this is not a twofold proof (a proof starts with TF)"))
    bad = next((ch for ch in symbols if ch not in _SYMBOL), None)
    if bad is not None:
        raise ProofError(
            _("a proof has only 0-9 and A-Z without I, L, O or U, not {ch!r}").format(ch=bad)
        )
    body, check = symbols[:-CHECK_SYMBOLS], symbols[-CHECK_SYMBOLS:]
    if body[len(PREFIX)] not in FORMATS:
        raise ProofError(
            _(
                "this proof has format {format}, which this twofold cannot read: update twofold"
            ).format(format=body[len(PREFIX)])
        )
    if _check(body) != check:
        raise ProofError(_("the proof's check does not match: a symbol is wrong or missing"))
    payload = body[len(PREFIX) + 1 :]
    if len(payload) > 1 and payload[0] == "0":
        raise ProofError(_("the proof's check does not match: a symbol is wrong or missing"))
    return body[len(PREFIX)], "".join(format(_SYMBOL[ch], "05b") for ch in payload).lstrip("0")
