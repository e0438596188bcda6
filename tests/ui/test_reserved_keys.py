"""The keys twofold keeps (core's RESERVED_KEYS, in docs/plugins.md) are every key the game
screens bind, so a plugin's power-up key that clashes with one is always caught."""

from __future__ import annotations

import importlib

import pytest
from textual.binding import Binding

from twofold.core.presentation import reserved_keys
from twofold.ui.app.controls import SCREENS

#: the chain screen's power-up slots: the first, second and third power-up by number
SLOTS = {"1", "2", "3"}


@pytest.mark.parametrize("controls", sorted(SCREENS))
def test_every_key_a_game_screen_binds_is_reserved_for_its_controls(controls: str) -> None:
    module_name, class_name = SCREENS[controls]
    screen = getattr(importlib.import_module(module_name), class_name)
    bound = {
        key.strip()
        for binding in Binding.make_bindings(screen.BINDINGS)
        for key in binding.key.split(",")
    }
    missing = bound - set(reserved_keys(controls)) - SLOTS
    assert missing == set(), f"{class_name} binds {sorted(missing)}, not in RESERVED_KEYS"


def test_the_key_list_names_game_screens_by_their_kind_never_by_one_game() -> None:
    from twofold.ui.app.keys import SCREEN_TITLES

    for name, title in SCREEN_TITLES.items():
        assert "2048" not in title and "2248" not in title, f"{name} is called {title!r}"
