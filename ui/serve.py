"""The web server of ``twofold serve``: textual-serve, one twofold app process per open page.

Needs the ``web`` extra (textual-serve, aiohttp); ``twofold.ui.serve_command`` checks for it
before importing this module. A page at ``/`` opens the menu; ``/?game=MODE/CODE`` opens that
game from its first move (what Copy link gives in a browser, see ``twofold.ui.links``). The
page's websocket carries the game in its path, ``/ws/game/MODE/CODE``, and the server starts
``twofold play MODE/CODE`` for it; ``TWOFOLD_SERVED_AT`` tells each app the page's address.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import shlex
import signal
import socket
import string
import sys
from importlib.resources import files
from typing import Any
from urllib.parse import quote, urlsplit

from aiohttp import web
from aiohttp.web_runner import GracefulExit
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from twofold.core import plugins
from twofold.core.codes import CodeError, parse_share, share_string
from twofold.core.i18n import _, current_language
from twofold.ui import links

log = logging.getLogger("textual-serve")

#: how long a game may take to save and end when the server stops, before it is killed
STOP_SECONDS = 5.0


def app_command(share: str | None) -> str:
    """The shell command for one page's app: the menu, or ``play MODE/CODE``."""
    argv = [sys.executable, "-m", "twofold.ui.cli"]
    if share is not None:
        argv += ["play", share]
    command = shlex.join(argv)
    # exec: the app is the shell's process itself, so a signal or kill reaches the game
    return command if sys.platform == "win32" else f"exec {command}"


class GameService(AppService):
    """One page's app process, told the address its page was opened at."""

    def __init__(self, command: str, *, served_at: str, **kwargs: Any) -> None:
        super().__init__(command, **kwargs)
        self.served_at = served_at

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width=width, height=height)
        environment[links.SERVED_AT] = self.served_at
        return environment

    async def stop_within(self, seconds: float) -> None:
        """Ask the app to quit (it saves its game), and kill it if it has not within ``seconds``."""
        process = self._process
        try:
            await asyncio.wait_for(self.stop(), seconds)
            if process is not None:
                # reaped before the server's event loop closes, so nothing is left dangling
                await asyncio.wait_for(process.wait(), seconds)
        except Exception:
            if process is not None and process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()


class GameServer(Server):
    """textual-serve's server with twofold's page, game links and a clean stop."""

    def __init__(self, listening: socket.socket, url: str) -> None:
        super().__init__("twofold", title=links.APP_NAME, public_url=url.rstrip("/"))
        self.listening = listening
        self.url = url
        self.services: set[GameService] = set()
        self.page = string.Template(
            files("twofold.ui").joinpath("serve_page.html").read_text(encoding="utf-8")
        )
        self.script = files("twofold.ui").joinpath("serve_page.js").read_text(encoding="utf-8")
        #: a bad game link's page, in the look of the game's
        self.error_page = string.Template(
            files("twofold.ui").joinpath("serve_error.html").read_text(encoding="utf-8")
        )
        self.registry = plugins.registry()

    # -- the web application --------------------------------------------------------------

    async def _make_app(self) -> web.Application:
        app = web.Application()
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

    async def handle_index(self, request: web.Request) -> web.Response:  # type: ignore[override]
        try:
            share = self.game_of(request)
        except ValueError as error:
            text = self.error_page.substitute(
                language=html.escape(current_language()),
                title=html.escape(links.page_title(None)),
                static="/static",
                message=html.escape(str(error)),
                menu=html.escape(_("Open the menu")),
            )
            return web.Response(status=400, text=text, content_type="text/html")
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
            font_size=to_int(request.query.get("fontsize", "16"), 16),
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
        websocket = web.WebSocketResponse(heartbeat=15)
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        service: GameService | None = None
        try:
            await websocket.prepare(request)
            service = GameService(
                app_command(share),
                served_at=f"{request.scheme}://{request.host}",
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,
                download_manager=self.download_manager,
                debug=self.debug,
            )
            self.services.add(service)
            await service.start(width, height)
            try:
                await self._process_messages(websocket, service)
            finally:
                await service.stop_within(STOP_SECONDS)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:
            log.error(_("a page's game failed: {error}").format(error=error))
        finally:
            if service is not None:
                await service.stop_within(STOP_SECONDS)
                self.services.discard(service)
        return websocket

    async def on_shutdown(self, app: web.Application) -> None:
        """Stopping the server stops every game it started, each saving first."""
        services = list(self.services)
        await asyncio.gather(*(s.stop_within(STOP_SECONDS) for s in services))

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
                self._make_app(),
                sock=self.listening,
                handle_signals=False,
                loop=loop,
                print=None,
                access_log=None,
                shutdown_timeout=STOP_SECONDS + 1,
            )
