"""Proofs: bits per action against the text log and naive encodings, and the time
to verify a 10,000-action 2048 game.

Games: 2048 by a corner player that, when stuck, takes back 20 moves and tries a random
one (so the log reaches 10,000 actions of real play, undo included); 2248 by its
autoplayer (long chains) and by a "short chain" player (the lowest touching pair, as a
person often plays); a plugin mode, the Fibonacci example, written as text (it has no
action coder) and with a ``LegalActions`` coder built from its rules. A proof's bits per
action are the payload's bits beyond the proof of the empty log (the mode, the code, the
check), divided by the actions. Goals: 2048 at most 2 bits a move; 2248 at most 30 bits a
chain on average; verifying the 10,000-action 2048 game at most 0.5 s on one core.

The curve: the corner game's first 10,000 to 200,000 actions, each written and verified
once (CPU seconds), as format 2 (in chunks, linear) and, up to ``--old-up-to`` actions, as
format 1 (one number, still read: the square of its length). Goal: 200,000 actions
verified in at most 2 s on one core.

    nice -n 19 .venv/bin/python benchmarks/bench_verify.py [--actions 10000] [--curve 200000]
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import time
from pathlib import Path

from twofold.core import plugins
from twofold.core._capabilities import LegalActions
from twofold.core._rules import Mode, Refused
from twofold.core.codes import code_from_text
from twofold.core.game import Game
from twofold.core.proof import _END, Proving, _kinds, proof_of, replay
from twofold.core.proof_line import line_of

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
CORNER = ("down", "left", "right", "up")
DIRECTIONS = ("left", "right", "up", "down")


def corner_game(mode: Mode, actions: int, seed: int = 1) -> Game:
    rng = random.Random(seed)
    game = Game.start(mode, code_from_text(f"bench verify {mode.id}"))
    while len(game.log) < actions:
        if game.over:
            for _undo in range(min(20, len(game.history))):
                game.act("undo")
            moves = [d for d in DIRECTIONS if mode.rules.apply(game.state, d).changed]
            game.act(rng.choice(moves))
            continue
        for word in CORNER:
            if mode.rules.apply(game.state, word).changed:
                game.act(word)
                break
    del game.log[actions:]
    return Game.replay(mode, game.code, game.log)


def chain_game(mode: Mode, chains: int, short: bool) -> Game:
    game = Game.start(mode, code_from_text(f"bench verify {mode.id} {short}"))
    autoplayer = mode.autoplayer(None) if mode.autoplayer else None
    while len(game.log) < chains and not game.over:
        action = short_chain(game.state.board) if short else autoplayer.choose(game.state)
        if action is None:
            break
        try:
            game.act(action)
        except Refused:
            break
    return game


def short_chain(board: tuple[tuple[int, ...], ...]) -> str | None:
    """The lowest pair of touching equal tiles, as a chain of two."""
    rows, cols = len(board), len(board[0])
    for r in reversed(range(rows)):
        for c in range(cols):
            for dr, dc in ((0, 1), (-1, 0), (-1, 1), (-1, -1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols and board[rr][cc] == board[r][c]:
                    return f"chain {r},{c} {rr},{cc}"
    return None


def payload_bits(mode: Mode, game: Game) -> float:
    whole = proof_of(mode, game.code, game.log)
    empty = proof_of(mode, game.code, [])
    return (len(whole) - len(empty)) * 5


def text_bits(game: Game) -> float:
    return sum(len(action.encode()) + 1 for action in game.log) * 8


def naive_bits(game: Game) -> float:
    """2048: two bits a move (three with undo possible); 2248: a cell (6 bits), then 3 bits a
    step (8 directions) and 5 for the length; anything else its text."""
    total = 0.0
    for action in game.log:
        if action in DIRECTIONS or action == "undo":
            total += 3 if "undo" in game.log else 2
        elif action.startswith("chain"):
            total += 6 + 3 * (len(action.split()) - 2) + 5
        else:
            total += (len(action) + 1) * 8
    return total


def row(name: str, mode: Mode, game: Game) -> None:
    count = len(game.log)
    bits = payload_bits(mode, game)
    print(
        f"{name:<34} {count:>7} {bits / count:>8.2f} {text_bits(game) / count:>8.1f} "
        f"{naive_bits(game) / count:>8.1f}"
    )


def fibonacci() -> tuple[Mode, Mode]:
    sys.path.insert(0, str(EXAMPLES / "twofold-fibonacci"))
    import twofold_fibonacci

    found = plugins.load([("fibonacci", twofold_fibonacci)], entry_points_=[])
    fib = found.mode("fib")

    def legal(state: object) -> list[str]:
        return [d for d in DIRECTIONS if fib.rules.apply(state, d).changed]

    return fib, dataclasses.replace(fib, proof=LegalActions(legal))


def format_1(mode: Mode, game: Game) -> str:
    """The game's proof in format 1 (one number), as twofold wrote it before format 2."""
    proving = Proving(mode, game.code)
    for action in game.log:
        proving.played(action)
    proving.writer.pick(_END, _kinds(proving.play, proving.coder, proving.counts))
    return line_of(format(proving.writer.number(), "b"), "1")


def curve(mode: Mode, most: int, old_up_to: int) -> None:
    """CPU seconds to write and verify the first N actions of one long corner game."""
    modes = plugins.registry()
    whole = corner_game(mode, most)
    print(f"{'actions':>8} {'symbols':>8} {'write':>8} {'verify':>8} {'format 1':>9}  (CPU s)")
    for count in (10_000, 25_000, 50_000, 100_000, 150_000, 200_000):
        if count > most:
            break
        log = whole.log[:count]
        started = time.process_time()
        text = proof_of(mode, whole.code, log)
        writing = time.process_time() - started
        started = time.process_time()
        assert replay(text, modes.modes.get, max_actions=most).actions == log
        reading = time.process_time() - started
        old = "-"
        if count <= old_up_to:
            prefix = Game.replay(mode, whole.code, log)
            old_text = format_1(mode, prefix)
            started = time.process_time()
            replay(old_text, modes.modes.get, max_actions=most)
            old = f"{time.process_time() - started:.2f}"
        print(f"{count:>8} {len(text):>8} {writing:>8.2f} {reading:>8.2f} {old:>9}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--curve", type=int, default=200_000, help="0: no curve")
    parser.add_argument("--old-up-to", type=int, default=50_000)
    args = parser.parse_args()
    modes = plugins.registry()
    if args.curve:
        curve(modes.mode("2048"), args.curve, args.old_up_to)
    print(f"{'game':<34} {'actions':>7} {'proof':>8} {'text':>8} {'naive':>8}  (bits/action)")
    slide = modes.mode("2048")
    long_game = corner_game(slide, args.actions)
    moves_only = [a for a in long_game.log if a != "undo"]
    row(f"2048, corner + undo ({long_game.log.count('undo')} undo)", slide, long_game)
    plain = corner_game(slide, 0)
    for word in moves_only:
        if plain.over:
            break
        if slide.rules.apply(plain.state, word).changed:
            plain.act(word)
    row("2048, corner, no undo", slide, plain)
    solver = slide.autoplayer(2)
    solved = Game.start(slide, code_from_text("bench verify solver"))
    while not solved.over and len(solved.log) < args.actions:
        solved.act(solver.choose(solved.state))
    row("2048, the solver (depth 2)", slide, solved)
    chain = modes.mode("2248")
    row("2248, autoplayer (long chains)", chain, chain_game(chain, 300, short=False))
    row("2248, shortest chains", chain, chain_game(chain, 300, short=True))
    fib, fib_coded = fibonacci()
    fib_game = corner_game(fib, 2000)
    row("fib (plugin), text", fib, fib_game)
    row("fib (plugin), LegalActions", fib_coded, fib_game)

    text = proof_of(slide, long_game.code, long_game.log)
    times = []
    for _run in range(args.repeat):
        started = time.process_time()
        again = replay(text, modes.modes.get)
        times.append(time.process_time() - started)
    assert again.actions == long_game.log
    started = time.process_time()
    proof_of(slide, long_game.code, long_game.log)
    writing = time.process_time() - started
    print(
        f"verify {len(long_game.log)} actions of 2048 ({len(text)} symbols): "
        f"median {statistics.median(times):.3f} s, best {min(times):.3f} s CPU "
        f"(goal 0.5 s); writing the proof {writing:.3f} s"
    )


if __name__ == "__main__":
    main()
