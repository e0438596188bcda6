"""``twofold verify [TEXT | -]``: replay a result's proof, offline, and say what it proves.

The whole pasted result or its proof line alone, as the argument or on stdin (``-``, or
no argument). Exit 0 when the proof replays to the figures claimed, 1 when it replays
but the headline claims others, 2 when it cannot be read (see :mod:`twofold.core.verify`).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from twofold.core.i18n import _
from twofold.core.proof import ProofError
from twofold.core.verify import as_dict, describe, verify

#: the most of stdin read: a proof of a million moves is about 400 KB
MOST_INPUT = 4 * 1024 * 1024
UNREADABLE = 2


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "text",
        nargs="?",
        default="-",
        metavar=_("TEXT"),
        help=_("a result as Copy result gives it, or its proof line; - (the default) reads stdin"),
    )
    parser.add_argument("--json", action="store_true", help=_("print one JSON object"))


def read_input(text: str, stdin: TextIO | None = None) -> str:
    """The argument, or stdin for ``-`` (at most :data:`MOST_INPUT` characters)."""
    if text != "-":
        return text
    stream = stdin if stdin is not None else sys.stdin
    return stream.read(MOST_INPUT) if stream is not None else ""


def run(args: argparse.Namespace, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        verified = verify(read_input(args.text))
    except ProofError as error:
        if args.json:
            print(json.dumps({"verified": False, "error": str(error)}), file=out)
        print("twofold: " + _("not verified: {reason}").format(reason=error), file=err)
        return UNREADABLE
    if args.json:
        print(json.dumps(as_dict(verified), ensure_ascii=False), file=out)
    else:
        for line in describe(verified):
            print(line, file=out)
        if verified.differences:
            print(_("The headline does not match the replay:"), file=out)
        else:
            print(_("Verified: the proof replays to these figures."), file=out)
    for difference in verified.differences:
        print("twofold: " + difference, file=err)
    return verified.status
