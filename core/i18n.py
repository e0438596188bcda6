"""Translations: every string a player sees goes through :func:`_` (gettext).

Catalogs live in ``twofold/locale/<lang>/LC_MESSAGES/twofold.mo``. The language is
the setting, else ``LANGUAGE``/``LC_ALL``/``LANG``, else English.
"""

from __future__ import annotations

import gettext
from pathlib import Path

DOMAIN = "twofold"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

_translation: gettext.NullTranslations = gettext.NullTranslations()


def set_language(language: str | None) -> None:
    """Use ``language`` (``"de"``), or the environment's when None; English as fallback."""
    global _translation
    languages = [language] if language else None
    _translation = gettext.translation(
        DOMAIN, localedir=LOCALE_DIR, languages=languages, fallback=True
    )


def _(message: str) -> str:
    """The message in the current language."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translation.ngettext(singular, plural, n)
