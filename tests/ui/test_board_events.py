"""The slide board (and the place board drawn by it) animates the events of the vocabulary
that move tiles: moved and fell glide, removed shrink away, appeared and merged grow in."""

from __future__ import annotations

from twofold.core.events import Appeared, Fell, Merged, Moved, Removed
from twofold.ui.app.widgets.board import plan_motion, removed_cells, slide_paths

BEFORE = ((2, 4, 0), (0, 0, 8), (0, 0, 0))
AFTER = ((0, 4, 0), (0, 0, 0), (2, 16, 8))
EVENTS = (
    Removed(((0, 0),), 2, "hammer"),
    Fell((1, 2), (2, 2), 8),
    Moved((0, 1), (2, 1), 4),
    Merged((2, 1), 16, ()),
    Appeared((2, 0), 2),
)


def test_glides_come_from_moved_and_fell() -> None:
    assert slide_paths(EVENTS) == [((1, 2), (2, 2)), ((0, 1), (2, 1))]


def test_removed_tiles_vanish_and_new_ones_grow_in() -> None:
    motion = plan_motion(BEFORE, AFTER, slide_paths(EVENTS), removed_cells(EVENTS))
    assert motion is not None
    assert motion.vanishing == frozenset({(0, 0)})
    assert {(source, target) for _value, source, target in motion.glides} >= {
        ((1, 2), (2, 2)),
        ((0, 1), (2, 1)),
        ((0, 0), (0, 0)),
    }
    assert (2, 0) in motion.spawns  # appeared where nothing glided


def test_a_move_that_only_removes_is_still_animated() -> None:
    events = (Removed(((0, 0),), 2, "hammer"),)
    motion = plan_motion(BEFORE, ((0, 4, 0), (0, 0, 8), (0, 0, 0)), [], removed_cells(events))
    assert motion is not None and motion.vanishing == frozenset({(0, 0)})
    assert plan_motion(BEFORE, BEFORE, [], frozenset()) is None
