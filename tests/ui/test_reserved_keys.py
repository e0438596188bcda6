"""The keys twofold keeps (core's RESERVED_KEYS, in the plugin guide) are every key the game
screens bind, so a plugin's power-up key that clashes with one is always caught, and the
docs name exactly those keys."""

from __future__ import annotations

import importlib
import re

import pytest
from textual.binding import Binding

from tests.guide import guide_text
from twofold.core._presentation import RESERVED_KEYS, reserved_keys
from twofold.core._rules import CONTROLS
from twofold.ui.app.controls import PLAYS

#: the chain screen's power-up slots: the first, second and third power-up by number
SLOTS = {"1", "2", "3"}


@pytest.mark.parametrize("controls", sorted(PLAYS))
def test_every_key_a_game_screen_binds_is_reserved_for_its_controls(controls: str) -> None:
    module_name, class_name = PLAYS[controls]
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


#: how the plugin guide writes a key that twofold's reserved keys name otherwise
DOC_SPELLING = {"?": "question_mark", ",": "comma"}
ARROWS = {"up", "down", "left", "right"}


def documented_reserved_keys() -> dict[str, set[str]]:
    """The keys the plugin guide's "Keys twofold keeps" names, by kind ("every", "slide"...)."""
    text = guide_text()
    section = text.split("### Keys twofold keeps", 1)[1].split("\n#", 1)[0]
    # what follows is about the function, not a key list
    lists = section.split("`reserved_keys(controls)`", 1)[0]
    parts = re.split(r'`"(\w+)"`', lists)
    found: dict[str, set[str]] = {}
    for kind, words in zip(parts[1::2], parts[2::2], strict=True):
        keys = {DOC_SPELLING.get(k, k) for quoted in re.findall(r"`([^`]+)`", words)
                for k in quoted.split()}  # fmt: skip
        found[kind] = keys | (ARROWS if "the arrows" in " ".join(words.split()) else set())
    return found


def test_the_docs_name_exactly_the_keys_twofold_keeps() -> None:
    documented = documented_reserved_keys()
    assert set(documented) == set(RESERVED_KEYS)
    assert documented["every"] == set(RESERVED_KEYS["every"])
    for controls in CONTROLS:
        # a kind's list may repeat a key every screen keeps (h, on a slide screen, moves left)
        assert documented["every"] | documented[controls] == set(reserved_keys(controls)), controls


def test_textuals_own_quit_and_copy_keys_are_kept_from_power_ups() -> None:
    from twofold.core._presentation import reserved_keys

    for controls in ("slide", "chain", "place"):
        assert {"ctrl+q", "ctrl+c", "super+c"} <= set(reserved_keys(controls))
