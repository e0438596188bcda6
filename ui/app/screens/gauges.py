"""The top bar's words: each gauge a mode names, built-in (score, best, moves, code, clock)
or its own (``Status.gauges``), from the values the game screen holds in its reactives."""

from __future__ import annotations

import math
from collections.abc import Mapping

from twofold.core._i18n import _
from twofold.core._rules import Mode
from twofold.core.codes import format_code
from twofold.core.game import Game


def clock_text(seconds: float) -> str:
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def clock_seconds(game: Game) -> int:
    """The whole seconds the clock shows: those left in a timed game, else those played."""
    left = game.time_left
    return max(0, math.ceil(game.elapsed if left is None else left))


def code_words(game: Game) -> str:
    """The game's code, and whether it is practice or no longer counted."""
    text = format_code(game.code)
    if game.flags.practice:
        return _("{code} practice").format(code=text)
    if game.flags.solver:  # the solver played it: it stopped counting
        return _("{code} not counted").format(code=text)
    return text


def gauge_texts(
    mode: Mode,
    *,
    score: int,
    best: int,
    moves: int,
    code: str,
    clock: int,
    own: Mapping[str, object],
) -> tuple[tuple[str, str], ...]:
    """``(gauge key, its words)`` for every gauge of ``mode``, in its order."""
    texts = []
    for gauge in mode.gauges:
        key = gauge.key
        if key == "score":
            text = _("Score {score}").format(score=score)
        elif key == "best":
            text = _("Best {best}").format(best=best)
        elif key == "moves":
            text = _("Moves {moves}").format(moves=moves)
        elif key == "code":
            text = code
        elif key == "clock":
            text = _("Time {clock}").format(clock=clock_text(clock))
        else:
            text = f"{gauge.label} {own.get(key, '')}".strip()
        texts.append((key, text))
    return tuple(texts)
