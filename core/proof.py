"""Proofs: a game's whole log as one short line anyone can replay.

A proof names the mode, the game code and the rules version, says how the game was
played (with hints, or by a program), and holds every action of the log, ``undo``
included. It is written in the game codes' alphabet (Crockford's base32, read as codes
are: case-insensitive, ``I``/``L`` as ``1``, ``O`` as ``0``, hyphens and spaces ignored):
``TF``, the format symbol ``1``, the payload, and six check symbols (30 bits of
BLAKE2b over the rest, :mod:`twofold.core.proof_line`), so a typo or a cut-off proof is
refused rather than misread.

The payload is one range-coded number (rANS on Python's integers, so it is exact):
every field is a choice among weighted options, and an option costs about
``log2(total / weight)`` bits. An action is a mode's own choices when the mode offers an
:class:`~twofold.core._capabilities.ActionCoder` (``Mode.proof``: 2048 ranks a move among
the legal ones, under two bits; 2248 walks a chain cell by cell), and otherwise its text,
an action seen before costing only its index. A game is replayed from the proof alone.

The stable API (the command line, the leaderboard and the learning environment use it):

- :func:`proof_of` ``(mode, code, actions, *, hinted=False, program=False) -> str``:
  the proof line of a game's log (``Game.log``);
- :func:`replay` ``(text, find_mode, *, max_actions=...) -> Replayed``: the game a proof
  holds, replayed, or :class:`ProofError` with a one-line reason.

:mod:`twofold.core.verify` reads a whole pasted result and checks its headline.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from twofold.core._capabilities import ActionCoder, LegalActions
from twofold.core._i18n import _
from twofold.core._rules import Mode, Refused
from twofold.core.choices import (
    ChunkReader,
    Reader,
    Texts,
    Writer,
    read_id,
    read_number,
    write_id,
    write_number,
)
from twofold.core.codes import CODE_COUNT, code_from_number, code_number
from twofold.core.game import UNDO, undo_depth
from twofold.core.proof_line import ProofError, is_proof, line_of, normalise, payload_of

#: the most actions a proof is replayed to, unless the caller says otherwise
MAX_ACTIONS = 1_000_000
#: the kinds of step in the log: a mode's own choices, undo, an action as text, the end
_ACTION, _UNDO, _TEXT, _END = range(4)
FindMode = Callable[[str], Mode | None]
#: an action's state after it, not given: the action is played
_UNPLAYED: Any = object()


# -- the game, replayed --------------------------------------------------------------------


@dataclass
class Replayed:
    """The game a proof holds, replayed: the mode, the code, the final state, the log."""

    mode: Mode
    code: str
    state: Any
    actions: list[str]
    #: the rules version the proof names (0: written without the mode's action coder)
    version: int
    hinted: bool = False
    program: bool = False

    @property
    def undos(self) -> int:
        return sum(1 for action in self.actions if action == UNDO)

    @property
    def played(self) -> str:
        """How the game was played: ``program``, ``hints``, ``undo`` or ``unassisted``."""
        if self.program:
            return "program"
        if self.hinted:
            return "hints"
        return "undo" if self.undos else "unassisted"


class _Play:
    """A game played forward with the rules alone: the state and undo's history."""

    def __init__(self, mode: Mode, code: str, coder: ActionCoder | None) -> None:
        self.mode = mode
        self.rules = mode.rules
        self.state = mode.rules.new_game(code)
        self.history: deque[Any] = deque(maxlen=undo_depth(mode))
        self.advance = getattr(coder, "advance", None)

    def step(self, action: str) -> str:
        """Play one action; return it as the log keeps it. Refused if it changes nothing."""
        action = self.rules.parse(action)
        if action == UNDO:
            if not self.history:
                raise Refused(_("nothing to undo"))
            self.state = self.rules.undo(self.history[-1], self.state)
            self.history.pop()
            return action
        return self._played(action)

    def known(self, action: str, after: Any) -> None:
        """Take ``after`` as the state ``action`` (as the log keeps it) gave: it was played
        by these rules already, so it is not played again."""
        if action == UNDO:
            self.history.pop()
        elif self.history.maxlen:
            self.history.append(self.state)
        self.state = after

    def _played(self, action: str) -> str:
        if self.advance is not None:
            after = self.advance(self.state, action)
            if after == self.state:
                raise Refused(_("changed nothing"))
        else:
            outcome = self.rules.apply(self.state, action)
            if not outcome.changed:
                raise Refused(_("changed nothing"))
            after = outcome.state
        if self.history.maxlen:
            self.history.append(self.state)
        self.state = after
        return action


def _kinds(play: _Play, coder: ActionCoder | None, counts: list[int]) -> list[int]:
    """The weights of the next step's kinds, from how often each has come so far."""
    return [
        counts[_ACTION] + 1 if coder is not None else 0,
        counts[_UNDO] + 1 if play.history else 0,
        counts[_TEXT] + 1,
        1,
    ]


#: each proof coder met, by identity, with whether it is an ActionCoder (a Protocol's
#: isinstance reads its attributes, tens of microseconds: a learning env resets often)
_CODERS: dict[int, tuple[object, bool]] = {}


def _coder(mode: Mode) -> ActionCoder | None:
    coder = mode.proof
    known = _CODERS.get(id(coder))
    if known is None or known[0] is not coder:
        if len(_CODERS) >= 256:
            _CODERS.clear()
        known = _CODERS[id(coder)] = (coder, isinstance(coder, ActionCoder))
    return coder if known[1] else None  # type: ignore[return-value]


# -- writing -------------------------------------------------------------------------------


def proof_of(
    mode: Mode,
    code: str,
    actions: Iterable[str],
    *,
    hinted: bool = False,
    program: bool = False,
    states: Sequence[Any] | None = None,
) -> str:
    """The proof line of the game ``actions`` (a ``Game.log``) make on ``code`` in ``mode``.

    ``states``, where given, holds the state after each action as these rules played it:
    the proof is then written without playing the game again (see :class:`Proving`).
    Raises :class:`ProofError` when the log does not replay.
    """
    proving = Proving(mode, code, hinted=hinted, program=program)
    steps = (
        zip(actions, states, strict=True)
        if states is not None
        else ((action, _UNPLAYED) for action in actions)
    )
    for number, (action, after) in enumerate(steps, start=1):
        try:
            proving.played(action, after)
        except (Refused, ValueError) as refusal:
            raise ProofError(
                _("action {number} ({action!r}) does not replay: {reason}").format(
                    number=number, action=action, reason=refusal
                )
            ) from None
    return proving.line()


class Proving:
    """A proof written as its game is played (the learning environment's, one step at a
    time): :meth:`played` takes each action of the log, with the state after it as these
    rules played it (or plays it, given none); :meth:`line` is the proof of the game so far.
    """

    def __init__(self, mode: Mode, code: str, *, hinted: bool = False, program: bool = False):
        self.coder = _coder(mode)
        self.writer = writer = Writer()
        write_id(writer, mode.id)
        writer.uniform(code_number(code), CODE_COUNT)
        writer.uniform(int(self.coder is not None), 2)
        write_number(writer, self.coder.version if self.coder is not None else 0)
        writer.uniform(int(hinted), 2)
        writer.uniform(int(program), 2)
        self.play, self.texts, self.counts = _Play(mode, code, self.coder), Texts(), [0, 0, 0, 0]
        #: a plain LegalActions' legal: an action is its rank, written here with no lists made
        coder = self.coder
        self.ranks = (
            coder.legal
            if isinstance(coder, LegalActions) and type(coder).encode is LegalActions.encode
            else None
        )

    def copy(self) -> Proving:
        twin = Proving.__new__(Proving)
        twin.coder, twin.writer, twin.ranks = self.coder, Writer(), self.ranks
        twin.writer.choices = list(self.writer.choices)
        twin.play = _Play.__new__(_Play)
        twin.play.__dict__.update(self.play.__dict__)
        twin.play.history = self.play.history.copy()
        twin.texts = Texts()
        twin.texts.seen, twin.texts.uses = list(self.texts.seen), list(self.texts.uses)
        twin.texts.index = dict(self.texts.index)
        twin.counts = list(self.counts)
        return twin

    def played(self, action: str, after: Any = _UNPLAYED) -> None:
        """The next action of the log; Refused (or ValueError) if it does not replay."""
        if self.ranks is not None and after is not _UNPLAYED and action != UNDO:
            play, counts = self.play, self.counts
            legal = self.ranks(play.state)
            if action in legal:
                # the choices _write_action makes: the kind _ACTION, then the rank, uniform
                weights = counts[_ACTION] + 1
                total = weights + (counts[_UNDO] + 1 if play.history else 0) + counts[_TEXT] + 2
                choices = self.writer.choices
                choices.append((0, weights, total))
                choices.append((legal.index(action), 1, len(legal)))
                counts[_ACTION] = weights
                play.known(action, after)
                return
        _write_action(self.writer, self.play, self.coder, self.texts, self.counts, action, after)

    def line(self) -> str:
        choices = self.writer.choices
        self.writer.pick(_END, _kinds(self.play, self.coder, self.counts))
        try:
            return line_of("1" + self.writer.bits())
        finally:
            choices.pop()  # the game may go on


def _write_action(
    writer: Writer,
    play: _Play,
    coder: ActionCoder | None,
    texts: Texts,
    counts: list[int],
    action: str,
    after: Any = _UNPLAYED,
) -> None:
    weights = _kinds(play, coder, counts)
    choices = None
    if action == UNDO:
        kind = _UNDO
    else:
        choices = coder.encode(play.state, action) if coder is not None else None
        kind = _TEXT if choices is None else _ACTION
    writer.pick(kind, weights)
    counts[kind] += 1
    if kind == _TEXT:
        texts.write(writer, action)
    for index, options in choices or ():
        writer.pick(index, options)
    if after is _UNPLAYED:
        play.step(action)
    else:
        play.known(action, after)


# -- reading -------------------------------------------------------------------------------


def replay(text: str, find_mode: FindMode, *, max_actions: int = MAX_ACTIONS) -> Replayed:
    """The game the proof ``text`` holds, replayed with the rules of ``find_mode(id)``.

    Raises :class:`ProofError` (one line) when the proof cannot be read: a bad check, an
    unknown mode or rules version, an action its rules refuse, more than ``max_actions``.
    """
    form, bits = payload_of(text)
    if form == "1":
        reader = Reader(int(bits or "0", 2))
    elif bits.startswith("1"):
        reader = ChunkReader(bits[1:])
    else:
        raise ProofError(_("the proof cannot be read"))
    try:
        mode_id = read_id(reader)
        code = code_from_number(reader.uniform(CODE_COUNT))
        compact = bool(reader.uniform(2))
        version = read_number(reader, 1 << 30)
        hinted, program = bool(reader.uniform(2)), bool(reader.uniform(2))
    except (ValueError, UnicodeDecodeError):
        raise ProofError(_("the proof cannot be read")) from None
    mode = find_mode(mode_id)
    if mode is None:
        raise ProofError(
            _("the mode {mode!r} is not installed here (its plugin is missing)").format(
                mode=mode_id
            )
        )
    coder = _coder(mode) if compact else None
    _check_version(mode, compact, version)
    try:
        play = _Play(mode, code, coder)
        actions = _read_actions(reader, play, coder, max_actions)
    except ProofError:
        raise
    except Exception as error:  # a plugin's fault, or data its coder did not write
        raise ProofError(
            _("the proof does not replay in {mode}: {error}").format(mode=mode.id, error=error)
        ) from None
    if not reader.finished():
        raise ProofError(_("the proof cannot be read: it goes on past the end of the game"))
    return Replayed(mode, code, play.state, actions, version, hinted, program)


def _check_version(mode: Mode, compact: bool, version: int) -> None:
    coder = _coder(mode)
    if not compact:
        return
    if coder is None:
        raise ProofError(
            _("this proof needs {mode}'s action coder, which this install lacks").format(
                mode=mode.id
            )
        )
    if version > coder.version:
        raise ProofError(
            _(
                "this proof is of a newer version of {mode}'s rules ({version}; this twofold "
                "has {mine}): update twofold or the plugin"
            ).format(mode=mode.id, version=version, mine=coder.version)
        )
    if version != coder.version:
        raise ProofError(
            _(
                "this proof is of version {version} of {mode}'s rules, which this twofold "
                "no longer replays (it has {mine})"
            ).format(mode=mode.id, version=version, mine=coder.version)
        )


def _read_actions(
    reader: Reader, play: _Play, coder: ActionCoder | None, max_actions: int
) -> list[str]:
    texts, counts, actions = Texts(), [0, 0, 0, 0], []
    # a plain LegalActions' action is its rank: read with no lists made, played with no parse
    ranks = (
        coder.legal
        if isinstance(coder, LegalActions) and type(coder).decode is LegalActions.decode
        else None
    )
    while True:
        kind = reader.pick(_kinds(play, coder, counts))
        if kind == _END:
            return actions
        if len(actions) >= max_actions:
            raise ProofError(_("the proof has more than {count} actions").format(count=max_actions))
        counts[kind] += 1
        if kind == _UNDO:
            action = UNDO
        elif kind == _TEXT:
            action = texts.read(reader)
        elif ranks is not None:
            legal = ranks(play.state)
            if not legal:
                raise ValueError("no action is legal here")
            action = legal[reader.uniform(len(legal))]
            if play.advance is not None:
                after = play.advance(play.state, action)
                if after != play.state:
                    play.known(action, after)
                    actions.append(action)
                    continue
        else:
            assert coder is not None  # weight 0 without one
            action = coder.decode(play.state, reader.pick)
        try:
            actions.append(play.step(action))
        except Refused as refusal:
            raise ProofError(
                _("action {number} ({action!r}) is not allowed there: {reason}").format(
                    number=len(actions) + 1, action=action, reason=refusal
                )
            ) from None


def game_key(replayed: Replayed) -> str:
    """One game's identity, whatever proof holds it: the mode, the code and the log."""
    log = "\n".join([replayed.mode.id, replayed.code, *replayed.actions])
    return hashlib.sha256(log.encode("utf-8")).hexdigest()


__all__: Sequence[str] = (
    "MAX_ACTIONS",
    "FindMode",
    "ProofError",
    "Replayed",
    "game_key",
    "is_proof",
    "normalise",
    "proof_of",
    "replay",
)
