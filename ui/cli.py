"""The command line: ``twofold``, ``play``, ``daily``, ``plugins`` and friends.

Every mistake a user can make here (an unknown mode, an impossible size, a bad code,
an unreadable position file, a code or size that contradicts the mode) ends with one
line on stderr and exit status 2, quickly and whatever the input: a position file is
read only if it is a regular file of at most :data:`POSITION_LIMIT` bytes, and a
message never quotes more than a few hundred characters of it.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import stat
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from twofold.core import i18n, plugins
from twofold.core.codes import CodeError, is_share_string, parse_code, parse_share
from twofold.core.i18n import N_, _
from twofold.core.keeper import Store
from twofold.core.plugins import PluginFault
from twofold.core.rules import Mode, PositionError
from twofold.core.session import Session
from twofold.core.store import stored_language
from twofold.ui import argparse_language, completion

USAGE_ERROR = 2
#: the largest position file read (bytes): a board is a few hundred
POSITION_LIMIT = 1_000_000
#: the most digits of a whole number in a position file or an option
NUMBER_DIGITS = 18
#: the most characters of the user's input quoted in a message
QUOTE_LIMIT = 200


def cut(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` shortened for a message (input is never echoed back whole)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def small_int(text: str) -> int:
    """A whole number of at most NUMBER_DIGITS ASCII digits (an option's value)."""
    digits = text.strip()
    unsigned = digits[1:] if digits[:1] in ("+", "-") else digits
    if not (0 < len(unsigned) <= NUMBER_DIGITS and unsigned.isascii() and unsigned.isdigit()):
        raise argparse.ArgumentTypeError(
            _("invalid int value: {text!r}").format(text=cut(text, 40))
        )
    return int(digits)


class UsageError(Exception):
    """A mistake on the command line; the message is the one line shown."""


class Parser(argparse.ArgumentParser):
    """argparse, but a mistake is one line and exit status 2, never a usage dump."""

    def error(self, message: str) -> NoReturn:
        line = _("{prog}: {message} (see {prog} --help)").format(prog=self.prog, message=message)
        self.exit(USAGE_ERROR, line + "\n")


# -- choosing a mode -----------------------------------------------------------------------


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


# -- commands ------------------------------------------------------------------------------


def open_session(registry: plugins.Registry, mode: Mode) -> Session:
    from twofold.core.store import open_store

    store = open_store()
    opened: list[Session] = []
    early: list[str] = []

    def finished(result: Any) -> None:
        # a plugin's failing hook is said where the game is played, and the game is kept
        for problem in registry.notify_finished(mode.id, dataclasses.asdict(result)):
            if opened:
                opened[0].problem(str(problem))
            else:  # an earlier day's daily, recorded while the session opens
                early.append(str(problem))

    session = Session(mode, store, on_finished=finished, plugin=registry.owner(mode.id))
    opened.append(session)
    for problem in early:
        session.problem(problem)
    if store.notice:
        session.notice = " ".join(filter(None, [store.notice, session.notice]))
    return session


def start_game(registry: plugins.Registry, choice: Choice, args: argparse.Namespace) -> int:
    if not (args.json or args.plain):
        return app_here(choice.mode.id, code=choice.code, position=choice.position)
    from twofold.ui.lines import read_lines, run_lines

    session = open_session(registry, choice.mode)
    if choice.code is not None or choice.position is not None:
        session.new_game(choice.code, position=choice.position)
    # bytes, decoded a line at a time: one bad byte is one error reply, not the end
    stdin = read_lines(sys.stdin.buffer) if sys.stdin is not None else iter(())
    try:
        return run_lines(session, json_mode=args.json, stdin=stdin, stdout=sys.stdout)
    finally:
        close_store(session.store)


def close_store(store: Store) -> None:
    """Close the store; say on stderr if something could not be kept even at the end."""
    store.close()
    if store.pending:
        message = _(
            "progress could not be saved before the end ({reason}); "
            "what was played since the last save is lost"
        )
        reason = store.write_reason or "?"
        print("twofold: " + message.format(reason=reason), file=sys.stderr)


def cmd_play(args: argparse.Namespace) -> int:
    registry = plugins.registry()
    return start_game(registry, choose(registry, args), args)


def cmd_daily(args: argparse.Namespace) -> int:
    registry = plugins.registry()
    game = args.game.strip().lower()
    dailies = [m for m in registry.modes.values() if m.daily]
    for mode in dailies:
        if mode.id.lower() in (game, f"{game}-daily"):
            return start_game(registry, Choice(mode), args)
    known = ", ".join(sorted(m.id for m in dailies)) or _("none")
    message = _("there is no daily {game} mode (daily modes: {known})")
    raise UsageError(message.format(game=args.game, known=known))


def cmd_plugins(args: argparse.Namespace) -> int:
    registry = plugins.registry()
    for info in registry.plugins:
        origin = info.distribution or _("registered in code")
        modes = ", ".join(info.modes) or _("no modes")
        print(f"{info.name} ({origin}): {modes}")
    for problem in registry.problems:
        print(_("{plugin}: skipped: {reason}").format(plugin=problem.plugin, reason=problem.reason))
    for note in registry.notes:
        print(_("{plugin}: {reason}").format(plugin=note.plugin, reason=note.reason))
    return 0


def cmd_menu(args: argparse.Namespace) -> int:
    return app_here()


def app_here(mode_id: str | None = None, **start: Any) -> int:
    """Run the app on this terminal; with none, one line saying to use a line mode."""
    from twofold.ui.terminal import NO_TERMINAL, missing_terminal

    missing = missing_terminal()
    if missing is not None:
        print(missing, file=sys.stderr)
        return NO_TERMINAL
    from twofold.ui.app import run_app

    return run_app(mode_id, **start)


def add_line_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--plain", action="store_true", help=_("a line mode for screen readers"))
    group.add_argument("--json", action="store_true", help=_("a JSON line mode for programs"))


#: extra subcommands that live in their own modules: name -> (module, help)
EXTRA_COMMANDS: dict[str, tuple[str, str]] = {
    "stats": ("twofold.ui.stats_command", N_("records and statistics per mode")),
    "solve": ("twofold.ui.solve_command", N_("let a mode's autoplayer play games headless")),
    "serve": ("twofold.ui.serve_command", N_("play in a web browser (needs the web extra)")),
}


def build_parser() -> Parser:
    from twofold.core.store import HOME_VARIABLE, data_dir

    parser = Parser(
        prog="twofold",
        description=_("Power-of-two merge puzzles: sliding 2048 and chain-merging 2248."),
        epilog="\n".join(
            [
                _("Games, settings and records are kept in {folder}").format(folder=data_dir()),
                _("(set {variable} to keep them in another folder).").format(
                    variable=HOME_VARIABLE
                ),
            ]
        ),
        # the epilog's lines as written: a folder's path is never broken at a hyphen
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version",
        action=VersionAction,
        help=_("show the version, Python, the compiled search and the data folder"),
    )
    sub = parser.add_subparsers(dest="command", parser_class=Parser, metavar=_("COMMAND"))

    play = sub.add_parser("play", help=_("play a mode (or a shared game MODE/CODE)"))
    completion.complete_modes(
        play.add_argument(
            "mode", metavar=_("MODE"), help=_("a mode such as 2048 or 2248, or MODE/CODE")
        )
    )
    play.add_argument(
        "--size", type=small_int, metavar=_("N"), help=_("board size, for modes that have sizes")
    )
    play.add_argument("--code", metavar=_("CODE"), help=_("a game code, or a share string"))
    play.add_argument("--position", metavar=_("FILE"), help=_("start from a board in a JSON file"))
    add_line_flags(play)
    play.set_defaults(run=cmd_play)

    daily = sub.add_parser("daily", help=_("today's daily game"))
    daily.add_argument(
        "game",
        nargs="?",
        default="2248",
        metavar=_("GAME"),
        help=_("2048, 2248 or a plugin's daily game (default 2248)"),
    ).completer = completion.daily_games  # type: ignore[attr-defined]
    add_line_flags(daily)
    daily.set_defaults(run=cmd_daily)

    listing = sub.add_parser("plugins", help=_("the installed variants and any that failed"))
    listing.set_defaults(run=cmd_plugins)

    for name, (module_name, help_text) in EXTRA_COMMANDS.items():
        module = __import__(module_name, fromlist=["configure", "run"])
        extra = sub.add_parser(name, help=_(help_text))
        module.configure(extra)
        extra.set_defaults(run=module.run)
    parser.set_defaults(run=cmd_menu)
    return parser


class VersionAction(argparse.Action):
    """``--version``: what is installed and where the data lives (see ``twofold.ui.about``)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *_args: Any, **_kwargs: Any) -> None:
        from twofold.ui.about import version_text

        print(version_text(plugins.registry()))
        parser.exit(0)


def main(argv: Sequence[str] | None = None) -> int:
    # --help speaks the stored language too, read before any store opens
    i18n.read_language_with(stored_language)
    argparse_language.install()
    parser = build_parser()
    completion.enable(parser)
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except UsageError as error:
        print(f"twofold: {error}", file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (| head): stop quietly, the game is saved
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except PluginFault as fault:  # a plugin's bug: its game is kept as it was
        print(f"twofold: {fault}", file=sys.stderr)
        return 1
    except Exception as error:  # a user never sees a traceback: one line, details in a file
        details = crash_report()
        print(
            "twofold: "
            + _("unexpected error: {error} ({details})").format(error=error, details=details),
            file=sys.stderr,
        )
        return 1


def crash_report() -> str:
    """Write the current traceback beside the database and say where."""
    import traceback

    try:
        from twofold.core.store import data_dir

        path = data_dir() / "crash.log"
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        # the player's own file: never followed through a link, never readable by others
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
        with os.fdopen(os.open(path, flags, 0o600), "a", encoding="utf-8") as log:
            traceback.print_exc(file=log)
        return _("details in {path}").format(path=path)
    except Exception:
        return _("no details could be written")


if __name__ == "__main__":
    sys.exit(main())
