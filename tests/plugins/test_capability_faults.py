"""A capability's or a hook's fault is contained like a rules fault, in every front end.

``sample`` is asked for only when it is used (a typed code, the app's Sample), and its
fault is told, never fatal; a failing ``twofold_game_finished`` is said where the game
was played and never makes a loaded plugin "not loaded"; a failing ``status`` stops
that game with one line; the event check refuses events no board can draw.
"""

from __future__ import annotations

import io
import json
from dataclasses import replace
from typing import Any

import pytest
from textual.widgets import OptionList

from tests.core.toy import TALLY, TallyPlugin
from tests.waiting import notifications
from twofold.core import plugins
from twofold.core._events import Appeared, Fell, Merged, check
from twofold.core._presentation import Status
from twofold.core._rules import Mode, Outcome
from twofold.core.codes import code_from_text
from twofold.core.plugins import PluginFault
from twofold.core.session import MemoryStore, Session
from twofold.core.store import open_store
from twofold.plugin import hookimpl
from twofold.ui.app.app import TwofoldApp
from twofold.ui.app.screens.slide import SlidePlay
from twofold.ui.command.cli import open_session
from twofold.ui.lines import run_lines

CODE = code_from_text("faults")


def broken_sample() -> None:
    raise RuntimeError("no sample today")


class Offers:
    """A plugin that registers the modes it is given."""

    def __init__(self, *modes: Mode) -> None:
        self.modes = modes

    @hookimpl
    def twofold_register_modes(self, register: Any) -> None:
        for mode in self.modes:
            register(mode)


def play(session: Session, commands: list[str], *, json_mode: bool) -> tuple[int, str]:
    out = io.StringIO()
    status = run_lines(session, json_mode=json_mode, stdin=[c + "\n" for c in commands], stdout=out)
    return status, out.getvalue()


# -- sample -----------------------------------------------------------------------------------


def test_the_line_modes_never_ask_for_the_sample_of_a_game_they_start() -> None:
    asked: list[int] = []

    def counting_sample() -> None:
        asked.append(1)
        return None

    mode = replace(TALLY, sample=counting_sample)
    session = Session(mode, MemoryStore())
    for json_mode in (True, False):
        status, _out = play(session, ["add", "new", "restart", "add"], json_mode=json_mode)
        assert status == 0
    assert asked == []


@pytest.mark.parametrize("json_mode", [True, False])
def test_a_failing_sample_asked_for_a_typed_code_is_told_and_the_game_plays(
    json_mode: bool,
) -> None:
    session = Session(replace(TALLY, sample=broken_sample), MemoryStore())
    session.new_game(CODE)  # what `play tally --code ...` does before the line mode starts
    status, out = play(session, ["add", "quit"], json_mode=json_mode)
    assert status == 0
    told = "mode tally failed: RuntimeError: no sample today"
    if json_mode:
        first, added, _bye = map(json.loads, out.splitlines())
        assert told in first["notice"] and added["changed"] is True and "stopped" not in added
    else:
        assert told in out and "Stopped" not in out
    assert session.game.log == ["add"]


# -- twofold_game_finished ------------------------------------------------------------------


class FailingObserver:
    @hookimpl
    def twofold_game_finished(self, mode_id: str, result: dict[str, Any]) -> None:
        raise OSError("journal full")


@pytest.mark.parametrize("json_mode", [True, False])
def test_a_failing_finished_hook_is_said_where_the_game_was_played(
    installed: list[tuple[str, object]], json_mode: bool
) -> None:
    installed += [("tally", TallyPlugin()), ("observer", FailingObserver())]
    registry = plugins.registry()
    session = open_session(registry, registry.mode("tally"))
    try:
        status, out = play(session, ["add", "new", "add"], json_mode=json_mode)
    finally:
        session.store.close()
    assert status == 0
    told = "observer: twofold_game_finished failed: OSError: journal full"
    if json_mode:
        _first, _added, renewed, added = map(json.loads, out.splitlines())
        assert renewed["notice"] == told and "notice" not in added
    else:
        assert told in out
    assert registry.problems == []  # the plugin is loaded: a note, not "not loaded"
    assert [str(note) for note in registry.notes] == [told]


async def test_the_app_tells_a_failing_finished_hook_and_the_menu_keeps_the_plugin_loaded(
    installed: list[tuple[str, object]],
) -> None:
    installed += [("tally", TallyPlugin()), ("observer", FailingObserver())]
    registry = plugins.registry()
    store = open_store()

    try:
        app = TwofoldApp(registry, store, mode_id="tally")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(getattr(app.screen, "play", None), SlidePlay)
            app.screen.session.act("add")
            app.screen.session.new_game()
            await pilot.pause()
            assert any("journal full" in n.message for n in notifications(app))
            app.screen.dismiss()
            await pilot.pause()
            options = app.screen.query_one("#modes", OptionList)
            count = options.option_count
            shown = [str(options.get_option_at_index(i).prompt) for i in range(count)]
            assert not any("not loaded" in line for line in shown)
            assert any("journal full" in line for line in shown)
    finally:
        store.close()


async def test_the_apps_sample_that_fails_is_told_and_the_game_stays() -> None:
    registry = plugins.load(
        [("tally", Offers(replace(TALLY, sample=broken_sample)))], entry_points_=[]
    )
    store = open_store()

    try:
        app = TwofoldApp(registry, store, mode_id="tally")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(getattr(screen, "play", None), SlidePlay)
            screen.session.act("add")
            await pilot.press("e")  # Sample
            await pilot.pause()
            assert app.screen is screen and screen.session.game.log == ["add"]
            assert any("no sample today" in n.message for n in notifications(app))
    finally:
        store.close()


# -- status -----------------------------------------------------------------------------------


def broken_status(state: Any) -> Status:
    raise KeyError("gauge")


@pytest.mark.parametrize("json_mode", [True, False])
def test_a_failing_status_stops_the_line_mode_in_one_line(json_mode: bool) -> None:
    session = Session(replace(TALLY, status=broken_status), MemoryStore())
    status, out = play(session, ["add"], json_mode=json_mode)
    assert status == 1
    if json_mode:
        [stopped] = map(json.loads, out.splitlines())
        assert stopped["stopped"] is True and stopped["error"].startswith("mode tally failed")
    else:
        assert "Stopped: mode tally failed: KeyError" in out
    assert "Traceback" not in out


async def test_a_failing_status_in_the_app_is_told_and_the_game_left_kept() -> None:
    registry = plugins.load(
        [("tally", Offers(replace(TALLY, status=broken_status)))], entry_points_=[]
    )
    store = open_store()

    try:
        app = TwofoldApp(registry, store, mode_id="tally")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.pause()
            assert not isinstance(getattr(app.screen, "play", None), SlidePlay)
            assert any("mode tally failed" in n.message for n in notifications(app))
    finally:
        store.close()


# -- the event check --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "fragment"),
    [
        (Fell((0, 0), (1, 0), 0), "bad value: 0"),
        (Appeared((0, 0), 0), "bad value: 0"),
        (Merged((0, 0), 0), "bad value: 0"),
        (Fell((1, 0), (1, 0), 2), "lands on its own cell"),
    ],
)
def test_the_event_check_refuses_impossible_events(event: object, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        check([event], ((0, 0), (0, 0)))


def test_a_mode_whose_tile_falls_onto_its_own_cell_is_stopped() -> None:
    class Standstill(type(TALLY.rules)):  # type: ignore[misc]
        def apply(self, state: Any, action: str) -> Outcome:
            outcome = super().apply(state, action)
            return Outcome(outcome.state, (Fell((0, 0), (0, 0), 2),))

    session = Session(Mode(id="still", title="Still", rules=Standstill()), MemoryStore())
    with pytest.raises(PluginFault, match="lands on its own cell"):
        session.act("add")
    assert session.game.log == []


# -- the autoplayer, headless ------------------------------------------------------------------


class FailingPlayer:
    def choose(self, state: Any) -> str | None:
        raise ValueError("lost the plot")


def test_a_failing_autoplayer_in_twofold_solve_is_one_line_and_status_1(
    installed: list[tuple[str, object]], capsys: pytest.CaptureFixture[str]
) -> None:
    from twofold.ui.command import cli

    installed.append(("tally", Offers(replace(TALLY, autoplayer=lambda depth: FailingPlayer()))))
    assert cli.main(["solve", "tally", "--games", "1", "--workers", "1"]) == 1
    err = capsys.readouterr().err
    assert err.strip() == "twofold: plugin tally failed in mode tally: ValueError: lost the plot"
