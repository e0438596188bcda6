"""What every command shares: a mistake is one line and exit status 2, input quoted short."""

from __future__ import annotations

import argparse
from typing import NoReturn

from twofold.core._i18n import _

USAGE_ERROR = 2
#: the most digits of a whole number in a position file or an option
NUMBER_DIGITS = 18
#: the most characters of the user's input quoted in a message
QUOTE_LIMIT = 200


def cut(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` shortened for a message (input is never echoed back whole)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def small_int(text: str) -> int:
    """A whole number of at most NUMBER_DIGITS ASCII digits (an option's value)."""
    digits = text.strip()
    unsigned = digits[1:] if digits[:1] in ("+", "-") else digits
    if not (0 < len(unsigned) <= NUMBER_DIGITS and unsigned.isascii() and unsigned.isdigit()):
        raise argparse.ArgumentTypeError(
            _("invalid int value: {text!r}").format(text=cut(text, 40))
        )
    return int(digits)


class UsageError(Exception):
    """A mistake on the command line; the message is the one line shown."""


class Parser(argparse.ArgumentParser):
    """argparse, but a mistake is one line and exit status 2, never a usage dump."""

    def error(self, message: str) -> NoReturn:
        line = _("{prog}: {message} (see {prog} --help)").format(prog=self.prog, message=message)
        self.exit(USAGE_ERROR, line + "\n")
