"""The line modes: ``--plain`` for people and screen readers, ``--json`` for programs.

Both read one command a line from standard input. The JSON mode writes exactly one
JSON object per line: one at start and one after each line, whatever its bytes
(docs/protocol.md): a line that is not UTF-8, is blank or is too long gets an ``error``.
Lines are decoded one at a time, so a bad byte costs its own line only. Input is
never echoed back whole: a message quotes at most :data:`MESSAGE_LIMIT` characters.

While the game cannot be saved (see ``Session.write_problem``), every JSON reply
carries ``notice`` with the reason, and ``--plain`` says so in a line when it starts
and when saving works again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TextIO

from twofold.core.session import Session
from twofold.ui.lines.front import LineFront
from twofold.ui.lines.json_front import JsonFront
from twofold.ui.lines.line_input import LINE_LIMIT, MESSAGE_LIMIT, TooLong, read_lines
from twofold.ui.lines.plain_front import PlainFront

__all__ = [
    "LINE_LIMIT",
    "MESSAGE_LIMIT",
    "JsonFront",
    "LineFront",
    "PlainFront",
    "TooLong",
    "read_lines",
    "run_lines",
]


def run_lines(
    session: Session,
    *,
    json_mode: bool,
    stdin: Iterable[str | bytes],
    stdout: TextIO,
) -> int:
    front: Callable[[Session, TextIO], LineFront] = JsonFront if json_mode else PlainFront
    return front(session, stdout).run(stdin)
