"""Verifying a result: replay its proof and check what its headline claims.

A pasted result is the headline, the link and the proof (:mod:`twofold.core.result`);
any of the first two may be missing, and the proof may be all there is. The proof is
replayed on its deal with no database and no network. What a replay proves: this log of
actions, played on that code, gives these figures (so the game was played on that deal,
by the rules of this version). What it cannot prove: who or what chose the actions; that
a proof claims no hints and no program is the player's word.

The stable API: :func:`verify` ``(text, find_mode=None, *, max_actions=...) -> Verified``,
raising :class:`~twofold.core.proof.ProofError` when the proof cannot be read.
``Verified.status`` is 0 when the figures are as claimed and 1 when the headline claims
others; :func:`as_dict` is the same as one JSON object.
"""

from __future__ import annotations

import gettext
import re
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any, TypeVar

from twofold.core._i18n import DOMAIN, LOCALE_DIR, _, available_languages
from twofold.core._rules import largest_tile
from twofold.core.codes import CodeError, parse_share
from twofold.core.daily import daily_code, utc_today
from twofold.core.plugins import registry
from twofold.core.proof import MAX_ACTIONS, FindMode, ProofError, Replayed, is_proof, replay
from twofold.core.result import HEADLINE_START, SEPARATOR
from twofold.core.result import headline as headline_of

#: the caps a leaderboard puts on a proof, which ``twofold verify`` takes by default too:
#: its actions, the CPU seconds its replay may take, and the bytes of the text sent
MOST_ACTIONS = 200_000
MOST_CPU_SECONDS = 5.0
MOST_BYTES = 512 * 1024
#: the first day a daily code is looked for on (none was dealt before twofold's)
FIRST_DAY = date(2024, 1, 1)
_NUMBER = re.compile(r"(\d[\d,.\u00a0\u202f']*)\s*$")
OK, CLAIMS_DIFFER = 0, 1
#: the most digits a headline's figure may have (no score comes near 10**30)
MOST_DIGITS = 30


_T = TypeVar("_T")


class TooLong(BaseException):
    """The CPU cap ran out (a BaseException: no ``except Exception`` of a mode or of the
    replay may swallow it)."""


def _cpu_cap_ran_out(_number: int, _frame: object) -> None:
    raise TooLong


def cpu_capped(seconds: float, work: Callable[..., _T], *args: Any, **named: Any) -> _T:
    """``work(*args)``, or :class:`TooLong` once it has taken ``seconds`` of this process's
    CPU (a profiling timer: only on the main thread, where Python runs signal handlers)."""
    if threading.current_thread() is not threading.main_thread():
        return work(*args, **named)
    previous = signal.signal(signal.SIGPROF, _cpu_cap_ran_out)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        return work(*args, **named)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


@dataclass
class Verified:
    """What a proof replays to, and whether a headline claimed the same."""

    replayed: Replayed
    day: date | None
    score: int
    largest: int
    moves: int
    #: what the headline claimed that the replay does not give, one line each
    differences: list[str] = field(default_factory=list)

    @property
    def status(self) -> int:
        return CLAIMS_DIFFER if self.differences else OK

    @property
    def mode_id(self) -> str:
        return self.replayed.mode.id

    @property
    def code(self) -> str:
        return self.replayed.code

    @property
    def played(self) -> str:
        return self.replayed.played

    @property
    def assisted(self) -> bool:
        return self.played != "unassisted"


def played_words(played: str) -> str:
    """How a game was played, as a person reads it."""
    return {
        "unassisted": _("unassisted"),
        "undo": _("with undo"),
        "hints": _("with hints"),
        "program": _("played by a program"),
    }[played]


def split_result(text: str) -> tuple[str | None, str | None, str]:
    """A pasted result as (headline, link, proof); the proof is every line from ``TF``."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    start = next((i for i, line in enumerate(lines) if is_proof(line)), None)
    if start is None:
        start = len(lines) - 1 if lines else 0
    proof = "".join(lines[start:])
    before = lines[:start]
    headline = next((line for line in before if line.lower().startswith(HEADLINE_START)), None)
    link = next((line for line in before if line is not headline), None)
    return headline, link, proof


def _stray_lines(text: str) -> None:
    """Refuse a line before the proof that is neither twofold's headline nor a game link
    (a first line "Score 999999" is not twofold's, and is never taken as a claim)."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    start = next((i for i, line in enumerate(lines) if is_proof(line)), len(lines) - 1)
    headlines = 0
    for line in lines[:start]:
        if line.lower().startswith(HEADLINE_START):
            headlines += 1
            if headlines == 1:
                continue
        else:
            try:
                parse_share(line.rsplit("game=", 1)[-1].replace("%2F", "/").replace("%2f", "/"))
                continue
            except CodeError:
                pass
        raise ProofError(
            _(
                "{line!r} is not a twofold headline or a game link: a result is the headline "
                "(it starts with 'twofold '), the link and the proof"
            ).format(line=line[:60])
        )


def day_of(mode_id: str, code: str, today: date | None = None) -> date | None:
    """The UTC day whose daily code of ``mode_id`` is ``code`` (up to tomorrow), or None."""
    day = (today or utc_today()) + timedelta(days=1)
    while day >= FIRST_DAY:
        if daily_code(mode_id, day) == code:
            return day
        day -= timedelta(days=1)
    return None


def verify(
    text: str,
    find_mode: FindMode | None = None,
    *,
    max_actions: int = MAX_ACTIONS,
    today: date | None = None,
) -> Verified:
    """Replay the proof in ``text`` (a whole result or its proof line) and check its claims."""
    headline, link, proof = split_result(text)
    _stray_lines(text)
    found: FindMode = find_mode or (lambda mode_id: registry().modes.get(mode_id.lower()))
    replayed = replay(proof, found, max_actions=max_actions)
    mode = replayed.mode
    day = None
    if mode.daily:
        day = day_of(mode.id, replayed.code, today)
        if day is None:
            raise ProofError(
                _("{code} is not a daily code of {mode}: the proof is of another game").format(
                    code=replayed.code, mode=mode.id
                )
            )
    if link is not None:
        _check_link(link, replayed)
    state = replayed.state
    verified = Verified(replayed, day, state.score, largest_tile(state.board), state.moves)
    if headline is not None:
        verified.differences = _differences(headline, verified)
    return verified


def _check_link(link: str, replayed: Replayed) -> None:
    share = link.rsplit("game=", 1)[-1].replace("%2F", "/").replace("%2f", "/")
    try:
        mode_id, code = parse_share(share)
    except CodeError:
        return  # not a link twofold wrote: nothing is claimed by it
    if (mode_id, code) != (replayed.mode.id.lower(), replayed.code):
        raise ProofError(
            _("the link names {link} but the proof is of {mode}/{code}").format(
                link=f"{mode_id}/{code}", mode=replayed.mode.id, code=replayed.code
            )
        )


def _claimed(headline: str) -> list[int]:
    """The numbers a headline ends its figures with: the score, the tile, then the rest."""
    _title, _sep, rest = headline.partition(": ")
    numbers = []
    for part in rest.split(" · "):
        match = _NUMBER.search(part.strip())
        if match:
            digits = re.sub(r"\D", "", match.group(1))
            if len(digits) > MOST_DIGITS:
                raise ProofError(_("the headline's figures are too long to be a score"))
            numbers.append(int(digits) if digits else -1)
    return numbers


def _titles(verified: Verified) -> set[str]:
    """A headline's title as twofold writes it for this game, in every language it has."""
    title = verified.replayed.mode.title
    msgid = getattr(title, "msgid", str(title))
    names = {str(title), msgid}
    for language in available_languages():
        catalog = gettext.translation(DOMAIN, LOCALE_DIR, languages=[language], fallback=True)
        names.add(catalog.gettext(msgid))
    day = f" {verified.day.isoformat()}" if verified.day is not None else ""
    return {f"{HEADLINE_START}{name}{day}" for name in names}


def _differences(headline: str, verified: Verified) -> list[str]:
    """What the headline states that the replay does not give: its title (the mode and the
    day), and every figure (the score, the largest tile, then the mode's own, as moves)."""
    replayed = verified.replayed
    expected = headline_of(replayed.mode, replayed.state, verified.day)
    if " ".join(headline.split()) == expected:
        return []
    found: list[str] = []
    title = " ".join(headline.partition(": ")[0].split())
    titles = _titles(verified)
    if title.lower() not in {name.lower() for name in titles}:
        found.append(
            _("the headline names {title!r}, the replay is of {expected!r}").format(
                title=title, expected=expected.partition(": ")[0]
            )
        )
    claimed, true = _claimed(headline), _claimed(expected)
    own = expected.partition(": ")[2].split(SEPARATOR)[2:]
    labels = [_("the score"), _("the largest tile")]
    labels += [part.rpartition(" ")[0].lower() or part for part in own]
    for name, said, value in zip(labels, claimed, true, strict=False):
        if said != value:
            found.append(
                _("the headline claims {claimed} for {what}, the replay gives {true}").format(
                    claimed=said, what=name, true=value
                )
            )
    if len(claimed) != len(true):
        found.append(
            _("the headline states {claimed} figures, the replay gives {true}: {expected}").format(
                claimed=len(claimed), true=len(true), expected=expected
            )
        )
    return found


def as_dict(verified: Verified) -> dict[str, Any]:
    """The verified figures as one JSON object (``twofold verify --json``)."""
    replayed = verified.replayed
    return {
        "verified": verified.status == OK,
        "mode": verified.mode_id,
        "title": replayed.mode.title,
        "code": verified.code,
        "day": verified.day.isoformat() if verified.day else None,
        "score": verified.score,
        "largest": verified.largest,
        "moves": verified.moves,
        "actions": len(replayed.actions),
        "undos": replayed.undos,
        "played": verified.played,
        "assisted": verified.assisted,
        "rules_version": replayed.version,
        "differences": list(verified.differences),
    }


def describe(verified: Verified) -> list[str]:
    """The verified figures as lines for a person (``twofold verify``)."""
    replayed = verified.replayed
    lines = [
        _("Mode: {title} ({mode})").format(title=replayed.mode.title, mode=verified.mode_id),
        _("Code: {code}").format(code=verified.code[:4] + "-" + verified.code[4:]),
    ]
    if verified.day is not None:
        lines.append(_("Day: {day}").format(day=verified.day.isoformat()))
    lines += [
        _("Score: {score}").format(score=verified.score),
        _("Largest tile: {largest}").format(largest=verified.largest),
        _("Moves: {moves}").format(moves=verified.moves),
        _("Played: {how}").format(how=played_words(verified.played)),
    ]
    return lines
