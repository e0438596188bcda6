"""The plugin contract's one front: every name a plugin author needs, and its version.

    from twofold.plugin import Mode, Outcome, Refused, hookimpl

A plugin imports from here only (and tests itself with :mod:`twofold.testing`). The
names still import from the core modules where they live, with a DeprecationWarning
naming this module. :data:`CONTRACT_VERSION` is ``(major, minor)``: a minor release adds
to the contract and breaks nothing; a major one may remove what was deprecated before
(CHANGELOG.md, "For plugin authors").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from twofold.core._blocks import (
    FOUR_STEPS,
    SLIDE_WORDS,
    Merge,
    RulesBase,
    empty_cells,
    equal_pairs,
    lines_toward,
    put,
    put_stones,
    rectangle,
    slide,
    slide_line,
    spawn,
)
from twofold.core._capabilities import (
    ActionCoder,
    Autoplayer,
    Hint,
    LegalActions,
    Pick,
    Sample,
    StateCodec,
    Verdict,
    Weights,
    compiled_search,
)
from twofold.core._chains import (
    EIGHT_STEPS,
    SIDE_STEPS,
    ChainRule,
    Neighbours,
    cell_words,
    chain_problem,
    check_chain,
    doubling_chain,
    eight_neighbours,
    equal_chain,
    fibonacci_pairs,
    folded,
    group_of,
    groups,
    has_chain,
    merge_chain,
    side_neighbours,
    stepping,
    threes_pairs,
)
from twofold.core._deal import below, chance, draw
from twofold.core._events import (
    Appeared,
    Cell,
    Earned,
    Event,
    Fell,
    Merged,
    Moved,
    Praised,
    Removed,
    Undone,
    Used,
)
from twofold.core._gravity import DOWN, Deal, cascade, fall, refill, settle
from twofold.core._hookspecs import CONTRACT_VERSION as _CONTRACT_VERSION
from twofold.core._hookspecs import hookimpl
from twofold.core._i18n import N_, _, add_domain, an_before, ngettext, pgettext
from twofold.core._layout import HEX_DIRECTIONS, HEX_STEPS, NO_CELL, Layout
from twofold.core._positions import position_board, position_score
from twofold.core._presentation import (
    FOUR_DIRECTIONS,
    RESERVED_KEYS,
    Command,
    Direction,
    Gauge,
    PowerUp,
    PowerUpTarget,
    Statistic,
    Status,
    TutorialPage,
    games_reaching,
    upcoming_words,
)
from twofold.core._rules import (
    Board,
    Controls,
    Mode,
    Outcome,
    Place,
    PositionError,
    Refused,
    Rules,
    State,
)
from twofold.core._stones import STONE, stones_on, value_mark, value_words

if TYPE_CHECKING:
    from twofold.core.store.files import data_dir

#: the contract's version, (major, minor); see CHANGELOG.md for what each one changed. A
#: plugin may state the one it was written for, ``TWOFOLD_CONTRACT = (1, 2)`` in the module
#: it registers: one written for a newer major than this is refused when it loads
CONTRACT_VERSION: Final = _CONTRACT_VERSION

__all__ = [
    "CONTRACT_VERSION",
    "DOWN",
    "EIGHT_STEPS",
    "FOUR_DIRECTIONS",
    "FOUR_STEPS",
    "HEX_DIRECTIONS",
    "HEX_STEPS",
    "NO_CELL",
    "N_",
    "RESERVED_KEYS",
    "SIDE_STEPS",
    "SLIDE_WORDS",
    "STONE",
    "ActionCoder",
    "Appeared",
    "Autoplayer",
    "Board",
    "Cell",
    "ChainRule",
    "Command",
    "Controls",
    "Deal",
    "Direction",
    "Earned",
    "Event",
    "Fell",
    "Gauge",
    "Hint",
    "Layout",
    "LegalActions",
    "Merge",
    "Merged",
    "Mode",
    "Moved",
    "Neighbours",
    "Outcome",
    "Pick",
    "Place",
    "PositionError",
    "PowerUp",
    "PowerUpTarget",
    "Praised",
    "Refused",
    "Removed",
    "Rules",
    "RulesBase",
    "Sample",
    "State",
    "StateCodec",
    "Statistic",
    "Status",
    "TutorialPage",
    "Undone",
    "Used",
    "Verdict",
    "Weights",
    "_",
    "add_domain",
    "an_before",
    "below",
    "cascade",
    "cell_words",
    "chain_problem",
    "chance",
    "check_chain",
    "compiled_search",
    "data_dir",
    "doubling_chain",
    "draw",
    "eight_neighbours",
    "empty_cells",
    "equal_chain",
    "equal_pairs",
    "fall",
    "fibonacci_pairs",
    "folded",
    "games_reaching",
    "group_of",
    "groups",
    "has_chain",
    "hookimpl",
    "lines_toward",
    "merge_chain",
    "ngettext",
    "pgettext",
    "position_board",
    "position_score",
    "put",
    "put_stones",
    "rectangle",
    "refill",
    "settle",
    "side_neighbours",
    "slide",
    "slide_line",
    "spawn",
    "stepping",
    "stones_on",
    "threes_pairs",
    "upcoming_words",
    "value_mark",
    "value_words",
]


def __getattr__(name: str) -> Any:
    # the store takes a sixth of a second to import: only a plugin that keeps files pays it
    if name == "data_dir":
        from twofold.core.store.files import data_dir

        return data_dir
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
