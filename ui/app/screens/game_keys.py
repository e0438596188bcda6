"""The keys every game has, whatever its controls: one key for one action in every game,
named per kind of controls in the key-binding ids (the player may rebind them).

They are the game screen's actions (``screen.undo``), listed among the keys of each kind's
play widget, so the footer and Help show them in the order the kind gives."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from twofold.core._i18n import _


def game_bindings(
    prefix: str, *, undo_keys: str = "u,ctrl+z", hint_key: str = "h"
) -> list[BindingType]:
    """The keys every game screen has; ``prefix`` names the screen in key-binding ids.

    A screen whose moves take ``h`` (the slide screen's vim keys) gives the hint another key.
    """
    return [
        Binding(undo_keys, "screen.undo", _("Undo"), tooltip=_("Take back the last move"),
                id=f"{prefix}.undo"),
        Binding("n", "screen.new_game", _("New"), tooltip=_("Start a new game with a fresh code"),
                id=f"{prefix}.new"),
        Binding("r", "screen.read_board", _("Read"), tooltip=_("Read the whole board aloud"),
                id=f"{prefix}.read"),
        Binding(hint_key, "screen.hint", _("Hint"), show=False, tooltip=_("Suggest a good move"),
                id=f"{prefix}.hint"),
        Binding("ctrl+r", "screen.restart", _("Restart"), show=False,
                tooltip=_("Play the same code again from its first move"), id=f"{prefix}.restart"),
        Binding("b", "screen.last_game", _("Last game"), show=False,
                tooltip=_("Bring back the game that New game or Restart replaced"),
                id=f"{prefix}.last_game"),
        Binding("e", "screen.sample", _("Sample"), show=False,
                tooltip=_("Open a stored game to watch (never counted)"), id=f"{prefix}.sample"),
        Binding("v", "screen.watch_solver", _("Watch the solver"), show=False,
                tooltip=_("Let the solver play; any key takes over (never counted)"),
                id=f"{prefix}.watch_solver"),
        Binding("c", "screen.copy_link", _("Copy link"), show=False,
                tooltip=_("Copy this game's share string"), id=f"{prefix}.copy_link"),
        Binding("y", "screen.copy_result", _("Copy result"), show=False,
                tooltip=_("Copy the score and the share string"), id=f"{prefix}.copy_result"),
        Binding("m", "screen.maximize_board", _("Max"), tooltip=_("Maximise the board"),
                id=f"{prefix}.maximize"),
        Binding("question_mark,f1", "screen.help", _("Help"), tooltip=_("Rules and keys"),
                id=f"{prefix}.help"),
        Binding("t", "screen.statistics", _("Statistics"), show=False,
                tooltip=_("Records and recent scores"), id=f"{prefix}.statistics"),
        Binding("comma", "screen.settings", _("Settings"), show=False,
                tooltip=_("Theme, motion, sound"), id=f"{prefix}.settings"),
        Binding("q", "screen.menu", _("Menu"), tooltip=_("Save and go back to the mode menu"),
                id=f"{prefix}.menu"),
    ]  # fmt: skip
