"""Each private member of Textual that twofold relies on (ui/app/textual_private.py) still
does what the adapter takes it for, in the installed Textual: an upgrade that moves or
changes one fails here, by name, and not on the player's screen."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path
from typing import Any, ClassVar

import pytest
from textual.app import App
from textual.binding import Binding, BindingsMap, BindingType
from textual.command import CommandPalette
from textual.drivers.headless_driver import HeadlessDriver
from textual.screen import Screen

from tests.waiting import palette_options, until
from twofold.ui.app import textual_private
from twofold.ui.app.textual_private import (
    PRIVATE_NAMES,
    QuietPalette,
    merged_bindings,
    node_bindings,
    normalize_key_list,
    set_node_bindings,
    write_to_terminal,
)


class Keyed(Screen[None]):
    rung: ClassVar[list[str]] = []
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("x", "ring('x')", "Ring", id="ring"),  # no words to translate
        Binding("w", "ring('w')", "Wave"),
    ]

    def action_ring(self, what: str) -> None:
        self.rung.append(what)


class Overriding(Keyed):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("x", "ring('over')", "Over")]


class Alone(Keyed, inherit_bindings=False):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("z", "ring('z')", "Zed")]


class Given(Keyed):
    """A screen that gives itself its own keys when it is made, as a game screen does."""

    def __init__(self, bindings: BindingsMap) -> None:
        super().__init__()
        set_node_bindings(self, bindings)


def own_keys(screen: Screen[Any]) -> set[str]:
    """The keys Textual runs on ``screen`` that are the screen's own (public: what runs)."""
    return {key for key, active in screen.active_bindings.items() if active.node is screen}


def test_the_adapter_names_every_private_member_it_uses() -> None:
    source = inspect.getsource(textual_private)
    used = {name for names in PRIVATE_NAMES.values() for name in names}
    for name in used:
        assert name in source
    assert sum(len(names) for names in PRIVATE_NAMES.values()) == len(used) == 8
    assert "_normalize_key_list" not in source  # read through the public Binding instead


@pytest.mark.parametrize(
    ("keys", "names"),
    [
        ("ctrl+z, ?", "ctrl+z,question_mark"),
        ("a", "a"),
        (" + ,-", "plus,minus"),
        ("f1,ctrl+shift+x", "f1,ctrl+shift+x"),
        ("a,,b", "a,,b"),  # an empty entry is kept, as the keymap keeps it
        ("", ""),
    ],
)
def test_a_key_list_is_read_as_textuals_keymap_reads_it(keys: str, names: str) -> None:
    assert normalize_key_list(keys) == names


async def test_the_keymap_puts_a_binding_on_the_keys_the_adapter_names() -> None:
    app = App[None]()
    async with app.run_test() as pilot:
        await app.push_screen(Keyed())
        app.set_keymap({"ring": "?, ctrl+z, +"})
        await pilot.pause()
        ringing = {k for k, a in app.screen.active_bindings.items() if a.binding.id == "ring"}
        assert ringing == set(normalize_key_list("?, ctrl+z, +").split(","))


def test__merged_bindings_is_a_classs_bindings_with_its_bases() -> None:
    merged = merged_bindings(Keyed)
    screens = set(merged_bindings(Screen).key_to_bindings)  # Screen's own: tab, shift+tab...
    assert isinstance(merged, BindingsMap) and "tab" in screens
    assert set(merged.key_to_bindings) == screens | {"x", "w"}
    assert "ctrl+q" in merged_bindings(App).key_to_bindings  # App's own BINDINGS
    assert merged_bindings(type("Plain", (), {})).key_to_bindings == {}
    # a subclass's key replaces its base's; inherit_bindings=False starts afresh
    overriding = merged_bindings(Overriding).key_to_bindings
    assert [b.action for b in overriding["x"]] == ["ring('over')"] and "w" in overriding
    assert set(merged_bindings(Alone).key_to_bindings) == {"z"}


@pytest.mark.parametrize("cls", [Keyed, Overriding, Alone])
async def test__merged_bindings_are_what_a_new_screen_of_the_class_runs(
    cls: type[Keyed],
) -> None:
    app = App[None]()
    async with app.run_test() as pilot:
        await app.push_screen(cls())
        await pilot.pause()
        assert own_keys(app.screen) == set(merged_bindings(cls).key_to_bindings)


async def test__bindings_are_what_a_running_node_runs() -> None:
    app = App[None]()
    async with app.run_test() as pilot:
        await app.push_screen(Keyed())
        await pilot.pause()
        screen = app.screen
        assert own_keys(screen) == set(node_bindings(screen).key_to_bindings) >= {"x", "w"}
        running = {k for k, a in screen.active_bindings.items() if a.node is app}
        # the app's own, less those the screen's shadow (ctrl+c)
        assert running == set(node_bindings(app).key_to_bindings) - own_keys(screen)
        assert "ctrl+p" in running  # added to the app's map at start, in no BINDINGS


async def test_written__bindings_are_the_keys_the_screen_runs_and_shows() -> None:
    Keyed.rung.clear()
    app = App[None]()
    async with app.run_test() as pilot:
        await app.push_screen(Given(BindingsMap([Binding("y", "ring('y')", "Yell")])))
        await pilot.pause()
        screen = app.screen
        assert own_keys(screen) == {"y"}  # what the Footer and the key panel show
        await pilot.press("x", "w", "y")
        await pilot.pause()
        assert Keyed.rung == ["y"]  # the class's own x and w no longer run
        # written again on a running screen: Textual runs the new keys
        set_node_bindings(screen, BindingsMap([Binding("v", "ring('v')", "Vow")]))
        screen.refresh_bindings()
        await pilot.press("y", "v")
        await pilot.pause()
        assert Keyed.rung == ["y", "v"] and own_keys(screen) == {"v"}


async def test__driver_is_where_the_app_writes_to_its_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    written: list[str] = []
    monkeypatch.setattr(HeadlessDriver, "write", lambda _self, data: written.append(data))
    app = App[None]()
    assert write_to_terminal(app, "\x1b]2;before\x07") is False  # not running: no terminal
    async with app.run_test():
        assert write_to_terminal(app, "\x1b]2;twofold\x07") is True
        assert "\x1b]2;twofold\x07" in written
    assert "\x1b]2;before\x07" not in written


class Nothing(QuietPalette):
    def no_matches(self) -> None:
        self.show_no_matches("Nothing here")


class Searching(App[None]):
    def action_command_palette(self) -> None:
        self.push_screen(Nothing(id="--command-palette"))


async def test_the_palettes_no_matches_line_is_the_adapters() -> None:
    app = Searching()
    async with app.run_test() as pilot:
        await pilot.press("ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, Nothing), what="the palette")
        await pilot.press(*"zzzqqq")
        await until(
            pilot,
            lambda: any("Nothing here" in o for o in palette_options(pilot)),
            what="the adapter's line",
        )
        await pilot.pause(CommandPalette._NO_MATCHES_COUNTDOWN * 2)  # Textual's would be there
        assert not any("No matches" in option for option in palette_options(pilot))
        # the line carries Textual's id: Textual's own code takes it away on a new search
        await pilot.press(*["backspace"] * 6, *"quit")
        await until(
            pilot,
            lambda: (
                palette_options(pilot) and not any("Nothing" in o for o in palette_options(pilot))
            ),
            what="the commands matching quit",
        )
        await pilot.press("escape")


def test_the_palettes_no_matches_members() -> None:
    for name in PRIVATE_NAMES["CommandPalette"]:
        if name == "_no_matches_timer":  # made by the countdown, on the instance
            assert "_no_matches_timer" in inspect.getsource(
                CommandPalette._start_no_matches_countdown
            )
        else:
            assert hasattr(CommandPalette, name), name
    assert isinstance(CommandPalette._NO_MATCHES_COUNTDOWN, int | float)
    assert issubclass(QuietPalette, CommandPalette)


#: private-looking names that are not Textual's: os._exit, a named tuple's _replace
NOT_TEXTUALS = frozenset({"_exit", "_replace"})


def test_no_module_but_the_adapter_reads_a_private_textual_name() -> None:
    """A ``x._name`` that Textual's own source has, anywhere in the front ends, is in the
    adapter, unless the module defines that name itself (its own ``self._lock``...)."""
    import textual

    root = Path(textual_private.__file__).parents[2]
    own: set[str] = set()  # what twofold's own front ends define
    read: dict[str, list[str]] = {}
    for folder in ("ui", "twofold"):
        for path in sorted((root / folder).rglob("*.py")):
            if path.name == "textual_private.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    own.add(node.name)
                elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                    own.add(node.target.id)
                elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                    own.add(node.attr)
                elif isinstance(node, ast.Attribute) and node.attr.startswith("_"):
                    place = f"{path.relative_to(root)}:{node.lineno}"
                    read.setdefault(node.attr, []).append(place)
    source = "\n".join(
        path.read_text(encoding="utf-8") for path in Path(textual.__file__).parent.rglob("*.py")
    )
    textuals = {  # Textual's attributes: read as .name, a method, or a class's annotation
        name: where
        for name, where in read.items()
        if not name.startswith("__")
        and name not in own | NOT_TEXTUALS
        and re.search(rf"\.{name}\b|def {name}\b|^    {name}:", source, re.MULTILINE)
    }
    assert textuals == {}
