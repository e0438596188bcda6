"""A JSON service's answer to a request aiohttp cannot parse is JSON too, with its status.

aiohttp answers a request it cannot parse (a bad request line, duplicate Host headers,
bad chunking, a line too long) itself, as ``text/plain``, before any middleware runs: its
``RequestHandler.handle_error`` makes that answer. :class:`JsonErrorRunner` is aiohttp's
``AppRunner`` whose connections are handled by :class:`JsonErrors`, a ``RequestHandler``
whose ``handle_error`` answers ``{"error": reason}`` with the same status instead.

Only public names of aiohttp are used (``AppRunner.server``, ``RequestHandler`` and its
``handle_error``); the handler aiohttp's server makes is given the subclass's type (the two
have the same layout: the subclass adds no slot). ``tests/leaderboard/test_http_errors.py``
checks all of it against the installed aiohttp with raw sockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from typing import Any

from aiohttp import web
from aiohttp.web_runner import GracefulExit

#: how long a reason from aiohttp's parser may be in an answer
REASON_LIMIT = 200


class JsonErrors(web.RequestHandler):
    """aiohttp's connection handler, its own error answers made JSON."""

    __slots__ = ()

    def handle_error(
        self,
        request: web.BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        # aiohttp's own: it logs the error, and refuses once an answer has begun
        plain = super().handle_error(request, status, exc, message)
        if status >= 500:
            reason = "the server failed to answer; the fault is logged"
        else:
            found = getattr(exc, "message", None) or message or getattr(plain, "reason", "")
            reason = " ".join(str(found).split())[:REASON_LIMIT] or "bad request"
        answer = web.json_response({"error": reason}, status=status)
        answer.force_close()
        return answer


class JsonErrorRunner(web.AppRunner):
    """An ``AppRunner`` whose connections answer their parse errors as JSON."""

    @property
    def server(self) -> Any:
        made = super().server
        if made is None:
            return None

        def connection() -> web.RequestHandler:
            handler = made()
            handler.__class__ = JsonErrors
            return handler

        return connection


def run_app(app: web.Application, sock: socket.socket, **runner_args: Any) -> None:
    """Serve ``app`` on ``sock`` until SIGINT or SIGTERM, as ``web.run_app`` does, with
    :class:`JsonErrorRunner`; ``runner_args`` go to the runner."""

    async def serve() -> None:
        runner = JsonErrorRunner(app, handle_signals=True, **runner_args)
        await runner.setup()
        try:
            await web.SockSite(runner, sock).start()
            while True:
                await asyncio.sleep(3600)
        finally:
            await runner.cleanup()

    with contextlib.suppress(GracefulExit, KeyboardInterrupt):
        asyncio.run(serve())


__all__ = ["JsonErrorRunner", "JsonErrors", "run_app"]
