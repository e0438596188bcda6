"""``twofold serve [--host H] [--port P] [--allow-host NAME] [--max-pages N]``: a browser's app.

This module stays light (the command line imports it to build its parser); the server itself,
``twofold.ui.web.server``, needs the ``web`` extra and is imported only once the port is bound.

The server answers only requests addressed to a host it was started for (see
:func:`allowed_hosts`): a web page elsewhere whose name is made to point at this computer
(DNS rebinding) gets 403, so it can neither play this player's games nor read their records.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib.util
import ipaddress
import logging
import signal
import socket
import sys

from twofold.core._i18n import _

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
#: the names this computer is always reached by from itself
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
#: how many pages (each its own app process, about 45 MB) run at once by default
DEFAULT_MAX_PAGES = 8
USAGE_ERROR = 2


class ServeError(Exception):
    """Why the server cannot start; the message is the one line shown."""


class BadRequestsInOneLine(logging.Filter):
    """aiohttp logs a request it cannot parse with a traceback; the client's fault is one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if error is not None and type(error).__module__.startswith("aiohttp.http_"):
            record.msg = _("a malformed request from %s: %s")
            record.args = (
                (record.args or ("?",))[0],
                " ".join(str(getattr(error, "message", error)).split()),
            )
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.INFO, "INFO"
            return logging.getLogger(record.name).isEnabledFor(logging.INFO)
        return True


def quiet_bad_requests() -> None:
    """A malformed request is the client's fault: no traceback on the console for it."""
    logging.getLogger("aiohttp.server").addFilter(BadRequestsInOneLine())


def add_listening(parser: argparse.ArgumentParser, port: int) -> None:
    """``--host`` and ``--port``, as every twofold web service takes them."""
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
        default=port,
        metavar=_("PORT"),
        help=_("port to listen on (default {port}; 0 picks a free one)").format(port=port),
    )


def configure(parser: argparse.ArgumentParser) -> None:
    add_listening(parser, DEFAULT_PORT)
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        type=host_name,
        metavar=_("NAME"),
        help=_(
            "also answer pages opened as http://NAME:PORT/ (repeatable; without it only "
            "127.0.0.1, localhost, [::1] and --host are answered, so no other site can "
            "reach the games by pointing its name here)"
        ),
    )
    parser.add_argument(
        "--max-pages",
        type=page_count,
        default=DEFAULT_MAX_PAGES,
        metavar=_("N"),
        help=_(
            "the most pages served at once, each its own game process (default {pages}); "
            "a page over it is refused until another one closes"
        ).format(pages=DEFAULT_MAX_PAGES),
    )


def host_name(text: str) -> str:
    """A host name or address as a page's address gives it: lower case, without brackets."""
    name = text.strip().lower().removeprefix("[").removesuffix("]").rstrip(".")
    if ":" in name:
        try:
            ipaddress.IPv6Address(name.split("%")[0])
        except ValueError:
            raise argparse.ArgumentTypeError(
                _("{text!r} is not a host name (give it without a port)").format(text=text)
            ) from None
    if not name or any(c.isspace() or c in "/@?#\\" for c in name):
        raise argparse.ArgumentTypeError(_("{text!r} is not a host name").format(text=text))
    return name


def page_count(text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        count = 0
    if count < 1:
        raise argparse.ArgumentTypeError(
            _("{text!r} is not a number of pages (1 or more)").format(text=text)
        )
    return count


def allowed_hosts(host: str, extra: list[str]) -> frozenset[str]:
    """The host names the server answers: this computer's own, ``host`` and ``extra``.

    Listening on every address (0.0.0.0, ::) adds this computer's name, which the printed
    address uses; any other name or address must be given with --allow-host.
    """
    names = {*LOCAL_HOSTS, *extra}
    try:
        everywhere = not host or ipaddress.ip_address(host).is_unspecified
    except ValueError:
        everywhere = False
    if everywhere:
        names.add(socket.gethostname())
    if host:
        names.add(host)
    found = set()
    for name in names:
        with contextlib.suppress(argparse.ArgumentTypeError):  # a machine name we cannot read
            found.add(host_name(name))
    return frozenset(found)


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
    quiet_bad_requests()
    with contextlib.suppress(KeyboardInterrupt):  # stopped before it served: no game to save
        from twofold.ui.web.server import GameServer

        print(
            _("twofold is served at {url} (open it in a web browser; ctrl+c stops it)").format(
                url=url
            ),
            flush=True,
        )
        hosts = allowed_hosts(args.host, args.allow_host)
        GameServer(listening, url, hosts=hosts, max_pages=args.max_pages).serve()
    print(_("twofold serve stopped; every game is saved."), flush=True)
    return 0
