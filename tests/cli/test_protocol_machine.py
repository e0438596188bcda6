"""A hypothesis state machine on the JSON line protocol.

Random lines (valid commands, invalid text, random bytes, huge numbers, whitespace)
never end the loop, always get exactly one reply each, and the game at the end is
the replay of the accepted actions from its code.
"""

from __future__ import annotations

import io
import json
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, precondition, rule

from twofold.core.game import Game
from twofold.core.plugins import registry
from twofold.core.session import Session
from twofold.core.store import memory_store
from twofold.ui.lines import JsonFront

STOP_WORDS = {"quit", "exit", "q"}
SPACES = " \t\u00a0\u3000\u2003\u200b\r"

cell = st.integers(min_value=-2, max_value=9).map(str)
coordinates = st.tuples(cell, cell).map(",".join)
chain_commands = st.one_of(
    st.lists(coordinates, min_size=1, max_size=5).map(lambda cells: "chain " + " ".join(cells)),
    coordinates.map("hammer {}".format),
    st.tuples(coordinates, coordinates).map(lambda pair: f"swap {pair[0]} {pair[1]}"),
    st.sampled_from(["shuffle", "undo", "hint", "read", "help", "Chain 0,0 (0,1)"]),
)
slide_commands = st.sampled_from(
    ["left", "right", "up", "down", "undo", "h", "j", "k", "l", "LEFT", "read", "hint", "help"]
)
huge_numbers = st.integers(min_value=5, max_value=6000).map(
    lambda digits: f"chain 0,0 0,{'9' * digits}"
)
whitespace = st.text(alphabet=SPACES, max_size=6)
random_bytes = st.binary(max_size=80).map(lambda raw: raw.replace(b"\n", b" "))
any_text = st.text(max_size=60).map(lambda text: text.replace("\n", " "))


class Protocol(RuleBasedStateMachine):
    mode_id = "2048"
    commands: st.SearchStrategy[str] = slide_commands

    def __init__(self) -> None:
        super().__init__()
        self.store = memory_store()
        self.session = Session(registry().mode(self.mode_id), self.store)
        self.out = io.StringIO()
        self.front = JsonFront(self.session, self.out)
        self.front.begin()
        self.replies = self.read_replies()
        assert len(self.replies) == 1
        self.code = self.replies[0]["code"]
        self.accepted: list[str] = []
        self.going = True

    def read_replies(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.out.getvalue().splitlines()]

    def send(self, line: bytes) -> dict[str, Any]:
        if line.decode("utf-8", "replace").strip().lower() in STOP_WORDS:
            line = b"stop-word: " + line  # ending the loop is not what is tested here
        before = len(self.replies)
        self.going = self.front.handle(line)
        self.replies = self.read_replies()
        assert len(self.replies) == before + 1, "exactly one reply per line"
        reply = self.replies[-1]
        for key in ("mode", "code", "board", "score", "moves", "over", "changed", "events"):
            assert key in reply
        return reply

    def accept(self, line: bytes, reply: dict[str, Any]) -> None:
        text = line.decode("utf-8").strip()
        if text.lower() in ("new", "restart"):
            self.accepted, self.code = [], reply["code"]
        elif reply["changed"]:
            self.accepted.append(text)
        else:
            assert reply["board"] == self.replies[-2]["board"]

    @precondition(lambda self: self.going)
    @rule(data=st.data())
    def valid(self, data: st.DataObject) -> None:
        line = data.draw(self.commands).encode()
        self.accept(line, self.send(line))

    @precondition(lambda self: self.going)
    @rule(text=any_text)
    def text(self, text: str) -> None:
        line = text.encode()
        self.accept(line, self.send(line))

    @precondition(lambda self: self.going)
    @rule(raw=random_bytes)
    def raw_bytes(self, raw: bytes) -> None:
        reply = self.send(raw)
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            assert reply["error"] and reply["changed"] is False
            return
        self.accept(raw, reply)

    @precondition(lambda self: self.going)
    @rule(line=huge_numbers)
    def huge(self, line: str) -> None:
        reply = self.send(line.encode())
        assert reply["error"] and reply["changed"] is False and len(reply["error"]) < 300

    @precondition(lambda self: self.going)
    @rule(blank=whitespace)
    def blank(self, blank: str) -> None:
        reply = self.send(blank.encode())
        if not blank.strip():
            assert reply["error"] and reply["changed"] is False

    @precondition(lambda self: self.going)
    @rule(word=st.sampled_from(["new", "restart"]))
    def new_game(self, word: str) -> None:
        self.accept(word.encode(), self.send(word.encode()))

    def teardown(self) -> None:
        mode = registry().mode(self.mode_id)
        replayed = Game.replay(mode, self.code, self.accepted)
        assert replayed.state == self.session.game.state
        assert self.session.game.log == [mode.rules.parse(text) for text in self.accepted]
        self.session.close()
        self.store.close()


class ChainProtocol(Protocol):
    mode_id = "2248"
    commands = chain_commands


MACHINE_SETTINGS = settings(
    max_examples=40,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

TestSlideProtocol = Protocol.TestCase
TestSlideProtocol.settings = MACHINE_SETTINGS
TestChainProtocol = ChainProtocol.TestCase
TestChainProtocol.settings = MACHINE_SETTINGS
