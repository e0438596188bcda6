"""The top bar's words: each gauge a mode names, built-in (score, best, moves, code, clock)
or its own (``Status.gauges``)."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping

from twofold.core._i18n import _
from twofold.core._rules import Mode
from twofold.core.codes import format_code
from twofold.core.game import Game


def clock_text(seconds: float) -> str:
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def gauge_texts(
    mode: Mode, game: Game, own: Mapping[str, object], best: int
) -> Iterator[tuple[str, str]]:
    """``(gauge key, its words)`` for every gauge of ``mode``, in its order."""
    state = game.state
    for gauge in mode.gauges:
        key = gauge.key
        if key == "score":
            text = _("Score {score}").format(score=state.score)
        elif key == "best":
            text = _("Best {best}").format(best=best)
        elif key == "moves":
            text = _("Moves {moves}").format(moves=state.moves)
        elif key == "code":
            text = format_code(game.code)
            if game.flags.practice:
                text = _("{code} practice").format(code=text)
            elif game.flags.solver:  # the solver played it: it stopped counting
                text = _("{code} not counted").format(code=text)
        elif key == "clock":
            left = game.time_left
            text = _("Time {clock}").format(
                clock=clock_text(game.elapsed if left is None else left)
            )
        else:
            text = f"{gauge.label} {own.get(key, '')}".strip()
        yield key, text
