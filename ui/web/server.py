"""The web server of ``twofold serve``: textual-serve, one twofold app process per open page.

Needs the ``web`` extra (textual-serve, aiohttp); ``twofold.ui.command.serve`` checks for it
before importing this module. A page at ``/`` opens the menu; ``/?game=MODE/CODE`` opens that
game from its first move (what Copy link gives in a browser, see ``twofold.ui.app.links``). The
page's websocket carries the game in its path, ``/ws/game/MODE/CODE``, and the server starts
``twofold play MODE/CODE`` for it (through ``twofold.ui.command.page_process``, which ends it
with the server and tells the app the page's address).

What one page can ask of the server is bounded: only the hosts the server was started for are
answered (403 before anything else, against DNS rebinding), a terminal is at most
:data:`MAX_COLUMNS` x :data:`MAX_ROWS` cells, a websocket message at most
:data:`FRAME_LIMIT` bytes nested at most :data:`FRAME_DEPTH` deep, a resize or a focus
change reaches the app only as it changes and at most every :data:`SETTLE_SECONDS` (a flood
of them becomes its last), every other frame past the first such message (keys, mouse,
pings, frames that do not read) is paced at :data:`INPUT_RATE` bytes a second, and at most
``max_pages`` pages run at once (503 past that). The first SIGINT (or SIGTERM) stops the
server whatever a page has queued: every page's reading ends at once, and each app saves
and ends within :data:`STOP_SECONDS` or is killed.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import os
import shlex
import signal
import socket
import string
import sys
from collections.abc import Awaitable, Callable
from importlib.resources import files
from typing import Any
from urllib.parse import quote, urlsplit

from aiohttp import WSMsgType, web
from aiohttp.web_runner import GracefulExit
from textual_serve.app_service import AppService
from textual_serve.server import Server

from twofold.core import plugins
from twofold.core._i18n import _, current_language
from twofold.core.codes import CodeError, parse_share, share_string
from twofold.ui.app import links
from twofold.ui.web.frames import (
    DEFAULT_SIZE,
    FRAME_DEPTH,
    MAX_COLUMNS,
    MAX_ROWS,
    MIN_COLUMNS,
    MIN_ROWS,
    SETTLE_SECONDS,
    SETTLED,
    Pace,
    Settle,
    cells,
    host_of,
    nesting,
    read_frame,
    screen_size,
)
from twofold.ui.web.serve_private import page_process

# the bounds and readers of frames.py are read from here too (the tests, and Pace patched)
__all__ = [
    "DEFAULT_SIZE",
    "FRAME_DEPTH",
    "MAX_COLUMNS",
    "MAX_ROWS",
    "MIN_COLUMNS",
    "MIN_ROWS",
    "SETTLED",
    "SETTLE_SECONDS",
    "GameServer",
    "GameService",
    "Pace",
    "Settle",
    "app_command",
    "cells",
    "host_of",
    "nesting",
    "read_frame",
    "screen_size",
]

log = logging.getLogger("textual-serve")

#: how long a game may take to save and end when the server stops, before it is killed
STOP_SECONDS = 5.0
#: the largest websocket message a page may send (keys, a resize, a paste of a share string)
FRAME_LIMIT = 8 * 1024
#: how many bytes of keys and mouse a page may send a second, after a first FRAME_LIMIT: a
#: mouse moving at 144 Hz takes 1.7 KB, typing far less; a flood waits in its sender (keys
#: waiting in an app cost it about 2.5 KB each, see benchmarks/bench_serve_memory.py)
INPUT_RATE = 2 * 1024
#: how long closing a page's websocket waits for the page's answer
CLOSE_SECONDS = 1.0


def app_command(share: str | None, *, served_at: str, server: int) -> str:
    """The shell command for one page's app: the menu, or ``play MODE/CODE``."""
    argv = [sys.executable, "-m", "twofold.ui.command.page_process"]
    argv += ["--server", str(server), "--served-at", served_at]
    if share is not None:
        argv += ["play", share]
    command = shlex.join(argv)
    # exec: the app is the shell's process itself, so a signal or kill reaches the game, and
    # its parent is this server (whose end it watches)
    return command if sys.platform == "win32" else f"exec {command}"


class GameService(AppService):
    """One page's app process."""

    async def stop_within(self, seconds: float) -> None:
        """Ask the app to quit (it saves its game), and kill it if it has not within ``seconds``."""
        process = page_process(self)
        try:
            await asyncio.wait_for(self.stop(), seconds)
            if process is not None:
                # reaped before the server's event loop closes, so nothing is left dangling
                await asyncio.wait_for(process.wait(), seconds)
        except Exception:
            await self.kill()
        except asyncio.CancelledError:
            # the server's loop ends this stop: its app and pipes must not outlive the loop
            # (a transport closed only after it is gone prints "Event loop is closed")
            await self.kill()
            raise

    async def kill(self) -> None:
        process = page_process(self)
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()


class GameServer(Server):
    """textual-serve's server with twofold's page, game links, its bounds and a clean stop."""

    def __init__(
        self,
        listening: socket.socket,
        url: str,
        *,
        hosts: frozenset[str] = frozenset({"127.0.0.1", "localhost", "::1"}),
        max_pages: int = 8,
    ) -> None:
        super().__init__("twofold", title=links.APP_NAME, public_url=url.rstrip("/"))
        self.listening = listening
        self.url = url
        #: the host names requests may be addressed to
        self.hosts = hosts
        self.max_pages = max_pages
        #: every page's app, from before it starts until it has ended
        self.services: set[GameService] = set()
        #: every page's handler, so a stop ends them at once, whatever they wait on
        self.pages: set[asyncio.Task[Any]] = set()
        #: set by the first SIGINT or SIGTERM: no page reads another frame
        self.stopping = False
        self.page = string.Template(
            files("twofold.ui.web").joinpath("serve_page.html").read_text(encoding="utf-8")
        )
        self.script = files("twofold.ui.web").joinpath("serve_page.js").read_text(encoding="utf-8")
        #: a bad game link's page, in the look of the game's
        self.error_page = string.Template(
            files("twofold.ui.web").joinpath("serve_error.html").read_text(encoding="utf-8")
        )
        self.registry = plugins.registry()

    # -- the web application --------------------------------------------------------------

    async def web_application(self) -> web.Application:
        app = web.Application(middlewares=[self.only_our_hosts])
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/twofold-page.js", self.handle_script),
                web.get("/favicon.ico", self.handle_no_icon),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.get("/ws/game/{mode}/{code}", self.handle_websocket, name="game"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, name="static"),
            ]
        )
        app.on_shutdown.append(self.on_shutdown)
        return app

    @web.middleware
    async def only_our_hosts(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Refuse (403) a request addressed to any other host, before it reaches a handler.

        A page of another site whose name is made to point at this computer (DNS rebinding)
        sends its own name as Host; the same-site check alone would let it in.
        """
        asked = request.headers.get("Host")
        if host_of(asked) not in self.hosts:
            shown = ", ".join(f"[{h}]" if ":" in h else h for h in sorted(self.hosts))
            text = _(
                "twofold serve answers only for {hosts}, not {asked!r}; to allow a name, "
                "start it with --allow-host NAME"
            ).format(hosts=shown, asked=(asked or "")[:100])
            return web.Response(status=403, text=text)
        return await handler(request)

    def full(self) -> str | None:
        """Why a new page cannot start now (the page cap is reached), or None."""
        if len(self.services) < self.max_pages:
            return None
        return _(
            "{pages} pages are open, the most this server runs at once (--max-pages): "
            "close one, then open this page again"
        ).format(pages=len(self.services))

    def game_of(self, request: web.Request) -> str | None:
        """The share string a page or websocket asks for, checked; None for the menu.

        Raises ValueError with the line to show when it names no game here.
        """
        if "mode" in request.match_info:
            text = f"{request.match_info['mode']}/{request.match_info['code']}"
        else:
            text = request.query.get(links.GAME_PARAMETER, "").strip()
            if not text:
                return None
        try:
            mode_id, code = parse_share(text)
        except CodeError as error:
            raise ValueError(str(error)) from None
        if mode_id not in self.registry.modes:
            known = ", ".join(sorted(self.registry.modes))
            raise ValueError(
                _("unknown mode {name!r} (modes: {known})").format(name=mode_id, known=known)
            )
        return share_string(mode_id, code)

    def notice_page(self, message: str, link: str, label: str) -> str:
        """A page of one message and one link, in the look of the game's page."""
        return self.error_page.substitute(
            language=html.escape(current_language()),
            title=html.escape(links.page_title(None)),
            static="/static",
            message=html.escape(message),
            link=html.escape(link, quote=True),
            menu=html.escape(label),
        )

    async def handle_index(self, request: web.Request) -> web.Response:  # type: ignore[override]
        try:
            share = self.game_of(request)
        except ValueError as error:
            text = self.notice_page(str(error), "/", _("Open the menu"))
            return web.Response(status=400, text=text, content_type="text/html")
        full = self.full()
        if full is not None:
            text = self.notice_page(full, request.path_qs, _("Open it again"))
            return web.Response(status=503, text=text, content_type="text/html")
        mode_title = None
        path = "/ws"
        if share is not None:
            mode_id, _sep, code = share.partition("/")
            mode_title = self.registry.mode(mode_id).title
            path = f"/ws/game/{quote(mode_id, safe='')}/{quote(code, safe='')}"
        scheme = "wss" if request.scheme == "https" else "ws"
        page = self.page.substitute(
            language=html.escape(current_language()),
            title=html.escape(links.page_title(mode_title)),
            static="/static",
            websocket=html.escape(f"{scheme}://{request.host}{path}"),
            font_size=cells(request.query.get("fontsize"), 4, 64) or 16,
            starting=html.escape(_("Starting twofold…")),
            closed=html.escape(_("This game has ended; it is saved.")),
            again=html.escape(_("Open it again")),
        )
        return web.Response(text=page, content_type="text/html")

    async def handle_script(self, request: web.Request) -> web.Response:
        return web.Response(text=self.script, content_type="text/javascript")

    async def handle_no_icon(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One page's app: started when the page connects, stopped (saved) when it goes."""
        origin = request.headers.get("Origin")
        if origin and urlsplit(origin).netloc != request.host:
            # another site's page in the same browser must not drive this player's games
            raise web.HTTPForbidden(text=_("games are played from this server's own pages"))
        try:
            share = self.game_of(request)
        except ValueError as error:
            raise web.HTTPBadRequest(text=str(error)) from None
        full = self.full()
        if full is not None:
            raise web.HTTPServiceUnavailable(text=full)
        if self.stopping:
            raise web.HTTPServiceUnavailable(text=_("the server is stopping"))
        # a larger message closes the websocket (1009) before it is read into memory
        websocket = web.WebSocketResponse(
            heartbeat=15, max_msg_size=FRAME_LIMIT, timeout=CLOSE_SECONDS
        )
        width, height = (
            screen_size(request.query.get("width"), request.query.get("height")) or DEFAULT_SIZE
        )
        command = app_command(
            share, served_at=f"{request.scheme}://{request.host}", server=os.getpid()
        )
        service = GameService(
            command,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=websocket.close,
            download_manager=self.download_manager,
            debug=self.debug,
        )
        self.services.add(service)  # counted from here, before anything awaits
        page = asyncio.current_task()
        if page is not None:
            self.pages.add(page)
        try:
            await websocket.prepare(request)
            await service.start(width, height)
            try:
                await self.play_page(websocket, service, (width, height))
            finally:
                await service.stop_within(STOP_SECONDS)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:
            log.error(_("a page's game failed: {error}").format(error=error))
        finally:
            await service.stop_within(STOP_SECONDS)
            self.services.discard(service)
            self.pages.discard(page)  # type: ignore[arg-type]
        return websocket

    async def play_page(
        self,
        websocket: web.WebSocketResponse,
        service: GameService,
        size: tuple[int, int] = DEFAULT_SIZE,
    ) -> None:
        """Pass a page's messages to its app until the page goes; a malformed one is dropped.

        Resizes and focus changes are settled (see :class:`Settle`: a flood of them costs
        the app nothing); every other frame, one that does not read too, is paced by its
        size, so a flood of it waits in its sender.
        """
        pace = Pace(INPUT_RATE, FRAME_LIMIT)
        settle = Settle(service, size)
        try:
            async for message in websocket:
                if self.stopping:
                    break
                if message.type != WSMsgType.TEXT:
                    continue
                frame = read_frame(message.data)
                kind, data = frame if frame is not None else (None, None)
                if kind not in SETTLED:
                    # what is not settled costs its size: a flood of it waits in its sender
                    await pace.spend(len(message.data))
                if kind == "stdin" and isinstance(data, str):
                    await service.send_bytes(data.encode("utf-8", "replace"))
                elif kind == "resize" and isinstance(data, dict):
                    wanted = screen_size(data.get("width"), data.get("height"))
                    if wanted is not None:
                        settle.resize(wanted)
                elif kind == "ping":
                    await websocket.send_json(["pong", data])
                elif kind in ("blur", "focus"):
                    settle.focus(kind == "focus")
        finally:
            await settle.close()

    async def on_shutdown(self, app: web.Application) -> None:
        """Stopping the server stops every game it started, each saving first.

        Every page's handler is ended at once, whatever it waits on (its pace, a full
        pipe to its app): what a page had queued is dropped, never worked through.
        """
        self.stopping = True
        pages = [page for page in self.pages if page is not asyncio.current_task()]
        for page in pages:
            page.cancel()
        services = list(self.services)
        await asyncio.gather(
            *pages, *(s.stop_within(STOP_SECONDS) for s in services), return_exceptions=True
        )

    def request_exit(self) -> None:
        """The first SIGINT or SIGTERM: stop (a second one is not needed, nor waited for)."""
        self.stopping = True
        raise GracefulExit()

    # -- running ----------------------------------------------------------------------------

    def serve(self, debug: bool = False) -> None:
        """Serve until ctrl+c (SIGINT) or SIGTERM; every game is saved and ended on the way out."""
        self.debug = debug
        logging.basicConfig(level=logging.WARNING, format="twofold serve: %(message)s")
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
            loop.add_signal_handler(signal.SIGINT, self.request_exit)
            loop.add_signal_handler(signal.SIGTERM, self.request_exit)
        with contextlib.suppress(GracefulExit):
            web.run_app(
                self.web_application(),
                sock=self.listening,
                handle_signals=False,
                loop=loop,
                print=None,
                access_log=None,
                shutdown_timeout=STOP_SECONDS + 1,
            )
