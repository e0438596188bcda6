"""Verifying submissions in worker processes, with caps, never on the server's event loop.

A proof is replayed by the installed modes' rules only (a plugin mode verifies only where
that plugin is installed): nothing from a submission is ever run. Each proof may take at
most :data:`MAX_ACTIONS` actions and :data:`CPU_SECONDS` seconds of one worker's CPU (a
profiling timer in the worker stops it); a worker that dies is replaced.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from twofold.core._i18n import _
from twofold.core.game import Game
from twofold.core.proof import ProofError, Replayed, game_key, normalise, replay
from twofold.core.verify import (
    MOST_ACTIONS,
    MOST_CPU_SECONDS,
    TooLong,
    cpu_capped,
    split_result,
    verify,
)
from twofold.leaderboard.announcements import step_words

#: the most actions one proof may hold, and the CPU seconds it may take to replay
MAX_ACTIONS = MOST_ACTIONS
CPU_SECONDS = MOST_CPU_SECONDS
#: the most states a replay page is sent
MAX_FRAMES = 20_000
#: the fewest actions two games share for the shorter to be the longer one's start: fewer
#: are an opening many players play (were one move enough, four one-move games sent at
#: midnight would own every game of the day)
MIN_SHARED = 16


@dataclass(frozen=True)
class Checked:
    """What a worker made of a submission: the figures, or why it is refused."""

    error: str | None = None
    figures: dict[str, Any] | None = None


def _end_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)  # the server is gone (even by kill -9): no one waits for this worker's answer


def _start_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # ctrl+c is the server's to handle
    threading.Thread(target=_end_with, args=(os.getppid(),), daemon=True).start()
    from twofold.core.plugins import registry

    registry()  # the modes load once per worker, not once per proof


def _capped(work: Any, *args: Any) -> Any:
    return cpu_capped(CPU_SECONDS, work, *args)


def check(text: str) -> Checked:
    """Verify one submitted result (in a worker); its figures, or the reason in one line."""
    try:
        return _capped(_check, text)
    except TooLong:
        return Checked(
            _("the proof took more than {seconds:g} s to replay").format(seconds=CPU_SECONDS)
        )


def checkpoints(replayed: Replayed) -> list[str]:
    """Keys of the game's first 16, 32, 64, … actions (with its mode, code and rules
    version): two games of which one starts the other share the key of the shorter's
    longest such start, so a board finds the games a proof may be the same game as."""
    digest = hashlib.sha256(f"{replayed.mode.id}\n{replayed.code}\n{replayed.version}".encode())
    keys, length = [], MIN_SHARED
    for number, action in enumerate(replayed.actions, start=1):
        digest.update(b"\n" + action.encode("utf-8"))
        if number == length:
            keys.append(digest.hexdigest())
            length *= 2
    return keys


def _start_keys(replayed: Replayed, lengths: set[int]) -> dict[int, str]:
    """The ``game_key`` of the game's first N actions, for each N of ``lengths``."""
    digest = hashlib.sha256(f"{replayed.mode.id}\n{replayed.code}".encode())
    found = {0: digest.hexdigest()} if 0 in lengths else {}
    for number, action in enumerate(replayed.actions, start=1):
        digest.update(b"\n" + action.encode("utf-8"))
        if number in lengths:
            found[number] = digest.hexdigest()
    return found


def same_game(text: str, stored: list[tuple[int, int, str, str]]) -> int | None:
    """The first of the ``stored`` games (id, actions, game key, proof) that the game of
    ``text`` starts or is started by, sharing at least :data:`MIN_SHARED` actions; None
    if it is none of them, or if telling took more than the CPU cap (in a worker)."""
    try:
        return _capped(_same_game, text, stored)
    except (TooLong, ProofError):
        return None


def _same_game(text: str, stored: list[tuple[int, int, str, str]]) -> int | None:
    mine = verify(text, max_actions=MAX_ACTIONS).replayed
    count = len(mine.actions)
    starts = _start_keys(mine, {length for _id, length, _key, _proof in stored})
    from twofold.core.plugins import registry

    for entry_id, length, key, proof in sorted(stored):
        if min(length, count) < MIN_SHARED:
            continue
        if length <= count:
            if starts.get(length) == key:
                return entry_id
            continue
        theirs = replay(proof, registry().modes.get, max_actions=MAX_ACTIONS)
        if theirs.mode.id == mine.mode.id and theirs.actions[:count] == mine.actions:
            return entry_id
    return None


def _check(text: str) -> Checked:
    try:
        verified = verify(text, max_actions=MAX_ACTIONS)
    except ProofError as error:
        return Checked(str(error))
    except RecursionError:
        return Checked(_("the proof cannot be read"))
    if verified.differences:
        return Checked(verified.differences[0])
    replayed = verified.replayed
    return Checked(
        figures={
            "game_key": game_key(replayed),
            "mode": verified.mode_id,
            "code": verified.code,
            "day": verified.day.isoformat() if verified.day else None,
            "score": verified.score,
            "largest": verified.largest,
            "moves": verified.moves,
            "played": verified.played,
            "assisted": verified.assisted,
            "proof": normalise(split_result(text)[2]),
            "actions": len(replayed.actions),
            "checkpoints": tuple(checkpoints(replayed)),
            "replay": packed_frames(replayed),
        }
    )


def frames_of(replayed: Replayed) -> dict[str, Any]:
    """Every board of a replayed game (its first :data:`MAX_FRAMES` actions), with what each
    action did: its events (as the JSON protocol gives them, for the page to move the
    tiles as the app does) and its words (the app's announcement)."""
    mode = replayed.mode
    game = Game.start(mode, replayed.code, clock=lambda: 0.0)
    boards = [[list(row) for row in game.state.board]]
    scores = [game.state.score]
    events: list[list[dict[str, Any]]] = []
    words: list[str] = []
    for action in replayed.actions[:MAX_FRAMES]:
        step = game.act(action)
        boards.append([list(row) for row in game.state.board])
        scores.append(game.state.score)
        events.append([event.as_dict() for event in step.events])
        words.append(step_words(mode, step))
    return {
        "mode": mode.id,
        "title": mode.title,
        "code": replayed.code,
        "controls": mode.controls,
        "actions": replayed.actions[:MAX_FRAMES],
        "boards": boards,
        "scores": scores,
        "events": events,
        "words": words,
        "cut": len(replayed.actions) > MAX_FRAMES,
    }


def packed_frames(replayed: Replayed) -> bytes:
    """A game's replay as the server sends it, made once when its entry is accepted: the
    JSON of :func:`frames_of`, gzipped (a 20,000-step replay of 2048 is some 1 MB of JSON)."""
    frames = json.dumps(frames_of(replayed), separators=(",", ":")).encode("utf-8")
    return gzip.compress(frames, compresslevel=6, mtime=0)


class Checker:
    """A pool of worker processes that verify proofs; a broken pool is started again."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        # spawn: the server runs threads, and forking a threaded process can hang
        return ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
        )

    async def run(self, work: Any, *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, work, *args)
        except BrokenProcessPool:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()
            return Checked(_("the proof could not be checked: its worker stopped"))

    async def check(self, text: str) -> Checked:
        return await self.run(check, text)

    async def same_game(self, text: str, stored: list[tuple[int, int, str, str]]) -> int | None:
        found = await self.run(same_game, text, stored)
        return found if isinstance(found, int) else None

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
