"""The 2248 power-ups in one table: each one's id, key, cells, effect, rescue check and words.

A power-up is a row of :data:`POWERUPS`; the rules parse, apply, count and report it, the
modes offer it, a position and a checkpoint carry it, and an announcement tells it, all
from its row. Adding one is adding a row here and its words to the catalogs. Which
power-up a new highest tile grants is :data:`GRANT_ORDER`, stated apart, so a new row
changes no grant.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from twofold.plugin import (
    Appeared,
    Event,
    Moved,
    Outcome,
    PowerUpTarget,
    Refused,
    Removed,
    Used,
    _,
    an_before,
)
from twofold.variants.chain2248 import spawn
from twofold.variants.chain2248.board import (
    CELLS,
    NEIGHBOURS,
    Cell,
    board_of,
    cell_words,
    grid_of,
    has_pair,
    pair_near,
    touching,
)
from twofold.variants.chain2248.state import ChainState


class Settings(Protocol):
    """What a power-up reads of its mode's rules (ChainRules)."""

    @property
    def free_shuffle(self) -> bool: ...


#: a power-up's effect: the state after using it on the cells its target asks for
Effect = Callable[[Settings, ChainState, Sequence[Cell]], Outcome]
#: whether, held (or free), it would open a chain on this stuck board
Rescue = Callable[[Settings, ChainState], bool]
#: its announcement: the ``used`` event, the events after it and the tiles that appeared
Told = Callable[[Used, Sequence[Event], Sequence[Appeared]], str]

_CELLS_OF: dict[PowerUpTarget, int] = {"none": 0, "tile": 1, "pair": 2, "undo": 0}


def N_(message: str) -> str:
    """Mark a string for translation where it is defined; ``_()`` translates it when shown."""
    return message


@dataclass(frozen=True)
class PowerUpKind:
    """One power-up: everything 2248 knows of it."""

    #: its action word in the protocol (``hammer R,C``) and its key in states and saves
    id: str
    #: its name for people, marked for the catalogs (translated when shown)
    name: str
    #: the key that arms it in the app
    key: str
    #: what it is aimed at, as ``PowerUp.target`` says
    target: PowerUpTarget
    #: one line for its button's tooltip, marked for the catalogs
    description: str
    #: the refusal when a command gives it the wrong number of cells (may name ``{word}``)
    usage: str
    #: what it does; None for Undo, which the game itself takes care of
    effect: Effect | None
    #: whether it opens a chain on a stuck board; None when it never counts as a rescue
    rescue: Rescue | None
    #: what it did, in words; None when the game tells it (Undo's ``undone``)
    told: Told | None

    @property
    def cells(self) -> int:
        """How many ``R,C`` cells its command takes."""
        return _CELLS_OF[self.target]


def powerup_name(powerup: str) -> str:
    """A power-up's name for people, in the current language."""
    return _(POWERUPS[powerup].name)


def spend(state: ChainState, powerup: str) -> dict[str, int]:
    """The held counts with one ``powerup`` fewer; Refused when none is held."""
    if state.held(powerup) < 1:
        raise Refused(_("no {powerup} left").format(powerup=powerup_name(powerup)))
    return {**state.powerups, powerup: state.held(powerup) - 1}


def _text(cell: Cell) -> str:
    # a reason speaks the protocol (from 0, as "rows 0 to 7" does); people's fronts shift it
    return f"({cell[0]},{cell[1]})"


# -- Hammer ----------------------------------------------------------------------------


def hammer(rules: Settings, state: ChainState, cells: Sequence[Cell]) -> Outcome:
    """Remove one tile; the tiles above fall and one new tile drops in."""
    cell = cells[0]
    spent = spend(state, "hammer")
    grid = grid_of(state.board)
    value = grid[cell[0]][cell[1]]
    grid[cell[0]][cell[1]] = 0
    events: list[Event] = [Used("hammer", (cell,)), Removed((cell,), value, "hammer")]
    draws = spawn.settle(state.code, state.draws, grid, state.retired, events)
    new = replace(state, board=board_of(grid), draws=draws, moves=state.moves + 1, powerups=spent)
    return Outcome(new, tuple(events))


def _hammer_opens(rules: Settings, state: ChainState) -> bool:
    return bool(state.held("hammer")) and any(
        has_pair(hammer(rules, state, (cell,)).state.board) for cell in CELLS
    )


def _hammer_told(event: Used, after: Sequence[Event], spawned: Sequence[Appeared]) -> str:
    value = next((e.value for e in after if isinstance(e, Removed)), 0)
    text = _("Hammer removed the {value} at {cell}.").format(
        value=value, cell=cell_words(event.cells[0])
    )
    if spawned:
        value = spawned[0].value
        # "an 8", "an 11", "a 16": English hears the number's first sound
        dropped = _("An {value} dropped in.") if an_before(value) else _("A {value} dropped in.")
        text += " " + dropped.format(value=value)
    return text


# -- Swap ------------------------------------------------------------------------------


def swap(rules: Settings, state: ChainState, cells: Sequence[Cell]) -> Outcome:
    """Exchange two touching tiles that differ."""
    a, b = cells[0], cells[1]
    if not touching(a, b):
        raise Refused(_("cells {a} and {b} do not touch").format(a=_text(a), b=_text(b)))
    grid = grid_of(state.board)
    va, vb = grid[a[0]][a[1]], grid[b[0]][b[1]]
    if va == vb:
        raise Refused(_("those two tiles are equal: swapping them changes nothing"))
    spent = spend(state, "swap")
    grid[a[0]][a[1]], grid[b[0]][b[1]] = vb, va
    events: list[Event] = [Used("swap", (a, b)), Moved(a, b, va), Moved(b, a, vb)]
    new = replace(state, board=board_of(grid), moves=state.moves + 1, powerups=spent)
    return Outcome(new, tuple(events))


def _swap_opens(rules: Settings, state: ChainState) -> bool:
    if not state.held("swap"):
        return False
    grid = grid_of(state.board)
    for a in CELLS:
        for b in NEIGHBOURS[a]:
            if b <= a or grid[a[0]][a[1]] == grid[b[0]][b[1]]:
                continue
            grid[a[0]][a[1]], grid[b[0]][b[1]] = grid[b[0]][b[1]], grid[a[0]][a[1]]
            opens = pair_near(grid, (a, b))
            grid[a[0]][a[1]], grid[b[0]][b[1]] = grid[b[0]][b[1]], grid[a[0]][a[1]]
            if opens:
                return True
    return False


def _swap_told(event: Used, after: Sequence[Event], spawned: Sequence[Appeared]) -> str:
    moved = [e for e in after if isinstance(e, Moved)][:2]
    a, b = (moved[0].value, moved[1].value) if len(moved) == 2 else (0, 0)
    return _("Swapped the {a} at {cell_a} with the {b} at {cell_b}.").format(
        a=a, b=b, cell_a=cell_words(event.cells[0]), cell_b=cell_words(event.cells[1])
    )


# -- Shuffle ---------------------------------------------------------------------------


def shuffle(rules: Settings, state: ChainState, cells: Sequence[Cell]) -> Outcome:
    """Mix the board so a chain opens; free, and only then, on a stuck board in Blitz."""
    free = rules.free_shuffle
    if free:
        if has_pair(state.board):
            raise Refused(_("Shuffle is only offered when no chain is left"))
        spent = dict(state.powerups)
    else:
        spent = spend(state, "shuffle")
    if not spawn.has_twins(state.board):
        raise Refused(_("no two tiles are equal: no shuffle can make a chain"))
    draws, grid, moved = spawn.shuffle(state.code, state.draws, state.board)
    events: list[Event] = [Used("shuffle", free=free)]
    for old_index, new_index in enumerate(moved):
        if old_index != new_index:
            source, target = CELLS[old_index], CELLS[new_index]
            events.append(Moved(source, target, state.board[source[0]][source[1]]))
    new = replace(state, board=board_of(grid), draws=draws, moves=state.moves + 1, powerups=spent)
    return Outcome(new, tuple(events))


def _shuffle_opens(rules: Settings, state: ChainState) -> bool:
    # a shuffle always leaves a chain when some value repeats
    held = bool(state.held("shuffle")) or rules.free_shuffle
    return held and spawn.has_twins(state.board)


def _shuffle_told(event: Used, after: Sequence[Event], spawned: Sequence[Appeared]) -> str:
    if event.free:
        return _("Free shuffle: the tiles are mixed.")
    return _("Shuffled: the tiles are mixed.")


# -- the table -------------------------------------------------------------------------

#: every power-up, in the order the app shows them; a mapping, so a test may add a row
POWERUPS: dict[str, PowerUpKind] = {
    kind.id: kind
    for kind in (
        PowerUpKind(
            "hammer",
            N_("Hammer"),
            "1",
            "tile",
            N_("Remove one tile"),
            N_("hammer takes one cell: hammer ROW,COL"),
            hammer,
            _hammer_opens,
            _hammer_told,
        ),
        PowerUpKind(
            "swap",
            N_("Swap"),
            "2",
            "pair",
            N_("Swap two touching tiles"),
            N_("swap takes two cells: swap ROW,COL ROW,COL"),
            swap,
            _swap_opens,
            _swap_told,
        ),
        PowerUpKind(
            "shuffle",
            N_("Shuffle"),
            "3",
            "none",
            N_("Mix the board"),
            N_("{word} takes no cells"),
            shuffle,
            _shuffle_opens,
            _shuffle_told,
        ),
        # Undo takes back the last action rather than opening a chain: never a rescue
        PowerUpKind(
            "undo",
            N_("Undo"),
            "u",
            "undo",
            N_("Take back the last move"),
            N_("{word} takes no cells"),
            None,
            None,
            None,
        ),
    )
}

#: the power-ups new highest tiles grant, from 512 up, in turn (Classic); stated apart from
#: the table so that adding a power-up changes no grant a game or a guide already has
GRANT_ORDER: tuple[str, ...] = ("hammer", "swap", "shuffle", "undo")
