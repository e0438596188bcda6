"""Each private member of Textual that twofold relies on (ui/app/textual_private.py) still is
what the adapter takes it for: an upgrade that moves one fails here, by name."""

from __future__ import annotations

import inspect
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingsMap, BindingType
from textual.command import CommandPalette
from textual.screen import Screen

from twofold.ui.app import textual_private
from twofold.ui.app.textual_private import (
    PRIVATE_NAMES,
    QuietPalette,
    merged_bindings,
    node_bindings,
    normalize_key_list,
    set_node_bindings,
)


class Keyed(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("x", "bell")]  # no words to translate


def test_the_adapter_names_every_private_member_it_uses() -> None:
    source = inspect.getsource(textual_private)
    used = {name for names in PRIVATE_NAMES.values() for name in names}
    for name in used:
        assert name in source
    assert sum(len(names) for names in PRIVATE_NAMES.values()) == len(used) == 8


def test__normalize_key_list_reads_a_key_list_as_the_keymap_does() -> None:
    assert normalize_key_list("ctrl+z, ?") == "ctrl+z,question_mark"


def test__merged_bindings_is_a_classs_bindings_with_its_bases() -> None:
    merged = merged_bindings(Keyed)
    assert isinstance(merged, BindingsMap) and "x" in merged.key_to_bindings
    assert "ctrl+q" in merged_bindings(App).key_to_bindings  # App's own BINDINGS
    assert merged_bindings(type("Plain", (), {})).key_to_bindings == {}


async def test__bindings_of_a_running_app() -> None:
    app = App[None]()
    async with app.run_test() as pilot:
        await app.push_screen(Keyed())
        await pilot.pause()
        screen = app.screen
        assert isinstance(node_bindings(app), BindingsMap)
        assert "x" in node_bindings(screen).key_to_bindings
        set_node_bindings(screen, BindingsMap())
        assert node_bindings(screen).key_to_bindings == {}


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
