"""twofold.testing: the whole plugin contract, run against any mode.

A plugin author calls :func:`check_mode` from a test of their own (twofold's suite
calls it over every built-in and example mode)::

    from twofold.testing import check_mode
    from twofold_drop import modes

    def test_the_contract():
        for mode in modes():
            check_mode(mode)

Each check is a function of its own too, and fails with an ``AssertionError`` that
names the mode, the action and what is wrong:

* :func:`check_registers`: the mode registers with no problem and no note;
* :func:`check_events`: random play (the mode's own controls, hint, power-ups and
  commands, legal and not) emits only the core vocabulary, each event drawable;
* :func:`check_replay`: replaying a game's log gives the game played;
* :func:`check_undo_never_rerolls`: an action undone and played again gives the same;
* :func:`check_proof`: a game's proof replays to the game played (with the mode's
  action coder, ``Mode.proof``, and with the generic encoding);
* :func:`check_fields`: every documented field is honoured (statistics read numbers
  the rules keep, gauges get values, a hint and a judge agree with the rules...);
* :func:`check_aliases`: ``parse`` takes every word ``--plain`` help advertises, as it says;
* :func:`check_reachable`: every action the rules take on random states can be sent from
  the app (a key, the palette, the pointer), and a slide game that is not over can always
  be moved from it;
* :func:`check_no_foreign_words`: nothing of another game (``"2048"``, ``"2248"``) in
  what the app and the line modes show of the mode, unless its own title says it;
* :func:`check_stones`: a stone (``STONE``) never moves, merges or goes away, and
  ``read_board`` and ``render_text`` say it;
* :func:`check_layout`: the places a mode's layout leaves out hold ``NO_CELL`` only, and
  no event, hint or ``read_board`` names one;
* :func:`check_line_modes`: ``--json`` and ``--plain`` play the mode, the first reply
  carries its commands, every reply is one JSON object;
* :func:`check_in_the_app`: the app opens the mode and plays it through Textual's Pilot;
* :func:`check_environment` and :func:`check_masks` (with the ``rl`` extra): the mode as a
  Gymnasium environment passes Gymnasium's ``check_env``, and its action masks are
  exactly right (``mask[a]`` true exactly when action ``a`` changes the game).

For a plugin's own tests: :func:`registered` (a registry holding only the plugin),
:class:`Session` and :class:`MemoryStore` (play a game as the app does, kept in memory),
:class:`Game`, :func:`fresh_home` and the pytest fixture ``twofold_home`` (a fresh data
folder, ``TWOFOLD_HOME``: ``from twofold.testing import twofold_home`` in your conftest).

This package is part of twofold's public API, beside ``twofold.plugin``; import its names
from ``twofold.testing`` (its modules, one check each, may move). It may use the app
(``check_in_the_app``), which a plugin itself never imports.
"""

from __future__ import annotations

from twofold.core._rules import Mode
from twofold.testing.controls import check_aliases, check_reachable
from twofold.testing.environment import check_environment, check_masks
from twofold.testing.fields import check_fields
from twofold.testing.foreign_words import (
    OTHER_GAMES,
    check_no_foreign_words,
    foreign_words,
    shown_texts,
    strings_in,
)
from twofold.testing.harness import (
    Game,
    MemoryStore,
    Registry,
    Session,
    fresh_home,
    registered,
    twofold_home,
)
from twofold.testing.in_the_app import check_in_the_app
from twofold.testing.layout import check_layout
from twofold.testing.line_modes import check_line_modes
from twofold.testing.player import random_action
from twofold.testing.proofs import check_proof
from twofold.testing.random_play import check_events, check_replay, check_undo_never_rerolls
from twofold.testing.registry import check_registers, registry_of
from twofold.testing.stones import check_stones

__all__ = [
    "OTHER_GAMES",
    "Game",
    "MemoryStore",
    "Registry",
    "Session",
    "check_aliases",
    "check_environment",
    "check_events",
    "check_fields",
    "check_in_the_app",
    "check_layout",
    "check_line_modes",
    "check_masks",
    "check_mode",
    "check_no_foreign_words",
    "check_proof",
    "check_reachable",
    "check_registers",
    "check_replay",
    "check_stones",
    "check_undo_never_rerolls",
    "foreign_words",
    "fresh_home",
    "random_action",
    "registered",
    "registry_of",
    "shown_texts",
    "strings_in",
    "twofold_home",
]


def check_mode(mode: Mode, *, actions: int = 300, seed: int = 0, app: bool = True) -> None:
    """Every check of the contract on ``mode`` (``app=False`` leaves out the Pilot run)."""
    check_registers(mode)
    check_events(mode, actions=actions, seed=seed)
    check_replay(mode, seed=seed)
    check_undo_never_rerolls(mode, seed=seed)
    check_proof(mode, seed=seed)
    check_fields(mode, seed=seed)
    check_aliases(mode)
    check_reachable(mode, seed=seed)
    check_stones(mode, seed=seed)
    check_layout(mode, seed=seed)
    check_no_foreign_words(mode, seed=seed)
    check_line_modes(mode, seed=seed)
    if app:
        check_in_the_app(mode)
