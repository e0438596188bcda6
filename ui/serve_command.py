"""``twofold serve [--host H] [--port P]``: the whole app in a web browser.

This module stays light (the command line imports it to build its parser); the server itself,
``twofold.ui.serve``, needs the ``web`` extra and is imported only once the port is bound.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib.util
import ipaddress
import signal
import socket
import sys

from twofold.core.i18n import _

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
USAGE_ERROR = 2


class ServeError(Exception):
    """Why the server cannot start; the message is the one line shown."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        metavar=_("HOST"),
        help=_("address to listen on (default {host}: this computer only)").format(
            host=DEFAULT_HOST
        ),
    )
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        metavar=_("PORT"),
        help=_("port to listen on (default {port}; 0 picks a free one)").format(port=DEFAULT_PORT),
    )


def web_extra_missing() -> bool:
    return any(importlib.util.find_spec(name) is None for name in ("textual_serve", "aiohttp"))


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` and listening, or ServeError saying why not."""
    if not 0 <= port <= 65535:
        raise ServeError(_("port {port} is not between 0 and 65535").format(port=port))
    try:
        found = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except (socket.gaierror, UnicodeError) as error:
        reason = getattr(error, "strerror", None) or error
        raise ServeError(
            _("cannot listen on host {host!r}: {reason}").format(host=host, reason=reason)
        ) from None
    family, kind, proto, _name, address = found[0]
    listening = socket.socket(family, kind, proto)
    try:
        if sys.platform != "win32":  # elsewhere it would let two servers share the port
            listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(address)
        listening.listen(128)
    except OSError as error:
        listening.close()
        if error.errno == errno.EADDRINUSE:
            raise ServeError(
                _("port {port} is already in use on {host} (try another with --port)").format(
                    port=port, host=host
                )
            ) from None
        raise ServeError(
            _("cannot listen on {host} port {port}: {reason}").format(
                host=host, port=port, reason=error.strerror or error
            )
        ) from None
    return listening


def is_loopback(listening: socket.socket) -> bool:
    address = listening.getsockname()[0]
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return False


def page_address(host: str, listening: socket.socket) -> str:
    """The URL to print: the host as given (a name reads better), the port as bound."""
    port = listening.getsockname()[1]
    shown = host
    try:
        if ipaddress.ip_address(host).is_unspecified:  # 0.0.0.0 / ::: this machine's name
            shown = socket.gethostname()
    except ValueError:
        pass
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def _interrupt(_number: int, _frame: object) -> None:
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    if web_extra_missing():
        print(
            "twofold: "
            + _("serving needs the web extra; install it with: pip install 'twofold[web]'"),
            file=sys.stderr,
        )
        return USAGE_ERROR
    try:
        listening = listen(args.host, args.port)
    except ServeError as error:
        print(f"twofold: {error}", file=sys.stderr)
        return USAGE_ERROR
    url = page_address(args.host, listening)
    if not is_loopback(listening):
        print(
            "twofold: "
            + _(
                "warning: listening on {host}: anyone who can reach it can play as you "
                "(your games, records and settings)"
            ).format(host=args.host),
            file=sys.stderr,
        )
    # SIGTERM is ctrl+c from here on, before the server's own handlers are in place too
    signal.signal(signal.SIGTERM, _interrupt)
    with contextlib.suppress(KeyboardInterrupt):  # stopped before it served: no game to save
        from twofold.ui.serve import GameServer

        print(
            _("twofold is served at {url} (open it in a web browser; ctrl+c stops it)").format(
                url=url
            ),
            flush=True,
        )
        GameServer(listening, url).serve()
    print(_("twofold serve stopped; every game is saved."), flush=True)
    return 0
