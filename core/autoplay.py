"""Whole games played by a mode's autoplayer (``twofold solve``, its workers, the benchmarks).

A game is a pure function of its mode, code, the autoplayer's ``--depth`` and where it
stops, so games spread over processes and machines and give the same results anywhere.
Autoplayer games are never recorded: they run on the rules directly, with no session.
"""

from __future__ import annotations

import contextlib
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from twofold.core._capabilities import Autoplayer
from twofold.core._rules import Mode, largest_tile
from twofold.core.codes import share_string
from twofold.core.proof import ProofError, proof_of
from twofold.core.result import headline
from twofold.core.verify import day_of

#: how many milestones past a mode's goal a summary reports (2048: 2048 up to 16384)
MILESTONE_STEPS = 4


@dataclass(frozen=True)
class PlayedGame:
    """One game an autoplayer played until it stopped (or reached ``stop_at``)."""

    code: str
    score: int
    largest: int
    moves: int
    #: CPU seconds of the game (the machine may be shared; wall time would not be ours)
    seconds: float
    #: the mode's own per-game numbers (``Rules.stats``), such as a 2248 game's longest chain
    stats: dict[str, int] = field(default_factory=dict)
    #: the game's result as Copy result gives it: headline, share string, proof
    text: str = ""

    def result(self) -> dict[str, Any]:
        """The game as JSON-ready data, without its timing (the same on every machine)."""
        return {
            "code": self.code,
            "score": self.score,
            "largest": self.largest,
            "moves": self.moves,
            **self.stats,
            **({"result": self.text} if self.text else {}),
        }


def play_out(
    mode: Mode,
    code: str,
    autoplayer: Autoplayer,
    stop_at: int | None = None,
    on_move: Callable[[Any], None] | None = None,
    prove: bool = False,
) -> PlayedGame:
    """Play the game of ``code`` until the autoplayer stops or a tile reaches ``stop_at``
    (``prove``: with its result text and proof, a replay's cost again)."""
    rules = mode.rules
    state = rules.new_game(code)
    actions: list[str] = []
    started = time.process_time()
    while stop_at is None or largest_tile(state.board) < stop_at:
        action = autoplayer.choose(state)
        if action is None:
            break
        outcome = rules.apply(state, action)
        if not outcome.changed:  # an autoplayer that repeats a no-op would never end
            break
        state = outcome.state
        actions.append(action)
        if on_move is not None:
            on_move(state)
    seconds = time.process_time() - started
    return PlayedGame(
        code,
        state.score,
        largest_tile(state.board),
        state.moves,
        seconds,
        dict(rules.stats(state)),
        played_result(mode, code, state, actions) if prove else "",
    )


def played_result(mode: Mode, code: str, state: Any, actions: Sequence[str]) -> str:
    """An autoplayer's game as a result: headline, share string and a proof saying so."""
    day = day_of(mode.id, code) if mode.daily else None
    lines = [headline(mode, state, day), share_string(mode.id, code)]
    # an autoplayer's action the rules took but a log would not keep: that game has no proof
    with contextlib.suppress(ProofError):
        lines.append(proof_of(mode, code, [rules_action(mode, a) for a in actions], program=True))
    return "\n".join(lines)


def rules_action(mode: Mode, action: str) -> str:
    """An action as a game's log keeps it (the rules' own spelling)."""
    return mode.rules.parse(action)


#: autoplayers of this process by (mode, depth): their caches warm up over the games
_autoplayers: dict[tuple[str, int | None], Autoplayer] = {}


def play_game(
    mode_id: str, code: str, depth: int | None, stop_at: int | None, prove: bool = False
) -> PlayedGame:
    """One game in a worker (a process or a Dask worker): the mode is looked up by its id."""
    from twofold.core.plugins import registry

    mode = registry().mode(mode_id)
    key = (mode.id, depth)
    autoplayer = _autoplayers.get(key)
    if autoplayer is None:
        if mode.autoplayer is None:
            raise ValueError(f"mode {mode_id!r} has no autoplayer")
        autoplayer = _autoplayers[key] = mode.autoplayer(depth)
    return play_out(mode, code, autoplayer, stop_at, prove=prove)


def milestones(mode: Mode) -> tuple[int, ...]:
    """The tiles whose share of games a summary reports: the goals the mode names, as its
    win dialog does (``goal``, then ``next_goal``); a power-of-two goal with no
    ``next_goal`` goes on doubling (2048: 2048 up to 16384), as its aim does."""
    goal = mode.goal
    if not goal:
        return ()
    if mode.next_goal is not None:
        return (goal, mode.next_goal)
    if mode.aim_after_goal() is None:
        return (goal,)  # no aim after the goal is named: the goal alone
    return tuple(goal << step for step in range(MILESTONE_STEPS))


def summarise(games: Sequence[PlayedGame], tiles: Sequence[int] = ()) -> dict[str, Any]:
    """Shares reaching each of ``tiles``, scores, largest tile, the mode's own numbers and
    moves per second of one game, as JSON-ready data."""
    count = len(games)
    scores = [g.score for g in games]
    moves = sum(g.moves for g in games)
    seconds = sum(g.seconds for g in games)
    keys = sorted({key for g in games for key in g.stats})
    return {
        "games": count,
        "reached": {
            str(tile): (sum(g.largest >= tile for g in games) / count if count else 0.0)
            for tile in tiles
        },
        "mean_score": statistics.fmean(scores) if scores else 0.0,
        "median_score": statistics.median(scores) if scores else 0.0,
        "largest": max((g.largest for g in games), default=0),
        "stats": {
            key: {
                "mean": statistics.fmean(g.stats.get(key, 0) for g in games),
                "best": max(g.stats.get(key, 0) for g in games),
            }
            for key in keys
        },
        "moves": moves,
        "seconds": seconds,
        # per game: each game runs on one core, however many run side by side
        "moves_per_second": moves / seconds if seconds else 0.0,
    }
