"""argparse in the player's language: its usage, headings and errors go through twofold's i18n.

argparse asks gettext for its own messages through its module-level ``_`` and
``ngettext``; :func:`install` points them at :mod:`twofold.core._i18n` once, and every
later language change is followed, as each message is translated when it is shown.
"""

from __future__ import annotations

import argparse

from twofold.core._i18n import N_, Nn_, _, ngettext

#: argparse's own messages a user can meet, so the catalog carries them (argparse asks
#: gettext for them through its module-level ``_`` and ``ngettext``)
ARGPARSE_MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("%(prog)s: error: %(message)s\n"),
)
ARGPARSE_PLURALS = (Nn_("expected %s argument", "expected %s arguments"),)
_ARGPARSE_KNOWN = frozenset(ARGPARSE_MESSAGES) | {s for pair in ARGPARSE_PLURALS for s in pair}
_argparse_gettext = argparse._  # type: ignore[attr-defined]
_argparse_ngettext = argparse.ngettext  # type: ignore[attr-defined]


def _argparse_message(message: str | None) -> str | None:
    if message in _ARGPARSE_KNOWN:
        return _(message)  # type: ignore[arg-type]
    return _argparse_gettext(message)


def _argparse_plural(singular: str, plural: str, n: int) -> str:
    if singular in _ARGPARSE_KNOWN:
        return ngettext(singular, plural, n)
    return _argparse_ngettext(singular, plural, n)


def install() -> None:
    """Let argparse's usage, headings and errors speak the current language."""
    argparse._ = _argparse_message  # type: ignore[attr-defined]
    argparse.ngettext = _argparse_plural  # type: ignore[attr-defined]
