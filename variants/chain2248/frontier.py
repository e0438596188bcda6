"""Longest simple paths in a region by a frontier dynamic programme: exact, bounded time.

The hint's path search (see :mod:`.hint`) is quick on almost every board but
exponential on a few (a big region whose longest path falls well short of every
bound). This programme gives the same lengths in a time set by the board's width,
not by the region's shape: it is the hint's fallback once the search has spent its
budget.

Cells are taken in reading order. A cell touches earlier cells only among the six
before it (left, and the three above), so every decision about a cell's edges is made
while it is in a window of the last six cells. A state of the programme is what the
window holds: for each cell, whether it is off the path for good (``SHUT``), not on
it yet (``OPEN``), or the end of a piece of path (a label, shared by the two ends of
one piece). Ends that leave the window are the path's ends: a given end, or one of
the free ends allowed. Pieces may never close a loop, and once a piece has both its
ends sealed it is the path, and no other piece may exist. Each state keeps the most
cells on the path so far, and the step that gave it, so the path can be rebuilt.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Any

from twofold.variants.chain2248.board import COLS, ROWS

SIZE = ROWS * COLS
WINDOW = COLS + 1
OPEN, SHUT = 0, -1
#: what a leaving end does: its piece goes on in the window, or has both ends sealed
ENDS, CLOSES = 1, 2


def _earlier(i: int) -> tuple[int, ...]:
    """Window positions (0 for cell i-6 ... 5 for i-1) of the earlier cells touching i."""
    r, c = divmod(i, COLS)
    found = []
    if r > 0:
        if c > 0:
            found.append(0)  # up-left
        found.append(1)  # up
        if c < COLS - 1:
            found.append(2)  # up-right
    if c > 0:
        found.append(WINDOW - 1)  # left
    return tuple(found)


EARLIER = tuple(_earlier(i) for i in range(SIZE))
#: cells with the same earlier neighbours join the same ways: one number per such shape
#: (five on the board: top-left, the rest of the top row, left edge, middle, right edge)
SHAPE = tuple(sorted(set(EARLIER)).index(e) for e in EARLIER)


def _canonical(window: tuple[int, ...]) -> tuple[int, ...]:
    names: dict[int, int] = {}
    out = []
    for v in window:
        if v > 0:
            v = names.setdefault(v, len(names) + 1)
        out.append(v)
    return tuple(out)


Layer = dict[tuple[tuple[int, ...], int], tuple[int, Any, tuple[int, ...]]]
Best = tuple[int, int, Any, tuple[int, ...]]  # cells, layer, state before it, edges
Option = tuple[tuple[int, ...], int, bool, int, tuple[int, ...]]
#: the ways a cell may join, by window and the cell's place: the same for every region,
#: so kept from one programme to the next (a few thousand windows occur)
_MOVES: dict[tuple[Any, ...], list[Option]] = {}
MAX_MOVES = 200_000
Join = tuple[tuple[int, ...], int, bool, int]
#: a window and the edges cell i takes -> (window after, gained, closed, leaving), shared
#: by every column (most of what a first programme in a process spends is spent here)
_JOINS: dict[tuple[tuple[int, ...], tuple[int, ...], bool], Join | None] = {}
#: not yet in _JOINS (None there means: these edges close a loop)
_UNKNOWN = object()


def longest_path(comp: int, ends: tuple[int, ...]) -> list[int]:
    """The cells of a longest simple path inside ``comp`` (a bit mask of touching cells)
    whose ends include ``ends`` (zero, one or two cells of comp); [] when there is none.

    With two ends the path runs between them; with one it starts there; with none it
    may lie anywhere. Ties go to the first path found, so the answer is deterministic.
    """
    if len(ends) == 2 and ends[0] == ends[1]:
        return [ends[0]]
    layers, bests, first = _programme(comp, ends, track=False)
    best = bests.get(0)
    if best is None:
        return [ends[0]] if len(ends) == 1 else []
    path = _rebuild(layers, best, first)
    return path[::-1] if ends and path[0] != ends[0] else path


def paths_from(comp: int, x: int, targets: int) -> dict[int, list[int]]:
    """For every cell ``end`` of ``targets`` (a mask inside comp, without x) that a path
    from ``x`` can reach, the cells of a longest path from x to it, x first: every such
    query about x in one programme."""
    layers, bests, first = _programme(comp, (x,), track=True, targets=targets)
    found = {}
    for end, best in sorted(bests.items()):
        path = _rebuild(layers, best, first)
        found[end] = path if path[0] == x else path[::-1]
    return found


def _programme(
    comp: int, ends: tuple[int, ...], track: bool, targets: int = 0
) -> tuple[list[Layer], dict[int, Best], int]:
    """The programme's layers and its best finishes: by the free end's cell when
    ``track`` (one given end, the other one of ``targets``), else one, under 0."""
    free = 2 - len(ends)
    terminal = set(ends)
    last_end = max(ends, default=-1)
    last = comp.bit_length()  # one past the last cell of comp
    first = (comp & -comp).bit_length() - 1
    later = [_later(j, comp) for j in range(SIZE)]
    moves = _MOVES
    if len(moves) > MAX_MOVES:
        moves.clear()
        _JOINS.clear()
    # layers[k][(window, sealed)] = (cells on the path, state before, edges); sealed is
    # how many free ends have left the window, or (track) which cell did, -1 for none
    layers: list[Layer] = []
    states: Layer = {((SHUT,) * WINDOW, -1 if track else 0): (0, None, ())}
    bests: dict[int, Best] = {}
    for i in range(first, last + WINDOW):  # until every cell has left the window
        nxt: Layer = {}
        inside = i < last and bool(comp >> i & 1)
        is_end = i in terminal
        leaving_end = i - WINDOW in terminal
        # a path may finish here only once every given end has left the window
        may_finish = last_end <= i - WINDOW
        usable_ends = tuple(p for p in EARLIER[i] if i - WINDOW + p in terminal) if inside else ()
        # cells left in the window with no touching cell of comp still to come: shut
        alive = tuple(
            not 0 <= j < SIZE or j in terminal or later[j] > i for j in range(i - WINDOW + 1, i + 1)
        )
        shut_dead = not all(alive)
        shape = SHAPE[i] if inside else -1  # a cell outside comp joins no way at all
        for state, (count, _before, _how) in states.items():
            window, sealed = state
            key = (window, shape, inside, is_end, usable_ends)
            options = moves.get(key)
            if options is None:
                earlier = EARLIER[i] if inside else ()
                options = moves[key] = _options(window, earlier, inside, is_end, usable_ends)
            for rest, gained, finished, leaving, how in options:
                value = count + gained
                now = sealed
                if leaving > 0 and not leaving_end:  # a free end seals
                    if track:
                        if sealed >= 0 or not targets >> (i - WINDOW) & 1:
                            continue
                        now = i - WINDOW
                    elif sealed >= free:
                        continue
                    else:
                        now = sealed + 1
                elif leaving == OPEN and leaving_end:
                    continue  # a given end never got on the path
                if leaving == CLOSES:  # its piece has both ends sealed: the path
                    if finished or any(v > 0 for v in rest):
                        continue
                    finished = True
                if finished:
                    if may_finish and not any(v > 0 for v in rest):
                        tag = now if track else 0
                        known_best = bests.get(tag)
                        if known_best is None or value > known_best[0]:
                            bests[tag] = (value, len(layers), state, how)
                    continue
                new = (shut(rest, alive) if shut_dead else rest, now)
                known = nxt.get(new)
                if known is None or value > known[0]:
                    nxt[new] = (value, state, how)
        layers.append(nxt)
        states = nxt
    return layers, bests, first


@lru_cache(maxsize=65536)
def shut(window: tuple[int, ...], alive: tuple[bool, ...]) -> tuple[int, ...]:
    """The window with every cell that can no longer join the path shut (fewer states)."""
    return tuple(SHUT if v == OPEN and not ok else v for v, ok in zip(window, alive, strict=True))


def _later(j: int, comp: int) -> int:
    """The last cell of comp that touches cell j and comes after it (-1 if none)."""
    r, c = divmod(j, COLS)
    found = -1
    for k in (j + 1 if c < COLS - 1 else -1, j + COLS - 1 if c > 0 else -1, j + COLS,
              j + COLS + 1 if c < COLS - 1 else -1):  # fmt: skip
        if 0 <= k < SIZE and r + (k - j) // COLS < ROWS and comp >> k & 1:
            found = max(found, k)
    return found


def _options(
    window: tuple[int, ...],
    earlier: tuple[int, ...],
    inside: bool,
    is_end: bool,
    usable_ends: tuple[int, ...],
) -> list[Option]:
    """Every way cell i may join the path, given the window of the six cells before it
    and the window positions of i's earlier neighbours: (the window after, cells gained,
    whether the path closed, the cell leaving: OPEN, SHUT, ENDS or CLOSES, edges)."""
    if not inside:
        hows: list[tuple[int, ...]] = [()]
    else:
        usable = [
            p for p in earlier if window[p] != SHUT and not (window[p] > 0 and p in usable_ends)
        ]
        hows = [(), *((p,) for p in usable)]
        if not is_end:
            hows += list(combinations(usable, 2))
    found = []
    for how in hows:
        key = (window, how, inside)
        joined = _JOINS.get(key, _UNKNOWN)
        if joined is _UNKNOWN:
            joined = _JOINS[key] = _join(window, how, inside)
        if joined is not None:
            found.append((*joined, how))
    return found


def _join(window: tuple[int, ...], how: tuple[int, ...], inside: bool) -> Join | None:
    """One option of :func:`_options` without its edges; None when they close a loop."""
    step = _step(window, how, inside)
    if step is None:
        return None
    moved, gained, finished = step
    leaving = moved[0]
    if leaving > 0:  # an end leaves: CLOSES if its piece has no end left in the window
        leaving = CLOSES if leaving not in moved[1:] else ENDS
    return _canonical(moved[1:]), gained, finished, leaving


def _step(
    window: tuple[int, ...], how: tuple[int, ...], inside: bool
) -> tuple[tuple[int, ...], int, bool] | None:
    """The window after cell i takes the edges ``how`` (positions of earlier cells),
    with i appended: (window of seven, cells gained, whether a piece closed both ends).
    None when the edges would close a loop."""
    w = list(window)
    if not inside:
        return (*w, SHUT), 0, False
    if not how:
        return (*w, OPEN), 0, False
    fresh = max(*w, 0) + 1  # a label no piece in the window has
    gained = 1 + sum(1 for p in how if w[p] == OPEN)
    if len(how) == 1:
        p = how[0]
        if w[p] == OPEN:
            w[p] = fresh
            return (*w, fresh), gained, False
        label = w[p]
        w[p] = SHUT
        return (*w, label), gained, False
    p, q = how
    a, b = w[p], w[q]
    if a == OPEN and b == OPEN:
        w[p] = w[q] = fresh
        return (*w, SHUT), gained, False
    if a == OPEN or b == OPEN:
        label = b if a == OPEN else a
        w[p if a == OPEN else q] = label
        w[q if a == OPEN else p] = SHUT
        return (*w, SHUT), gained, False
    if a == b:
        return None  # a loop
    w[p] = w[q] = SHUT
    # the two pieces join through i: their other ends (if still here) share a label
    for k, v in enumerate(w):
        if v == b:
            w[k] = a
    return (*w, SHUT), gained, a not in w


def _rebuild(layers: list[Layer], best: Best, first: int) -> list[int]:
    """The path's cells, from the edges chosen on the way to the best finish."""
    _count, k, state, how = best
    edges: dict[int, list[int]] = {}
    while True:
        i = first + k
        for p in how:
            j = i - WINDOW + p
            edges.setdefault(i, []).append(j)
            edges.setdefault(j, []).append(i)
        k -= 1
        if k < 0:
            break
        _count, state, how = layers[k][state]
    ends = sorted(v for v, near in edges.items() if len(near) == 1)
    path, previous = [ends[0]], -1
    while True:
        onward = [v for v in edges[path[-1]] if v != previous]
        if not onward:
            return path
        previous = path[-1]
        path.append(onward[0])
