"""What ``play`` and ``daily`` resolve to: a mode by name and size, a code, a position file.

A position file is read only if it is a regular file of at most :data:`POSITION_LIMIT`
bytes, and a message never quotes more than a few hundred characters of it.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import stat
from typing import Any

from twofold.core import plugins
from twofold.core._i18n import _
from twofold.core._rules import Mode, PositionError
from twofold.core.codes import CodeError, is_share_string, parse_code, parse_share
from twofold.ui.command.usage import NUMBER_DIGITS, UsageError, cut

#: the largest position file read (bytes): a board is a few hundred
POSITION_LIMIT = 1_000_000


def resolve_mode(registry: plugins.Registry, name: str, size: int | None) -> Mode:
    """The mode a user means by ``name`` and ``--size``."""
    key = name.strip().lower()
    family = registry.family(key)
    if key not in registry.modes and not family:
        known = ", ".join(sorted(registry.modes)) or _("none")
        raise UsageError(
            _("unknown mode {name!r} (modes: {known})").format(name=cut(name, 60), known=known)
        )
    if size is None:
        if key in registry.modes:
            return registry.mode(key)
        return min(family, key=lambda m: m.size or 0)
    if not family:
        chosen = registry.mode(key)
        if chosen.size is not None and chosen.size != size:
            # a mode named with its size (2048-5x5) is not a family to choose from
            raise UsageError(
                _("mode {name} is {n}x{n}; --size {size} contradicts it").format(
                    name=chosen.id, n=chosen.size, size=size
                )
            )
    if key in registry.modes:
        base = registry.mode(key)
    else:
        base = next((m for m in family if not m.daily), family[0])
    # a size picks a board, not a daily board of the same size: only modes like the base
    choices = [
        m for m in registry.family(base.family) if m.size is not None and m.daily == base.daily
    ]
    for mode in choices:
        if mode.size == size:
            return mode
    if not choices:
        raise UsageError(_("mode {name!r} has no board sizes to choose").format(name=name))
    sizes = ", ".join(str(n) for n in sorted({m.size or 0 for m in choices}))
    raise UsageError(
        _("mode {name!r} has no {size}x{size} board (sizes: {sizes})").format(
            name=base.family, size=size, sizes=sizes
        )
    )


def _position_int(text: str) -> int:
    if len(text.lstrip("-")) > NUMBER_DIGITS:
        raise ValueError("too many digits")
    return int(text)


def _read_regular(path: str) -> bytes:
    """At most POSITION_LIMIT bytes of a regular file; UsageError for anything else."""
    shown = cut(path, 80)
    try:
        # non-blocking: a FIFO with no writer must not hang the open
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise UsageError(
            _("cannot read position file {path}: {reason}").format(
                path=shown, reason=error.strerror or error
            )
        ) from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise UsageError(_("position file {path} is not a regular file").format(path=shown))
        too_big = _("position file {path} is larger than {limit} bytes").format(
            path=shown, limit=POSITION_LIMIT
        )
        if info.st_size > POSITION_LIMIT:
            raise UsageError(too_big)
        chunks: list[bytes] = []
        size = 0
        while size <= POSITION_LIMIT:
            chunk = os.read(descriptor, POSITION_LIMIT + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > POSITION_LIMIT:
            raise UsageError(too_big)
        return b"".join(chunks)
    except OSError as error:
        raise UsageError(
            _("cannot read position file {path}: {reason}").format(
                path=shown, reason=error.strerror or error
            )
        ) from None
    finally:
        os.close(descriptor)


def read_position(path: str) -> dict[str, Any]:
    raw = _read_regular(path)
    shown = cut(path, 80)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UsageError(_("position file {path} is not UTF-8 text").format(path=shown)) from None
    try:
        data = json.loads(text, parse_int=_position_int)
    except json.JSONDecodeError as error:
        raise UsageError(
            _("position file {path} is not valid JSON (line {line}: {msg})").format(
                path=shown, line=error.lineno, msg=error.msg
            )
        ) from None
    except (ValueError, RecursionError):
        raise UsageError(
            _(
                "position file {path} is not a position (nested too deeply or a number too long)"
            ).format(path=shown)
        ) from None
    if not isinstance(data, dict) or "board" not in data:
        raise UsageError(
            _('position file {path} must hold an object with a "board"').format(path=shown)
        )
    return data


@dataclasses.dataclass(frozen=True)
class Choice:
    """What ``play`` (or ``daily``) resolved to."""

    mode: Mode
    code: str | None = None
    position: dict[str, Any] | None = None


def _names(registry: plugins.Registry, name: str, mode_id: str) -> bool:
    """Whether ``name`` (a mode id or a family) takes in the mode ``mode_id``."""
    key, wanted = name.strip().lower(), mode_id.strip().lower()
    return key == wanted or any(m.id.lower() == wanted for m in registry.family(key))


def choose(registry: plugins.Registry, args: argparse.Namespace) -> Choice:
    name: str = args.mode
    code: str | None = None
    try:
        if is_share_string(name):
            name, code = parse_share(name)
        if args.code is not None:
            if not args.code.strip():
                raise UsageError(_("--code is empty; leave it out for a random game"))
            if is_share_string(args.code):
                share_mode, share_code = parse_share(args.code)
                if not _names(registry, name, share_mode):
                    raise UsageError(
                        _("--code is a game of {a}, not of {b}").format(
                            a=cut(share_mode, 60), b=cut(name, 60)
                        )
                    )
                name = share_mode
            else:
                share_code = parse_code(args.code)
            if code is not None and share_code != code:
                raise UsageError(_("two different codes: {a} and {b}").format(a=code, b=share_code))
            code = share_code
    except CodeError as error:
        raise UsageError(cut(str(error))) from None
    mode = resolve_mode(registry, name, args.size)
    position = read_position(args.position) if args.position else None
    if position is not None:
        # check the position now, so a bad one is an error line rather than a new game
        try:
            mode.rules.from_position(position, code or "00000000")
        except (PositionError, ValueError, TypeError, KeyError, OverflowError) as error:
            raise UsageError(_("bad position: {reason}").format(reason=cut(str(error)))) from None
    return Choice(mode, code, position)
