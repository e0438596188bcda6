"""``twofold verify [TEXT | -]``: replay a result's proof, offline, and say what it proves.

The whole pasted result or its proof line alone, as the argument or on stdin (``-``, or
no argument). Exit 0 when the proof replays to the figures claimed, 1 when it replays
but the headline claims others, 2 when it cannot be read (see :mod:`twofold.core.verify`).
It takes a leaderboard's caps by default (200,000 actions, 5 CPU seconds, 512 KB);
``--no-caps`` lifts them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from twofold.core._i18n import _
from twofold.core.proof import ProofError
from twofold.core.verify import (
    MOST_ACTIONS,
    MOST_BYTES,
    MOST_CPU_SECONDS,
    TooLong,
    as_dict,
    cpu_capped,
    describe,
    verify,
)

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
    parser.add_argument(
        "--no-caps",
        action="store_true",
        help=_(
            "lift a leaderboard's caps (200,000 actions, 5 CPU seconds, 512 KB), which it "
            "takes by default"
        ),
    )


def read_input(text: str, stdin: TextIO | None = None, most: int = MOST_INPUT) -> str:
    """The argument; the file it names (a one-line argument that is a file: ``result.txt``);
    or stdin for ``-``; at most ``most`` characters.

    Raises ProofError, one line, for a file that cannot be read.
    """
    if text == "-":
        stream = stdin if stdin is not None else sys.stdin
        return stream.read(most) if stream is not None else ""
    path = Path(text.strip())
    if "\n" in text.strip() or not _is_file(path):
        return text
    try:
        with path.open(encoding="utf-8") as file:
            return file.read(most)
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise ProofError(
            _("cannot read {path}: {reason}").format(path=str(path)[:200], reason=reason)
        ) from None


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):  # a name too long, or with a NUL: not a file
        return False


def _verified(text: str, capped: bool) -> Any:
    if not capped:
        return verify(text)
    if len(text.encode("utf-8", "replace")) > MOST_BYTES:
        raise ProofError(
            _("the result is over {most} bytes, a leaderboard's cap (--no-caps lifts it)").format(
                most=MOST_BYTES
            )
        )
    try:
        return cpu_capped(MOST_CPU_SECONDS, verify, text, max_actions=MOST_ACTIONS)
    except ProofError as error:
        if str(error) != _("the proof has more than {count} actions").format(count=MOST_ACTIONS):
            raise
        raise ProofError(f"{error} (--no-caps lifts the cap)") from None
    except TooLong:
        raise ProofError(
            _("the proof took more than {seconds:g} s to replay (--no-caps lifts the cap)").format(
                seconds=MOST_CPU_SECONDS
            )
        ) from None


def run(args: argparse.Namespace, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        capped = not getattr(args, "no_caps", False)
        text = read_input(args.text, most=MOST_BYTES + 1 if capped else MOST_INPUT)
        verified = _verified(text, capped)
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
