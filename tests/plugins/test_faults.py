"""Fault isolation: a broken plugin is reported and skipped or stopped; nothing else breaks."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import pytest
from twofold_broken import clash, faulty, raising
from twofold_broken.faulty import FAULTY, FaultyRules

from tests.core.toy import TALLY, TallyPlugin
from twofold.core import plugins
from twofold.core._rules import Mode, Outcome, Refused
from twofold.core.plugins import PluginFault
from twofold.core.session import MemoryStore, SavedGame, Session
from twofold.plugin import hookimpl
from twofold.ui.lines import run_lines


def entry_point(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=plugins.ENTRY_POINT_GROUP)


def only(registry: plugins.Registry, plugin: str) -> str:
    """The one problem reported, which must be ``plugin``'s; its reason."""
    [problem] = registry.problems
    assert problem.plugin == plugin
    assert "\n" not in problem.reason
    return problem.reason


# -- when plugins load -------------------------------------------------------------------------


@pytest.mark.usefixtures("other_entry_points")
def test_a_plugin_that_fails_to_import_is_skipped() -> None:
    registry = plugins.load(
        [("tally", TallyPlugin())],
        entry_points_=[entry_point("broken-import", "twofold_broken.unimportable")],
    )
    reason = only(registry, "broken-import")
    assert reason.startswith("failed to import: ModuleNotFoundError")
    assert "twofold_broken_missing_dependency" in reason
    assert "tally" in registry.modes


def test_a_plugin_that_raises_in_a_hook_keeps_none_of_its_modes() -> None:
    registry = plugins.load([("tally", TallyPlugin()), ("broken-hook", raising)], entry_points_=[])
    reason = only(registry, "broken-hook")
    assert reason.startswith("raised in twofold_register_modes: RuntimeError")
    assert [p.name for p in registry.plugins] == ["tally"]
    assert registry.manager.get_plugin("broken-hook") is None


def test_a_taken_mode_id_drops_that_mode_only() -> None:
    registry = plugins.load([("broken-clash", clash)])  # the built-ins come first
    reason = only(registry, "broken-clash")
    assert reason == "mode id '2048' is already registered by classic2048; skipped"
    assert registry.owner("2048") == "classic2048"
    assert registry.mode("2048").title != "Not 2048"
    assert registry.owner("clash-ok") == "broken-clash"
    [info] = [p for p in registry.plugins if p.name == "broken-clash"]
    assert info.modes == ("clash-ok",)


@pytest.mark.usefixtures("other_entry_points")
def test_a_third_party_plugin_cannot_take_a_builtin_id_whatever_its_name() -> None:
    registry = plugins.load(
        entry_points_=[
            entry_point("aaa", "twofold_broken.clash"),
            *entry_points(group=plugins.ENTRY_POINT_GROUP),
        ]
    )
    assert registry.owner("2048") == "classic2048"
    assert "aaa" in {p.plugin for p in registry.problems}


class Offers:
    """A plugin that registers whatever modes it is given."""

    def __init__(self, *modes: Any) -> None:
        self.modes = modes

    @hookimpl
    def twofold_register_modes(self, register: Any) -> None:
        for mode in self.modes:
            register(mode)


class NoRules:
    undo_depth = 0

    def new_game(self, code: str) -> None: ...


@pytest.mark.parametrize(
    ("mode", "fragment"),
    [
        (replace(TALLY, id="two words"), "not usable"),
        (replace(TALLY, id="a/b"), "not usable"),
        (Mode(id="bare", title="Bare", rules=NoRules()), "rules without from_position, parse"),  # type: ignore[arg-type]
        (replace(TALLY, id="hex", controls="hexagons"), "unknown controls 'hexagons'"),
    ],
)
def test_a_mode_that_cannot_be_used_is_skipped_and_the_rest_stay(mode: Mode, fragment: str) -> None:
    good = replace(TALLY, id="good")
    registry = plugins.load([("mixed", Offers(mode, good))], entry_points_=[])
    assert fragment in only(registry, "mixed")
    assert list(registry.modes) == ["good"]


def test_the_same_id_twice_in_one_plugin_keeps_the_first() -> None:
    registry = plugins.load(
        [("twice", Offers(TALLY, replace(TALLY, title="Again")))], entry_points_=[]
    )
    assert "registered twice" in only(registry, "twice")
    assert registry.mode("tally").title == "Tally"


def test_register_takes_only_modes() -> None:
    registry = plugins.load([("strings", Offers("2048"))], entry_points_=[])
    assert "register() takes a Mode, not str" in only(registry, "strings")
    assert registry.plugins == []


def test_a_hook_with_arguments_twofold_does_not_give_is_refused() -> None:
    class Greedy:
        @hookimpl
        def twofold_register_modes(self, register: Any, settings: Any) -> None: ...

    registry = plugins.load([("greedy", Greedy())], entry_points_=[])
    assert only(registry, "greedy").startswith("could not be registered")


def test_a_misspelt_hook_is_reported_but_an_optional_one_is_not() -> None:
    class Typo:
        @hookimpl
        def twofold_register_mode(self, register: Any) -> None: ...

    class Future:
        @hookimpl(optionalhook=True)
        def twofold_from_the_future(self) -> None: ...

        @hookimpl
        def twofold_register_modes(self, register: Any) -> None:
            register(TALLY)

    registry = plugins.load([("typo", Typo()), ("future", Future())], entry_points_=[])
    assert only(registry, "typo") == "has hooks twofold does not know: twofold_register_mode"
    assert registry.owner("tally") == "future"


def test_no_plugins_means_only_the_builtins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(plugins.DISABLE_VARIABLE, "1")
    fib = entry_point("fibonacci", "twofold_fibonacci")
    broken = entry_point("broken-import", "twofold_broken.unimportable")
    registry = plugins.load(
        entry_points_=[*entry_points(group=plugins.ENTRY_POINT_GROUP), fib, broken]
    )
    assert "fib" not in registry.modes and registry.problems == []
    assert "2048" in registry.modes and "2248" in registry.modes
    monkeypatch.setenv(plugins.DISABLE_VARIABLE, "0")
    assert "fib" in plugins.load(entry_points_=[fib]).modes


# -- while a game is played --------------------------------------------------------------------


def test_a_crash_in_a_move_stops_with_one_line_and_keeps_the_game(
    installed: list[tuple[str, object]],
) -> None:
    installed.append(("broken-move", faulty))
    mode = plugins.registry().mode("faulty")
    store = MemoryStore()
    session = Session(mode, store, plugin=plugins.registry().owner("faulty"))
    session.act("left")
    state, log, saved = session.game.state, list(session.game.log), store.saves["faulty"]
    with pytest.raises(PluginFault) as caught:
        session.act("right")
    fault = caught.value
    assert str(fault) == (
        "plugin broken-move failed in mode faulty: ZeroDivisionError: integer division or "
        "modulo by zero"
    )
    assert (fault.mode_id, fault.plugin) == ("faulty", "broken-move")
    assert isinstance(fault.error, ZeroDivisionError)
    assert session.game.state is state and session.game.log == log
    assert store.saves["faulty"] is saved
    session.act("up")  # the game is whole: it plays on if the front end lets it
    assert Session(mode, store).game.log == ["left", "up"]


class LateCrash(FaultyRules):
    """Rules that crash after the core has already taken the new state in."""

    undo_depth = 5

    def announce(self, before: Any, outcome: Outcome) -> str:
        if outcome.state.moves == 2:
            raise KeyError("announce")
        return "fine"


def test_a_crash_after_the_state_changed_puts_everything_back() -> None:
    mode = Mode(id="late", title="Late", rules=LateCrash(), goal=3)
    store = MemoryStore()
    session = Session(mode, store)
    session.act("left")
    game = session.game
    before = (game.state, list(game.history), list(game.log), game.flags.as_dict())
    with pytest.raises(PluginFault, match=r"^mode late failed: KeyError: 'announce'$"):
        session.act("up")
    assert (game.state, list(game.history), list(game.log), game.flags.as_dict()) == before
    assert store.saves["late"].actions == ("left",)


def test_a_crash_while_finishing_keeps_the_current_game() -> None:
    class NoStats(FaultyRules):
        def stats(self, state: Any) -> dict[str, int]:
            raise RuntimeError("no stats today")

    store = MemoryStore()
    session = Session(Mode(id="nostats", title="No stats", rules=NoStats()), store)
    session.act("left")
    game = session.game
    with pytest.raises(PluginFault, match="RuntimeError: no stats today"):
        session.new_game()
    assert session.game is game and store.saves["nostats"].actions == ("left",)
    assert store.finished == []


def test_a_crash_when_a_game_starts_or_resumes_keeps_the_save() -> None:
    class NoStart(FaultyRules):
        def new_game(self, code: str) -> Any:
            raise AttributeError("no start")

    mode = Mode(id="nostart", title="No start", rules=NoStart())
    store = MemoryStore()
    saved = SavedGame("nostart", "7K3M9QXP", ("left",))
    store.write_save(saved)
    with pytest.raises(PluginFault, match="AttributeError: no start"):
        Session(mode, store)
    assert store.saves["nostart"] is saved  # never discarded as damaged: it may play again

    healthy = Session(FAULTY, MemoryStore())
    healthy.mode = mode
    with pytest.raises(PluginFault):
        healthy.restart()


def test_refusals_are_not_faults() -> None:
    session = Session(FAULTY, MemoryStore())
    with pytest.raises(Refused):
        session.act("dance")
    with pytest.raises(Refused):
        session.act("undo")


def play_lines(mode: Mode, commands: list[str], *, json_mode: bool) -> tuple[int, str, Session]:
    store = MemoryStore()
    out = io.StringIO()
    status = run_lines(
        Session(mode, store), json_mode=json_mode, stdin=[c + "\n" for c in commands], stdout=out
    )
    return status, out.getvalue(), Session(mode, store)


def test_the_json_mode_reports_the_fault_as_an_error_and_stops() -> None:
    status, out, after = play_lines(FAULTY, ["left", "right", "up", "quit"], json_mode=True)
    _start, left, stopped = (json.loads(line) for line in out.splitlines())
    assert status == 1
    assert left["changed"] is True and "error" not in left
    assert stopped["error"].startswith("mode faulty failed: ZeroDivisionError")
    assert stopped["stopped"] is True and stopped["changed"] is False
    assert stopped["board"] == left["board"] and stopped["moves"] == 1
    assert after.game.log == ["left"]


def test_the_plain_mode_says_it_stopped_and_the_save_is_whole() -> None:
    status, out, after = play_lines(FAULTY, ["left", "right", "up"], json_mode=False)
    assert status == 1
    last = out.splitlines()[-1]
    assert last.startswith("Stopped: mode faulty failed: ZeroDivisionError")
    assert last.endswith("The game is saved as it was.")
    assert after.game.log == ["left"]


def test_a_json_reply_still_comes_when_the_rules_fail_again_while_reporting() -> None:
    class Brittle(FaultyRules):
        applied = False

        def apply(self, state: Any, action: str) -> Outcome:
            self.applied = True
            return super().apply(state, action)

        def report(self, state: Any) -> dict[str, Any]:
            if self.applied:
                raise ValueError("report broke")
            return {}

        def announce(self, before: Any, outcome: Outcome) -> str:
            raise ValueError("announce broke")

    mode = Mode(id="brittle", title="Brittle", rules=Brittle())
    status, out, _after = play_lines(mode, ["left"], json_mode=True)
    start, stopped = (json.loads(line) for line in out.splitlines())
    assert status == 1
    assert stopped["error"] == "mode brittle failed: ValueError: announce broke"
    assert stopped["code"] == start["code"] and stopped["mode"] == "brittle"
    # the rules fail again in report(): the last good figures stand
    assert stopped["board"] == start["board"] and stopped["moves"] == start["moves"]
