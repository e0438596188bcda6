"""What a mode tells the app to show: help, statistics, the top bar, power-ups, a tutorial.

These are plain values a mode carries (see :class:`twofold.core._rules.Mode`). The app
shows exactly these and nothing it knows of its own about a game, so a plugin's mode
gets the same complete screens as the built-in ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, get_args

from twofold.core._i18n import N_, _

Aggregate = Literal["best", "total", "average", "latest", "reached"]
AGGREGATES: tuple[str, ...] = get_args(Aggregate)
#: what a Statistic may read besides the keys of ``Rules.stats``
BUILTIN_STATISTICS = ("score", "largest", "moves")
#: top-bar items every mode may name; any other key is read from ``Status.gauges``
BUILTIN_GAUGES = ("score", "best", "moves", "clock", "code")
PowerUpTarget = Literal["none", "tile", "pair", "undo"]
POWERUP_TARGETS: tuple[str, ...] = get_args(PowerUpTarget)
#: the shapes of a command's arguments: nothing, one cell, two cells, a path of cells, a column
CommandArguments = Literal["none", "cell", "pair", "cells", "column"]
COMMAND_ARGUMENTS: tuple[str, ...] = get_args(CommandArguments)


@dataclass(frozen=True)
class Statistic:
    """One line of a mode's statistics, aggregated over its counted games.

    The game in progress counts too, without being counted as played: it can raise a
    ``"best"`` line, the best score, the largest tile and the tile strip, and adds to a
    ``"total"`` and the play time (once: when it finishes, its finished row takes over);
    ``"average"``, ``"latest"`` and ``"reached"`` lines wait for it to end. The ``"best"``
    and ``"total"`` lines are also what Copy result tells of a game. ``games_reaching(goal)``
    is the line for a goal tile.
    """

    key: str
    """``"score"``, ``"largest"``, ``"moves"`` or a key of ``Rules.stats``"""
    label: str
    """what a player reads (through ``_()``)"""
    aggregate: Aggregate = "best"
    """how the counted games combine: the ``"best"`` (largest), the ``"total"``, the
    ``"average"``, the ``"latest"`` game's value, or how many games ``"reached"``
    ``threshold``
    """
    name: str = ""
    """the field in ``twofold stats --json`` (``field`` is ``name or key``): give two lines
    that read one key different names
    """
    threshold: int = 0
    """for ``"reached"``: the value a game's ``key`` must reach (2584: games reaching 2584)"""

    @property
    def field(self) -> str:
        return self.name or self.key


def games_reaching(goal: int) -> Statistic:
    """How many counted games made the ``goal`` tile (``reached_GOAL`` in ``stats --json``)."""
    return Statistic(
        "largest",
        _("Games reaching {goal}").format(goal=goal),
        "reached",
        name=f"reached_{goal}",
        threshold=goal,
    )


@dataclass(frozen=True)
class Gauge:
    """One item of the top bar: a built-in (see ``BUILTIN_GAUGES``) or the mode's own.

    A key of the mode's own is read from ``Status.gauges`` and shown as
    ``label value`` (for example ``Merges left 12`` or ``Next 3``).
    """

    key: str
    """a built-in: ``"score"``, ``"best"`` (the mode's best score), ``"moves"``, ``"clock"``
    (time left with a ``time_limit``, else time played), ``"code"`` (the game code); any
    other key is the mode's own, its value read from ``Status.gauges[key]``
    """
    label: str = ""
    """what is shown before the value of a gauge of the mode's own"""


@dataclass(frozen=True)
class PowerUp:
    """A power-up a mode offers: its action word, name, key and what it is aimed at.

    ``target`` is ``"none"`` (used at once: ``id``), ``"tile"`` (``id R,C``),
    ``"pair"`` (``id R,C R,C``) or ``"undo"`` (it is the game's own undo).
    """

    id: str
    """its action word for ``Rules.apply``"""
    name: str
    """what a player reads"""
    key: str
    """the key that uses it"""
    target: PowerUpTarget = "none"
    """what it is aimed at: ``"none"`` (used at once: ``shuffle``), ``"tile"``
    (``hammer R,C``), ``"pair"`` (``swap R,C R,C``) or ``"undo"`` (it is the game's own
    undo, spent by ``Rules.undo``, and may take the key ``u``)
    """
    description: str = ""
    """what it does, in one sentence: its key's tooltip"""
    offered_only: bool = False
    """shown only while the mode offers it for nothing (``Status.free``), as Blitz's Shuffle"""


@dataclass(frozen=True)
class TutorialPage:
    """One page of a mode's tutorial: words and, if it helps, a row of tiles and what they make."""

    title: str
    """the page's heading"""
    text: str
    """what it says"""
    tiles: tuple[int, ...] = ()
    """a row of tiles drawn under the words (``(4, 4, 4)``), or () for none"""
    makes: int = 0
    """the tile ``tiles`` make, drawn after them (16), or 0 for none"""


@dataclass(frozen=True)
class Status:
    """What a state shows beyond its board and score (``Mode.status``).

    ``gauges`` fill the mode's own top-bar items; ``powerups`` count the power-ups
    held; ``rescues`` are the power-ups that would open a move on a stuck board;
    ``free`` are power-ups offered for nothing right now; ``over`` says in words why a
    finished game ended ("No merges left"), when the mode wants to say it.
    """

    gauges: Mapping[str, str] = field(default_factory=dict)
    """the values of the mode's own gauges, by key, as text (``"12"``, ``"3 → 5"``)"""
    powerups: Mapping[str, int] = field(default_factory=dict)
    """the count held of each power-up id"""
    rescues: tuple[str, ...] = ()
    """the power-ups that would open a move on a stuck board: the app offers them instead
    of ending the game
    """
    free: tuple[str, ...] = ()
    """the power-ups offered for nothing right now"""
    over: str = ""
    """why a finished game ended, in words ("No two equal tiles touch"); "" says nothing"""
    upcoming: tuple[int, ...] = ()
    """the tiles that come next, the nearest first (``(8, 4)`` reads "next: 8, then 4", as
    ``upcoming_words`` says it), beside the board, in ``--plain`` and in ``--json``; any
    kind of mode may show it; () shows nothing
    """


@dataclass(frozen=True)
class Direction:
    """One direction a slide mode's tiles move in (``Mode.directions``).

    ``name`` is the action (``"left"``, ``"ne"``): what ``Rules.parse`` gives and
    ``Rules.apply`` takes, and the word the line modes list; ``label`` what Help, the
    footer's tooltip, the palette and a hint say (``"Move up-right"``); ``keys`` the app's
    keys for it (Textual's names: ``"e"``, ``"9"``, ``"up"``); ``glyph`` the footer's and
    the arrow button's sign (``"↗"``); ``angle`` where a swipe points for it, in degrees
    counter-clockwise from the right (0 right, 90 up, 180 left, 270 down): a drag moves
    in the direction whose angle is nearest.
    """

    name: str
    """the action: what ``Rules.parse`` gives and ``Rules.apply`` takes"""
    label: str
    """what Help, the footer's tooltip, the palette and a hint say"""
    keys: tuple[str, ...] = ()
    """the app's keys for it, as Textual names them"""
    glyph: str = ""
    """the sign in the footer and on the arrow button"""
    angle: float = 0.0
    """where a swipe points for it: degrees counter-clockwise from the right"""


#: the four directions of a slide mode that declares none (2048's), with their keys
FOUR_DIRECTIONS: tuple[Direction, ...] = (
    Direction("left", N_("Move left"), ("left", "a", "h"), "←", 180.0),
    Direction("up", N_("Move up"), ("up", "w", "k"), "↑", 90.0),
    Direction("down", N_("Move down"), ("down", "s", "j"), "↓", 270.0),
    Direction("right", N_("Move right"), ("right", "d", "l"), "→", 0.0),
)


@dataclass(frozen=True)
class Command:
    """A line-mode command a mode's ``Rules.parse`` takes beyond those of its controls.

    ``word`` is the command's first word; ``takes`` the shape of what follows it:
    ``"none"``, ``"cell"`` (``R,C``), ``"pair"`` (``R,C R,C``), ``"cells"`` (a path,
    ``R,C R,C ...``) or ``"column"`` (``C``). The line modes list it in ``help`` and in
    the first ``--json`` reply's ``commands``, and turn its cells and columns between
    the count from 1 of ``--plain`` and the count from 0 of the protocol.
    """

    word: str
    """the command's first word"""
    takes: CommandArguments = "none"
    """the shape of what follows the word"""
    description: str = ""
    """what it does, in a few words: the palette's entry, the key's tooltip, the line
    modes' help
    """
    keys: tuple[str, ...] = ()
    """the app's keys for a command that takes nothing (it is in the palette and Help with or
    without keys); a command that takes more is played in the line modes
    """

    def as_dict(self) -> dict[str, str]:
        return {"word": self.word, "takes": self.takes}


def upcoming_words(values: tuple[int, ...]) -> str:
    """What comes next, in words: ``next: 8, then 4`` ("" when nothing is shown)."""
    if not values:
        return ""
    text = _("next: {value}").format(value=values[0])
    for value in values[1:]:
        text += ", " + _("then {value}").format(value=value)
    return text


#: the statistics of a mode that names none
DEFAULT_STATISTICS: tuple[Statistic, ...] = ()
#: keys the app keeps for itself on every game screen, and on the screens of each controls
#: kind: a power-up whose ``key`` is one of them is reported when it registers and gets
#: no key (it is still used by a click, the palette and its command)
RESERVED_KEYS: Mapping[str, tuple[str, ...]] = {
    "every": (
        "u", "z", "ctrl+z", "n", "r", "h", "ctrl+r", "b", "e", "v", "c", "y", "m",
        "question_mark", "f1", "t", "comma", "q", "escape", "tab", "shift+tab", "ctrl+p",
        # Textual's own on every screen: quit always wins, copy runs before any binding
        "ctrl+q", "ctrl+c", "super+c",
    ),
    # h moves left on a slide screen, so its hint is on i
    "slide": ("up", "down", "left", "right", "w", "a", "s", "d", "k", "j", "l", "i"),
    "chain": ("up", "down", "left", "right", "space", "enter", "backspace", "p"),
    "place": ("up", "down", "left", "right", "space", "enter"),
}  # fmt: skip


def reserved_keys(controls: str) -> tuple[str, ...]:
    """The keys a mode of ``controls`` may not give a power-up."""
    return (*RESERVED_KEYS["every"], *RESERVED_KEYS.get(controls, ()))


#: what a slide mode's own directions and commands may not take: every screen's keys and
#: the slide screen's hint (``h`` is free: the four directions it moves left are replaced)
def direction_reserved_keys() -> tuple[str, ...]:
    return (*(k for k in RESERVED_KEYS["every"] if k != "h"), "i")


#: the top bar of a mode that names none
DEFAULT_GAUGES: tuple[Gauge, ...] = (Gauge("score"), Gauge("best"), Gauge("moves"), Gauge("code"))
