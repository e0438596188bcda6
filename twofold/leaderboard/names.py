"""Players' names: Unicode as people write them, one name for all its look-alikes.

A name is enforced by the PRECIS Nickname profile (RFC 8266, the ``precis-i18n`` package):
NFKC, spaces made one, no controls or invisible formatting, ZWNJ and ZWJ where a script's
words take them (a Persian ZWNJ, a ZWJ after a virama). An emoji sequence joined by ZWJ
(as the ``emoji`` package knows Unicode's) is kept whole. A name of blanks alone is
refused. Names are compared by a key: the PRECIS case-mapped form with each character that
looks like a Latin one (Unicode's confusables, the ``confusable_homoglyphs`` package)
written as that Latin one, so "Аna" in Cyrillic is "Ana".
"""

from __future__ import annotations

import functools
import unicodedata

import emoji
from confusable_homoglyphs import confusables
from precis_i18n import get_profile

from twofold.core._i18n import _

#: the most characters a name has
NAME_LENGTH = 24
_ZWJ = "\u200d"
#: stands for an emoji sequence's ZWJ while PRECIS reads the rest (NFKC and case keep it)
_JOINED = "\u2e3a"
#: characters PRECIS lets through that show nothing (a braille blank, the Hangul fillers)
_BLANKS = frozenset("\u2800\u3164\uffa0\u115f\u1160")
_SHOWN = frozenset("LNPS")
_KEPT = get_profile("NicknameCasePreserved")
_COMPARED = get_profile("NicknameCaseMapped")


def check_name(raw: object) -> str:
    """The name as it is kept, or ValueError saying in one line why it will not do."""
    if not isinstance(raw, str):
        raise ValueError(_("the name must be text"))
    if not raw.strip():
        raise ValueError(_("a name has 1 to {most} characters").format(most=NAME_LENGTH))
    if _JOINED in raw:
        raise ValueError(_("a name has no {ch!r}").format(ch=_JOINED))
    name = _enforced(_KEPT, raw)
    if not 1 <= len(name) <= NAME_LENGTH:
        raise ValueError(_("a name has 1 to {most} characters").format(most=NAME_LENGTH))
    if not any(unicodedata.category(ch)[0] in _SHOWN and ch not in _BLANKS for ch in name):
        raise ValueError(_("a name shows at least one letter, digit or sign"))
    return name


def name_key(name: str) -> str:
    """What ``name`` is compared by: its look-alikes have the same key."""
    try:
        mapped = _enforced(_COMPARED, name)
    except ValueError:  # a name kept before names were checked so: compared as it is
        mapped = name.casefold()
    return "".join(_latin(ch) for ch in mapped).casefold()


def _enforced(profile: object, raw: str) -> str:
    masked = raw
    for found in reversed(emoji.emoji_list(raw)):
        sequence = found["emoji"]
        if _ZWJ in sequence:
            start, end = found["match_start"], found["match_end"]
            masked = masked[:start] + sequence.replace(_ZWJ, _JOINED) + masked[end:]
    try:
        enforced = profile.enforce(masked)  # type: ignore[attr-defined]
    except UnicodeEncodeError as error:
        if error.start >= len(error.object):
            raise ValueError(
                _("a name has 1 to {most} characters").format(most=NAME_LENGTH)
            ) from None
        ch = error.object[error.start]
        what = unicodedata.name(ch, "").lower() or _("a control character")
        raise ValueError(
            _("a name may not have U+{code:04X} ({what})").format(code=ord(ch), what=what)
        ) from None
    return enforced.replace(_JOINED, _ZWJ)


@functools.lru_cache(maxsize=8192)
def _latin(ch: str) -> str:
    found = confusables.is_confusable(ch, preferred_aliases=["latin"], greedy=False)
    if found:
        for glyph in found[0]["homoglyphs"]:
            if glyph["n"].startswith("LATIN "):
                return glyph["c"]
    return ch
