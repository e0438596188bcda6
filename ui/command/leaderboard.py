"""``twofold leaderboard [--host H] [--port P] [--database URL] [--allow-host NAME]``.

A web service of boards of verified results (see docs/leaderboard.md): SQLite in the data
folder by default, ``--database postgresql://…`` for several servers sharing one database.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import logging
import os
import signal
import sys

from twofold.core._i18n import _
from twofold.ui.command.serve import (
    ServeError,
    add_listening,
    allowed_hosts,
    host_name,
    is_loopback,
    listen,
    page_address,
    quiet_bad_requests,
)
from twofold.ui.command.usage import USAGE_ERROR

DEFAULT_PORT = 8080


def configure(parser: argparse.ArgumentParser) -> None:
    add_listening(parser, DEFAULT_PORT)
    parser.add_argument(
        "--database",
        metavar=_("URL"),
        help=_(
            "a SQLite file, or postgresql://… shared by several servers (default: "
            "leaderboard.db in the data folder)"
        ),
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        type=host_name,
        metavar=_("NAME"),
        help=_("also answer requests addressed to NAME (repeatable), as behind a proxy"),
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        metavar=_("N"),
        help=_("processes that verify proofs (default: every core)"),
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=None,
        metavar=_("N"),
        help=_("submissions a minute one client address may send (default 60)"),
    )
    parser.add_argument(
        "--read-rate",
        type=float,
        default=None,
        metavar=_("N"),
        help=_(
            "reads (boards, entries, replays, pages) a minute one client address may make "
            "(default 600)"
        ),
    )
    parser.add_argument(
        "--proxy",
        action="append",
        default=[],
        type=proxy_hop,
        metavar=_("ADDRESSES"),
        help=_(
            "a proxy in front of this server, as its addresses or networks (comma-separated), "
            "once a hop, the nearest first: each client's address is then the one the proxies "
            "appended to X-Forwarded-For, and a request that did not come through them is refused"
        ),
    )
    # it believed the leftmost X-Forwarded-For address, which the client writes
    parser.add_argument("--trust-forwarded", action="store_true", help=argparse.SUPPRESS)


def proxy_hop(text: str) -> list[str]:
    """One hop of ``--proxy``: its addresses or networks, each checked."""
    hop = [part.strip() for part in text.split(",") if part.strip()]
    try:
        for part in hop:
            ipaddress.ip_network(part, strict=False)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if not hop:
        raise argparse.ArgumentTypeError(_("name the proxy's addresses or networks"))
    return hop


def _interrupt(_number: int, _frame: object) -> None:
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    try:
        import alembic  # noqa: F401
        import sqlalchemy  # noqa: F401

        # a request aiohttp cannot parse is answered in JSON too (aiohttp's own answer is text)
        from twofold.ui.web.http_errors import run_app
    except ImportError:
        print(
            "twofold: " + _("the leaderboard needs the web extra: pip install 'twofold[web]'"),
            file=sys.stderr,
        )
        return USAGE_ERROR
    from twofold.leaderboard.boards import StoreError, open_boards
    from twofold.leaderboard.server import (
        BURST,
        RATE,
        READ_BURST,
        READ_RATE,
        Leaderboard,
    )
    from twofold.leaderboard.verifier import Checker

    if args.trust_forwarded:
        print(
            "twofold: "
            + _(
                "--trust-forwarded believed any client's X-Forwarded-For; name the proxies "
                "instead: --proxy ADDRESSES"
            ),
            file=sys.stderr,
        )
        return USAGE_ERROR
    try:
        boards = open_boards(args.database)
    except StoreError as error:
        print(f"twofold: {error}", file=sys.stderr)
        return USAGE_ERROR
    try:
        listening = listen(args.host, args.port)
    except ServeError as error:
        boards.close()
        print(f"twofold: {error}", file=sys.stderr)
        return USAGE_ERROR
    if not is_loopback(listening):
        print(
            "twofold: "
            + _("listening on {host}: anyone who can reach it can send results").format(
                host=args.host
            ),
            file=sys.stderr,
        )
    signal.signal(signal.SIGTERM, _interrupt)
    logging.basicConfig(level=logging.WARNING, format="twofold leaderboard: %(message)s")
    quiet_bad_requests()
    checker = Checker(args.workers or os.cpu_count() or 1)
    service = Leaderboard(
        boards,
        checker,
        hosts=allowed_hosts(args.host, args.allow_host),
        rate=args.rate if args.rate is not None else RATE,
        burst=BURST if args.rate is None else max(BURST, args.rate / 3),
        read_rate=args.read_rate if args.read_rate is not None else READ_RATE,
        read_burst=READ_BURST if args.read_rate is None else max(READ_BURST, args.read_rate / 10),
        proxies=args.proxy,
    )
    url = page_address(args.host, listening)
    print(_("the leaderboard is at {url} (ctrl+c stops it)").format(url=url), flush=True)
    try:
        with contextlib.suppress(KeyboardInterrupt):
            # handle_signals: SIGINT and SIGTERM stop the loop in between tasks, never inside one
            run_app(service.app(), listening, access_log=None)
    finally:
        checker.close()
        boards.close()
    print(_("the leaderboard stopped; every entry is kept."), flush=True)
    return 0
