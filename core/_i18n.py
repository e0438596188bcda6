"""Translations: every string a player sees goes through :func:`_` (gettext).

Catalogs live beside this module in ``locale/<lang>/LC_MESSAGES/twofold.mo`` (the
``.po`` sources sit next to them; ``tools/i18n.py`` extracts, updates and compiles).
The language is the ``language`` setting, else the environment (``LANGUAGE``,
``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English.

Until :func:`set_language` is called, the first translation reads the stored setting
through the source :func:`read_language_with` was handed (the store's read-only peek at
the database, so the command line's ``--help`` is translated too), and otherwise the
environment.

Strings translated when a module is imported (``BINDINGS`` descriptions, say) keep
the language of that moment; :func:`retranslate` turns such a string into the current
language, which is how the app redraws key labels after the language changes.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Callable, Mapping
from pathlib import Path

DOMAIN = "twofold"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
ENGLISH = "en"
#: every language the app offers, by code, each named in its own language
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "de": "Deutsch"}
#: the environment variables that name a language, strongest first (as GNU gettext)
LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_translation: gettext.NullTranslations | None = None
_language: str = ENGLISH
#: translated text -> its English msgid, over every catalog (for :func:`retranslate`)
_msgids: dict[str, str] | None = None
#: msgids asked for in a non-English language that its catalog does not have
_missing: set[str] = set()
#: plugins' own catalogs (domain -> locale folder), asked after twofold's
_domains: dict[str, Path] = {}
#: what reads the stored language setting (see :func:`read_language_with`)
_source: Callable[[], str] = str


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular and plural pair for extraction without translating it now."""
    return singular, plural


def Np_(context: str, message: str) -> tuple[str, str]:
    """Mark a message with its context (see :func:`pgettext`) without translating it now."""
    return context, message


def available_languages() -> list[str]:
    """The codes of every language with a catalog, English first."""
    found = sorted(
        path.parent.parent.name for path in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo")
    )
    return [ENGLISH, *(code for code in found if code != ENGLISH)]


def language_name(code: str) -> str:
    """A language's name in that language ("Deutsch"), or its code when unknown."""
    return LANGUAGE_NAMES.get(code, code)


def _match(value: str, available: list[str]) -> str | None:
    """The available language a locale name such as ``de_DE.UTF-8`` or ``de-AT`` means."""
    name = value.strip().split(".")[0].split("@")[0].replace("-", "_")
    if not name:
        return None
    language, _sep, territory = name.partition("_")
    candidates = [f"{language.lower()}_{territory.upper()}", language.lower()]
    for candidate in candidates if territory else candidates[1:]:
        if candidate in available:
            return candidate
    return None


def environment_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, if there is a catalog for it; else English."""
    environ = os.environ if environ is None else environ
    available = available_languages()
    for variable in LANGUAGE_VARIABLES:
        value = environ.get(variable, "")
        if not value:
            continue
        if variable == "LANGUAGE":
            # a priority list ("fr:de"); when none is known the locale variables decide
            for item in value.split(":"):
                if found := _match(item, available):
                    return found
            continue
        # the first locale variable that is set decides, as in gettext; "C" is English
        return _match(value, available) or ENGLISH
    return ENGLISH


def resolve_language(setting: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The language to use: the setting if there is a catalog for it, else the environment's."""
    if setting:
        found = _match(setting, available_languages())
        if found:
            return found
    return environment_language(environ)


def read_language_with(source: Callable[[], str]) -> None:
    """Where the first translation reads the stored ``language`` setting (the store hands
    in its read-only peek, so i18n knows nothing of how settings are kept)."""
    global _source
    _source = source


def stored_language() -> str:
    """The stored ``language`` setting, or "" (never raises, never writes)."""
    try:
        return _source()
    except Exception:  # a partial import, a damaged file: the environment decides
        return ""


def set_language(language: str | None) -> str:
    """Use ``language`` ("de"); None or "" means the environment's. Returns the code in use."""
    global _translation, _language
    code = resolve_language(language)
    if code == ENGLISH:
        _translation = gettext.NullTranslations()
    else:
        _translation = gettext.translation(
            DOMAIN, localedir=LOCALE_DIR, languages=[code], fallback=True
        )
    for domain, folder in _domains.items():
        _translation.add_fallback(
            gettext.translation(domain, localedir=folder, languages=[code], fallback=True)
        )
    if code != _language:
        _missing.clear()
    _language = code
    return code


def add_domain(domain: str, localedir: str | Path) -> None:
    """Let a plugin's own catalog (``<localedir>/<lang>/LC_MESSAGES/<domain>.mo``) answer
    :func:`_` for the strings twofold's catalog does not have."""
    _domains[domain] = Path(localedir)
    if _translation is not None:
        set_language(_language)


def current_language() -> str:
    """The code of the language in use ("en", "de")."""
    _active()
    return _language


def _active() -> gettext.NullTranslations:
    if _translation is None:
        set_language(stored_language() or None)
    assert _translation is not None
    return _translation


class Message(str):
    """A translated string that remembers its English original, so it can change language.

    It is a ``str`` in every way (formatting it gives a plain ``str``); pickling and
    copying give a plain ``str`` too.
    """

    msgid: str

    def __new__(cls, text: str, msgid: str) -> Message:
        message = super().__new__(cls, text)
        message.msgid = msgid
        return message

    def __reduce__(self) -> tuple[type[str], tuple[str]]:
        return str, (str(self),)


def _(message: str) -> str:
    """The message in the current language (a :class:`Message`, which remembers its msgid)."""
    translation = _active()
    if message is None:  # argparse asks for _(None) when a group has no description
        return message
    msgid = getattr(message, "msgid", message)
    result = translation.gettext(msgid)
    if result is msgid and _language != ENGLISH and msgid:
        _missing.add(msgid)
    return Message(result, msgid)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural message for ``n``, in the current language."""
    translation = _active()
    result = translation.ngettext(singular, plural, n)
    if _language != ENGLISH and (result is singular or result is plural):
        _missing.add(singular)
    return result


def an_before(number: int) -> bool:
    """Whether English says "an" before ``number`` read aloud: an 8, an 11, an 18, an 80.

    The sound is that of the number's first group of three digits (8192 is "eight
    thousand..."); other languages translate both sentences as their grammar wants.
    """
    lead = abs(number)
    while lead >= 1000:
        lead //= 1000
    return lead in (8, 11, 18) or 80 <= lead <= 89 or 800 <= lead <= 899


def pgettext(context: str, message: str) -> str:
    """The message in the current language, told apart from the same English by ``context``."""
    translation = _active()
    result = translation.pgettext(context, message)
    if result is message and _language != ENGLISH and message:
        _missing.add(f"{context}|{message}")
    return result


def missing() -> frozenset[str]:
    """The messages asked for, since the language last changed, that have no translation."""
    return frozenset(_missing)


def _catalog(code: str) -> dict[str, str]:
    translation = gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[code], fallback=True)
    catalog: dict[object, str] = getattr(translation, "_catalog", {})
    messages: dict[str, str] = {}
    for key, text in catalog.items():
        # plural entries are keyed (msgid, index); the header has the empty msgid
        msgid = key[0] if isinstance(key, tuple) else key
        if isinstance(msgid, str) and msgid and "\x04" not in msgid:
            messages[text] = msgid
    return messages


def retranslate(text: str) -> str:
    """``text``, translated in any language (or English), in the current language.

    For strings fixed when a module was imported, such as key labels. Text that is in
    no catalog is given back as it is.
    """
    global _msgids
    if not text:
        return text
    msgid = getattr(text, "msgid", None)
    if isinstance(msgid, str):
        return _(msgid)
    if _msgids is None:
        _msgids = {}
        for code in available_languages():
            if code != ENGLISH:
                _msgids.update(_catalog(code))
    return _(_msgids.get(text, text))
