"""``twofold submit [RESULT | -] --to URL --name NAME``: send a result to a leaderboard.

The same as the app's "Send to leaderboard": one POST of the result and the name, then the
rank, or the server's reason in one line (exit 1), or why it could not be reached (exit 2).
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from twofold.core._i18n import _
from twofold.core.proof import ProofError
from twofold.ui.command.verify import read_input
from twofold.ui.submission import SendError, send_result

UNREACHABLE = 2


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "result",
        nargs="?",
        default="-",
        metavar=_("RESULT"),
        help=_(
            "a result as Copy result gives it, or a file holding one; - (the default) reads stdin"
        ),
    )
    parser.add_argument(
        "--to", required=True, metavar=_("URL"), help=_("the leaderboard, http://HOST:PORT/")
    )
    parser.add_argument("--name", required=True, metavar=_("NAME"), help=_("your name on it"))


def run(args: argparse.Namespace, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        text = read_input(args.result)
    except ProofError as error:  # a file that cannot be read
        print(f"twofold: {error}", file=err)
        return UNREACHABLE
    try:
        sent = send_result(args.to, text, args.name)
    except SendError as error:
        print(f"twofold: {error}", file=err)
        return UNREACHABLE if error.unreachable else 1
    print(sent.words, file=out)
    return 0
