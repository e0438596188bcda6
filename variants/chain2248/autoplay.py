"""The 2248 autoplayer: rollouts of the hint over a handful of candidate moves.

The deal is known (every new tile comes from the code and the draw count), so a move's
future can be played out exactly. For each candidate (the hint's chain, the longest
chain making each other tile at each end cell, and, while held, the Swap or Hammer
that most improves the next chain) the autoplayer plays the move and then follows the
hint for a few merges (to the end of a Daily's budget), and picks the candidate with
the best score at the end. Always taking the hint is one of the candidates, so over
the horizon it never does worse than the hint player, and it learns to set up bigger
chains: building the highest tile early also raises the tiles that fall in.

In a mode with no merge budget the game never has to end, so the autoplayer stops
after ENDLESS_MERGES merges. Deterministic (the same state gives the same move, ties
to the first candidate) and legal (every action is one the rules accept).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from twofold.plugin import Autoplayer, Refused, _
from twofold.variants.chain2248.board import CELLS, NEIGHBOURS, Cell, merge_value
from twofold.variants.chain2248.hint import best_chain
from twofold.variants.chain2248.rules import ChainRules
from twofold.variants.chain2248.state import ChainState

#: merges each candidate is played out for (a Daily stops at its budget first)
HORIZON = 6
#: the most candidate chains tried per move, besides the hint's
CANDIDATES = 8
#: search steps allowed per start cell while listing candidate chains
STEPS_PER_START = 120
MAX_DEPTH = 30
#: merges left in a budget when Swap and Hammer become candidates
POWERUP_WINDOW = 3
#: merges an autoplayer makes in a mode with no budget before it stops (2248 never ends)
ENDLESS_MERGES = 200


def chain_action(chain: Sequence[Cell]) -> str:
    return "chain " + " ".join(f"{r},{c}" for r, c in chain)


def candidate_chains(board: Sequence[Sequence[int]]) -> list[tuple[Cell, ...]]:
    """The longest chain found for each (end cell, tile made), biggest tiles first.

    A bounded walk from every cell (STEPS_PER_START), so dense boards stay quick; the
    exact best chain is the hint's, added by the caller.
    """
    found: dict[tuple[Cell, int], tuple[Cell, ...]] = {}
    for start in CELLS:
        _walk(board, [start], board[start[0]][start[1]], [STEPS_PER_START], found)
    ranked = sorted(found.items(), key=lambda item: (-item[0][1], -len(item[1]), item[1]))
    return [chain for _key, chain in ranked]


def _walk(
    board: Sequence[Sequence[int]],
    path: list[Cell],
    total: int,
    steps: list[int],
    found: dict[tuple[Cell, int], tuple[Cell, ...]],
) -> None:
    """Extend ``path`` every legal way while ``steps[0]`` lasts, keeping the longest
    chain for each (end cell, tile made) in ``found``."""
    if steps[0] <= 0:
        return
    steps[0] -= 1
    cell = path[-1]
    value = board[cell[0]][cell[1]]
    if len(path) >= 2:
        key = (cell, merge_value(total))
        if len(path) > len(found.get(key, ())):
            found[key] = tuple(path)
    for near in NEIGHBOURS[cell]:
        v = board[near[0]][near[1]]
        if near in path or not (v == value or (len(path) >= 2 and v == 2 * value)):
            continue
        path.append(near)
        _walk(board, path, total + v, steps, found)
        path.pop()


class ChainAutoplayer:
    """Chooses 2248 actions for one mode's rules (see the module's docstring)."""

    def __init__(self, rules: ChainRules, depth: int | None = None) -> None:
        if depth is not None and not 1 <= depth <= MAX_DEPTH:
            raise ValueError(_("the look-ahead is from 1 to {most} merges").format(most=MAX_DEPTH))
        self.rules = rules
        self.horizon = HORIZON if depth is None else depth

    def choose(self, state: ChainState) -> str | None:
        rules = self.rules
        if rules.is_spent(state) or (state.merges_left is None and state.merges >= ENDLESS_MERGES):
            return None
        hint = best_chain(state.board)
        if hint is None:
            return self._rescue(state)
        options = [chain_action(hint)]
        for chain in candidate_chains(state.board)[:CANDIDATES]:
            action = chain_action(chain)
            if action not in options:
                options.append(action)
        if state.merges_left is not None and state.merges_left <= POWERUP_WINDOW:
            # a Daily's power-ups are spent best on its last, biggest merges (trying
            # every Swap and Hammer costs a hundred hints, so not on every move)
            options += self._powerups(state, hint)
        best_action, best_score = options[0], -1
        for action in options:
            score = self._rollout(state, action)
            if score > best_score:
                best_action, best_score = action, score
        return best_action

    def _rollout(self, state: ChainState, action: str) -> int:
        """The score after ``action`` and then the hint's chains for the horizon."""
        rules = self.rules
        try:
            state = rules.apply(state, action).state
        except Refused:
            return -1
        for _merge in range(self.horizon):
            if rules.is_spent(state):
                break
            chain = best_chain(state.board)
            if chain is None:
                break
            state = rules.apply(state, chain_action(chain)).state
        return state.score

    def _powerups(self, state: ChainState, hint: Sequence[Cell]) -> list[str]:
        """The Swap and Hammer (while held) that most raise the next chain's tile."""
        board = state.board
        now = merge_value(sum(board[r][c] for r, c in hint))
        found: list[str] = []
        if state.held("swap"):
            best, pick = now, ""
            for a in CELLS:
                for b in NEIGHBOURS[a]:
                    if b <= a or board[a[0]][a[1]] == board[b[0]][b[1]]:
                        continue
                    grid = [list(row) for row in board]
                    grid[a[0]][a[1]], grid[b[0]][b[1]] = grid[b[0]][b[1]], grid[a[0]][a[1]]
                    value = _made(grid)
                    if value > best:
                        best, pick = value, f"swap {a[0]},{a[1]} {b[0]},{b[1]}"
            if pick:
                found.append(pick)
        if state.held("hammer"):
            best, pick = now, ""
            for cell in CELLS:
                after = self.rules.apply(state, f"hammer {cell[0]},{cell[1]}").state
                value = _made(after.board)
                if value > best:
                    best, pick = value, f"hammer {cell[0]},{cell[1]}"
            if pick:
                found.append(pick)
        return found

    def _rescue(self, state: ChainState) -> str | None:
        """On a stuck board: the first power-up that opens a chain, or None to stop."""
        rescues = self.rules.rescues(state)
        if "shuffle" in rescues:
            return "shuffle"
        if "swap" in rescues:
            for a in CELLS:
                for b in NEIGHBOURS[a]:
                    action = f"swap {a[0]},{a[1]} {b[0]},{b[1]}"
                    try:
                        after = self.rules.apply(state, action).state
                    except Refused:
                        continue
                    if best_chain(after.board) is not None:
                        return action
        if "hammer" in rescues:
            for cell in CELLS:
                action = f"hammer {cell[0]},{cell[1]}"
                if best_chain(self.rules.apply(state, action).state.board) is not None:
                    return action
        return None


def _made(board: Sequence[Sequence[int]]) -> int:
    """The tile the hint's chain would make on ``board`` (0 when stuck)."""
    chain = best_chain(board)
    return merge_value(sum(board[r][c] for r, c in chain)) if chain else 0


def autoplayer_for(rules: ChainRules) -> Callable[[int | None], Autoplayer]:
    """A mode's autoplayer factory (``--depth`` is the look-ahead in merges)."""

    def make(depth: int | None) -> Autoplayer:
        return ChainAutoplayer(rules, depth)

    return make
