"""Sending a result to a leaderboard: what the app's "Send to leaderboard" and ``twofold
submit`` share. Nothing is ever sent unless the player asks; one POST, one line back.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from twofold.core._i18n import _
from twofold.core.codes import format_code

#: how long a send waits for the leaderboard's answer
TIMEOUT = 20.0


class SendError(Exception):
    """A result not taken: the server's reason, or why it could not be reached (one line)."""

    def __init__(self, reason: str, *, unreachable: bool = False) -> None:
        super().__init__(reason)
        self.unreachable = unreachable


@dataclass(frozen=True)
class Sent:
    """What the leaderboard made of a result: its rank on the board, and whether it is new."""

    rank: int
    board: str
    new: bool

    @property
    def words(self) -> str:
        if self.new:
            return _("Rank {rank} on {board}.").format(rank=self.rank, board=self.board)
        return _("Already sent: rank {rank} on {board}.").format(rank=self.rank, board=self.board)


def results_url(address: str) -> str:
    """The leaderboard's submissions address from its own (``http://host:port/``)."""
    address = address.strip()
    parts = urlsplit(address)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise SendError(
            _("{address!r} is not a leaderboard address (http://HOST:PORT/)").format(
                address=address[:100]
            ),
            unreachable=True,
        )
    return urljoin(address if address.endswith("/") else address + "/", "api/results")


def send_result(address: str, result: str, name: str) -> Sent:
    """POST ``result`` under ``name``; the rank, or SendError with the server's reason."""
    body = json.dumps({"result": result, "name": name}).encode("utf-8")
    request = urllib.request.Request(
        results_url(address),
        data=body,
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            answer = json.loads(response.read(1 << 20))
    except urllib.error.HTTPError as error:
        raise SendError(_reason(error)) from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", error)
        raise SendError(
            _("the leaderboard could not be reached: {reason}").format(reason=reason),
            unreachable=True,
        ) from None
    day, code = answer.get("day"), str(answer.get("code") or "")
    # the code as people see it everywhere else (the top bar, the link): 7K3M-9QXP
    board = f"{answer.get('mode')} {day or (format_code(code) if len(code) == 8 else code)}"
    return Sent(int(answer.get("rank", 0)), board, bool(answer.get("new", True)))


def _reason(error: urllib.error.HTTPError) -> str:
    try:
        reason = json.loads(error.read(1 << 16)).get("error")
    except (ValueError, AttributeError, OSError):
        reason = None
    text = str(reason or error.reason or error.code)
    return _("the leaderboard refused it: {reason}").format(reason=" ".join(text.split())[:300])
