"""The game is one screen in Textual's model: a play widget per kind of controls inside one
game screen three levels below ``Screen``, its news coming back as Messages."""

from __future__ import annotations

import importlib
import inspect
import re

import pytest
from textual.screen import Screen

from twofold.ui.app.controls import PLAYS
from twofold.ui.app.screens.game import GameScreen
from twofold.ui.app.screens.play import Play


def test_the_game_screen_is_three_levels_below_screen() -> None:
    # Screen > TranslatedScreen > TwofoldScreen > GameScreen
    assert GameScreen.__mro__.index(Screen) == 3


@pytest.mark.parametrize("controls", sorted(PLAYS))
def test_a_kind_of_controls_is_a_play_widget_not_a_screen(controls: str) -> None:
    module, name = PLAYS[controls]
    found = getattr(importlib.import_module(module), name)
    assert issubclass(found, Play) and not issubclass(found, Screen)


def test_the_features_speak_in_messages() -> None:
    # the hint, the solver and a result sent come back as Messages the screen handles
    handled = set(re.findall(r"@on\((?:Play\.)?(\w+)", inspect.getsource(GameScreen)))
    assert {"HintFound", "HintFailed", "SolverChose", "SolverFailed", "Sent", "Over"} <= handled
    assert {"Chosen", "NewGame", "Share", "Failed"} <= handled
