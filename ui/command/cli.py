"""The command line: ``twofold``, ``play``, ``daily``, ``plugins`` and friends.

Every mistake a user can make here (an unknown mode, an impossible size, a bad code,
an unreadable position file, a code or size that contradicts the mode) ends with one
line on stderr and exit status 2, quickly and whatever the input: a position file is
read only if it is a regular file of at most :data:`.choosing.POSITION_LIMIT` bytes, and a
message never quotes more than a few hundred characters of it.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from twofold.core import _i18n as i18n
from twofold.core import plugins
from twofold.core._i18n import N_, _
from twofold.core._rules import Mode
from twofold.core.plugins import PluginFault
from twofold.core.session import Session
from twofold.core.storage import Store
from twofold.core.store import stored_language
from twofold.ui.command import argparse_language, completion
from twofold.ui.command.choice import Choice, choose, resolve_mode
from twofold.ui.command.usage import USAGE_ERROR, Parser, UsageError, small_int

__all__ = ["UsageError", "build_parser", "crash_report", "main", "open_session", "resolve_mode"]


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
    from twofold.ui.app.terminal import NO_TERMINAL, missing_terminal

    missing = missing_terminal()
    if missing is not None:
        print(missing, file=sys.stderr)
        return NO_TERMINAL
    from twofold.ui.app.app import run_app

    return run_app(mode_id, **start)


def add_line_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--plain", action="store_true", help=_("a line mode for screen readers"))
    group.add_argument("--json", action="store_true", help=_("a JSON line mode for programs"))


#: extra subcommands that live in their own modules: name -> (module, help)
EXTRA_COMMANDS: dict[str, tuple[str, str]] = {
    "stats": ("twofold.ui.command.stats", N_("records and statistics per mode")),
    "solve": ("twofold.ui.command.solve", N_("let a mode's autoplayer play games headless")),
    "serve": ("twofold.ui.command.serve", N_("play in a web browser (needs the web extra)")),
    "verify": ("twofold.ui.command.verify", N_("replay a result's proof and check its figures")),
    "submit": ("twofold.ui.command.submit", N_("send a result to a leaderboard")),
    "leaderboard": (
        "twofold.ui.command.leaderboard",
        N_("run a leaderboard of verified results (needs the web extra)"),
    ),
}


def build_parser() -> Parser:
    from twofold.core.store import HOME_VARIABLE
    from twofold.core.store.files import data_dir

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
    """``--version``: what is installed and where the data lives (see :mod:`.about`)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *_args: Any, **_kwargs: Any) -> None:
        from twofold.ui.command.about import version_text

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
        from twofold.core.store.files import data_dir

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
