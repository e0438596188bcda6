"""``--json``: one JSON object per line, one at start and one after each line (docs/protocol.md)."""

from __future__ import annotations

import contextlib
import json
from typing import Any, TextIO

from twofold.core._i18n import _
from twofold.core.commands import commands_of
from twofold.core.plugins import PluginFault
from twofold.core.session import Session
from twofold.ui.lines.front import LineFront
from twofold.ui.lines.line_input import MESSAGE_LIMIT, cut

#: the fields docs/protocol.md promises in every reply, a ``stopped`` one included
EVERY_REPLY = ("mode", "code", "board", "score", "moves", "over")


class JsonFront(LineFront):
    """One JSON object per line, for programs."""

    answers_blank = True

    def __init__(self, session: Session, out: TextIO) -> None:
        super().__init__(session, out)
        #: what failed since the last reply (a plugin's hook), said in the next ``notice``
        self.problems: list[str] = []
        #: the fields every reply has, as the last reply that could be made gave them
        self.last_good: dict[str, Any] = {}

    def problem(self, text: str) -> None:
        self.problems.append(text)

    def snapshot(self) -> dict[str, Any]:
        session = self.session
        game = session.game
        state = game.state
        with session.faults():
            data: dict[str, Any] = {
                "mode": session.mode.id,
                "code": game.code,
                "board": [list(row) for row in state.board],
                "score": state.score,
                "moves": state.moves,
                "over": game.over,
            }
            data.update(session.mode.rules.report(state))
        if session.mode.status is not None:
            upcoming = self.status().upcoming
            if upcoming:
                data["upcoming"] = list(upcoming)
        if game.time_left is not None:
            data["time_left"] = round(game.time_left, 3)
        if game.flags.practice:
            data["practice"] = True
        self.last_good = {key: data[key] for key in EVERY_REPLY}
        return data

    def safe_fields(self) -> dict[str, Any]:
        """Board, score, moves and over read without the mode's code where it can be."""
        game = self.session.game
        fields: dict[str, Any] = {}
        with contextlib.suppress(Exception):  # a state the mode broke: what can be read is
            fields["board"] = [list(row) for row in game.state.board]
            fields["score"] = game.state.score
            fields["moves"] = game.state.moves
        with contextlib.suppress(Exception):
            fields["over"] = bool(game.over)
        return fields

    def write(self, data: dict[str, Any]) -> None:
        self.out.write(json.dumps(data, separators=(",", ":")) + "\n")
        self.out.flush()

    def started(self, notice: str | None) -> None:
        data = self.snapshot()
        data.update(changed=False, events=[])
        # the mode's commands are part of the contract: a program learns them here
        data["commands"] = [command.as_dict() for command in commands_of(self.session.mode)]
        # a board that is no rectangle: which places of its rows are cells, and where each is
        if self.session.mode.layout is not None:
            data["layout"] = self.session.mode.layout.as_dict()
        if notice:
            data["notice"] = notice
        self.write(data)

    def reply(self, **fields: Any) -> None:
        data = self.snapshot()
        fields.pop("announcement", None)
        data.update(fields)
        told = [*self.problems, self.session.write_problem]
        self.problems.clear()
        if any(told):
            data["notice"] = cut(" ".join(filter(None, told)), 2 * MESSAGE_LIMIT)
        self.write(data)

    def stopped(self, fault: PluginFault) -> None:
        try:
            data = self.snapshot()
        except Exception:  # the failing rules may fail again: the last good figures stand
            data = {"mode": self.session.mode.id, "code": self.session.game.code}
            data.update(self.last_good or self.safe_fields())
        data.update(changed=False, events=[], error=cut(str(fault)), stopped=True)
        self.write(data)

    def read(self) -> None:
        lines = self.session.mode.rules.read_board(self.session.game.state)
        self.reply(changed=False, events=[], read=lines)

    def help(self) -> None:
        self.reply(
            changed=False, events=[], error=_("the JSON mode has no help; see docs/protocol.md")
        )
