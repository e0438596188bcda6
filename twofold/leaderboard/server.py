"""The leaderboard's web service (aiohttp): the HTTP API of docs/leaderboard.md and its pages.

It trusts nothing but the proof: a submission is verified in a worker process
(:mod:`.verifier`), the SQL is parameterised, and nothing from a submission is ever run.
Requests are answered only when addressed to one of the server's host names (as
``twofold serve`` does), a client address may send :data:`RATE` submissions a minute
(with bursts of :data:`BURST`), and a body past :data:`MAX_BODY` bytes is refused with 413.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import date
from typing import Any
from urllib.parse import urlsplit

import aiohttp_jinja2
from aiohttp import web

from twofold.core._i18n import _
from twofold.core._rules import Mode
from twofold.core.daily import daily_code, utc_today
from twofold.core.plugins import registry
from twofold.leaderboard import page
from twofold.leaderboard.boards import Boards, Entry, NewEntry, StoreUnavailable
from twofold.leaderboard.names import check_name, name_key
from twofold.leaderboard.verifier import Checker

#: the largest request body taken (a proof of 200,000 moves is some 100 KB)
MAX_BODY = 512 * 1024
#: submissions a minute from one client address, and how many may come at once
RATE = 60.0
BURST = 20.0
#: reads (boards, entries, replays, pages) a minute from one client address, and at once
READ_RATE = 600.0
READ_BURST = 60.0
#: entries a board read gives at most (``?limit=``, 100 by default)
MOST_ENTRIES = 1000
#: the largest id or offset a store takes (SQLite's and PostgreSQL's 64-bit integers)
MOST_ID = 2**63 - 1
#: seconds a client is asked to wait while the database cannot be reached
RETRY_AFTER = 5
log = logging.getLogger("twofold.leaderboard")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def host_of(header: str | None) -> str | None:
    """The host name of a Host header (lower case, no port); None if unreadable."""
    if not header:
        return None
    try:
        parts = urlsplit(f"//{header}")
        name = parts.hostname
    except ValueError:
        return None
    if name is None or parts.username is not None:
        return None
    return name.rstrip(".")


class Buckets:
    """A token bucket per client address: ``rate`` a minute, ``burst`` at once."""

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst = rate / 60.0, burst
        self.clock = clock
        self.buckets: dict[str, tuple[float, float]] = {}

    def take(self, client: str) -> float:
        """0 when the client may go on, else the seconds until it may."""
        now = self.clock()
        tokens, at = self.buckets.get(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens < 1:
            self.buckets[client] = (tokens, now)
            return (1 - tokens) / self.rate
        self.buckets[client] = (tokens - 1, now)
        if len(self.buckets) > 100_000:  # forget the oldest: memory stays bounded
            for key in list(self.buckets)[:50_000]:
                del self.buckets[key]
        return 0.0


def cross_site(request: web.Request) -> web.Response | None:
    """Refuse a POST another site's page could make: a body a form can send (415), or an
    Origin other than this server's own (403). No CORS header is ever sent, so no other
    site's page may send JSON here or read an answer."""
    origin = request.headers.get("Origin")
    if origin is not None:
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or parts.netloc.lower() != request.host.lower():
            return problem(
                403, _("results are sent from this leaderboard's own pages or by a program")
            )
    if request.content_type != "application/json":
        return problem(415, _("send the result as application/json"))
    return None


def problem(status: int, reason: str) -> web.Response:
    return web.json_response({"error": reason}, status=status)


def _reason(error: web.HTTPException, request: web.Request) -> str:
    """What an aiohttp error says, in words for the client."""
    text = error.text or ""
    if text and not text.startswith(f"{error.status}:"):
        return text  # raised with a reason of ours
    if error.status == 404:
        return _("nothing here: {path}").format(path=request.path)
    if error.status == 405:
        return _("{method} is not answered here; use {allowed}").format(
            method=request.method, allowed=error.headers.get("Allow", "GET")
        )
    if error.status == 413:
        return _("the body is over {most} bytes").format(most=MAX_BODY)
    return str(error.reason).lower()


class Leaderboard:
    """The service: its boards, its checker and its limits."""

    def __init__(
        self,
        boards: Boards,
        checker: Checker,
        *,
        hosts: frozenset[str] = frozenset({"127.0.0.1", "localhost", "::1"}),
        rate: float = RATE,
        burst: float = BURST,
        read_rate: float = READ_RATE,
        read_burst: float = READ_BURST,
        proxies: Sequence[Sequence[str]] = (),
        today: Callable[[], date] = utc_today,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.boards = boards
        self.checker = checker
        self.hosts = hosts
        self.buckets = Buckets(rate, burst, clock)
        self.read_buckets = Buckets(read_rate, read_burst, clock)
        #: the proxies in front of this server, one set of addresses or networks a hop, the
        #: nearest first: a request must come through exactly these, each having appended
        #: the address it was sent from to X-Forwarded-For (aiohttp-remotes' XForwardedStrict)
        self.proxies = [list(hop) for hop in proxies]
        self.today = today
        self.unreachable = False

    def app(self) -> web.Application:
        middlewares: list[Any] = [self.errors_as_json]
        if self.proxies:
            from aiohttp_remotes import XForwardedStrict

            middlewares.append(XForwardedStrict(self.proxies).middleware)
        app = web.Application(
            middlewares=[*middlewares, self.only_our_hosts, self.reads_within_rate],
            client_max_size=MAX_BODY,
        )
        app.add_routes(
            [
                web.post("/api/results", self.submit),
                web.get("/api/boards/{mode}/{code}", self.board),
                web.get("/api/daily/{mode}", self.daily),
                web.get("/api/daily/{mode}/{day}", self.daily),
                web.get("/api/entries/{id}", self.entry),
                web.get("/api/entries/{id}/replay", self.replay),
                web.get("/", self.front_page),
                web.get("/daily/{mode}", self.board_page),
                web.get("/replay/{id}", self.replay_page),
            ]
        )
        page.setup(app)
        return app

    @web.middleware
    async def errors_as_json(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Every error as ``{"error": reason}``; 503 while the database cannot be reached."""
        try:
            response = await handler(request)
        except web.HTTPException as error:
            if error.status < 400:
                raise
            response = problem(error.status, _reason(error, request))
            for name in ("Allow", "Retry-After"):
                if name in error.headers:
                    response.headers[name] = error.headers[name]
            return response
        except StoreUnavailable as error:
            if not self.unreachable:
                self.unreachable = True
                log.error(_("the database cannot be reached: {error}").format(error=error))
            response = problem(
                503, _("the leaderboard's database cannot be reached just now: try again soon")
            )
            response.headers["Retry-After"] = str(RETRY_AFTER)
            return response
        except ConnectionResetError:
            # the client hung up before its body came: a fault of no one's here, no one to tell
            return problem(400, _("the request ended before its body did"))
        except Exception:
            log.exception(_("a request to %s failed"), request.path)  # a fault of ours
            return problem(500, _("the leaderboard failed to answer; the fault is logged"))
        if self.unreachable:
            self.unreachable = False
            log.warning(_("the database is reachable again"))
        return response

    @web.middleware
    async def only_our_hosts(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Refuse (403) a request addressed to any other host (DNS rebinding)."""
        if host_of(request.headers.get("Host")) not in self.hosts:
            return problem(
                403,
                _(
                    "this leaderboard answers only for {hosts}; start it with --allow-host NAME"
                ).format(hosts=", ".join(sorted(self.hosts))),
            )
        try:
            return await handler(request)
        except web.HTTPRequestEntityTooLarge:
            return problem(413, _("the body is over {most} bytes").format(most=MAX_BODY))

    @web.middleware
    async def reads_within_rate(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """A client reads at most ``read_rate`` a minute (429 with Retry-After past it)."""
        if request.method in ("GET", "HEAD"):
            wait = self.read_buckets.take(self.client(request))
            if wait:
                response = problem(429, _("too many requests: try again in a moment"))
                response.headers["Retry-After"] = str(max(1, round(wait)))
                return response
        return await handler(request)

    def client(self, request: web.Request) -> str:
        """The client's address: the peer's, or behind ``proxies`` the one they forwarded."""
        return request.remote or "?"

    # -- the API -------------------------------------------------------------------------

    async def submit(self, request: web.Request) -> web.Response:
        refused = cross_site(request)
        if refused is not None:
            return refused
        wait = self.buckets.take(self.client(request))
        if wait:
            response = problem(429, _("too many submissions: try again in a moment"))
            response.headers["Retry-After"] = str(max(1, round(wait)))
            return response
        if request.content_length is not None and request.content_length > MAX_BODY:
            return problem(413, _("the body is over {most} bytes").format(most=MAX_BODY))
        try:
            body = json.loads(await request.read())
        except web.HTTPRequestEntityTooLarge:
            return problem(413, _("the body is over {most} bytes").format(most=MAX_BODY))
        except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: deep nesting
            return problem(400, _('send JSON: {"result": TEXT, "name": NAME}'))
        if not isinstance(body, dict) or not isinstance(body.get("result"), str):
            return problem(400, _('send JSON: {"result": TEXT, "name": NAME}'))
        try:
            name = check_name(body.get("name"))
        except ValueError as error:
            return problem(422, str(error))
        checked = await self.checker.check(body["result"])
        if checked.error is not None:
            return problem(422, checked.error)
        new = NewEntry(name=name, name_key=name_key(name), **checked.figures)
        alike = await asyncio.to_thread(
            self.boards.name_like, new.mode, new.code, new.name_key, name
        )
        if alike is not None:
            return problem(
                422,
                _("the name looks like {name!r}, a name already on this board").format(name=alike),
            )
        stored = await self._same_game(body["result"], new)
        if stored is None:
            entry, created = await asyncio.to_thread(self.boards.add, new)
            if created or entry.name == name:
                return web.json_response(
                    {**entry.public(), "new": created}, status=201 if created else 200
                )
            stored = entry
        if stored.name != name:
            # one game, one entry: its first sender owns it, and anyone may know whose it is
            answer = {
                "error": _("this game is already on the board, sent by {name}").format(
                    name=stored.name
                ),
                "owner": stored.name,
                "id": stored.id,
            }
            return web.json_response(answer, status=409)
        if new.actions > stored.actions:
            entry = await asyncio.to_thread(self.boards.update, stored.id, new)
            return web.json_response({**entry.public(), "new": False, "updated": True})
        entry = await asyncio.to_thread(self.boards.entry, stored.id)
        return web.json_response({**(entry or stored).public(), "new": False, "updated": False})

    async def _same_game(self, text: str, new: NewEntry) -> Entry | None:
        """The stored game that this one starts or is started by, if any."""
        related = await asyncio.to_thread(self.boards.related, new.checkpoints)
        if not related:
            return None
        exact = next((entry for entry in related if entry.game_key == new.game_key), None)
        if exact is not None:
            return exact
        found = await self.checker.same_game(
            text, [(entry.id, entry.actions, entry.game_key, entry.proof) for entry in related]
        )
        return next((entry for entry in related if entry.id == found), None)

    def _limits(self, request: web.Request) -> tuple[bool, int, int]:
        query = request.query
        assisted = query.get("assisted", "0") in ("1", "true", "yes")
        try:
            limit = min(MOST_ENTRIES, max(1, int(query.get("limit", "100"))))
            offset = min(MOST_ID, max(0, int(query.get("offset", "0"))))
        except ValueError:
            raise web.HTTPBadRequest(text=_("limit and offset are whole numbers")) from None
        return assisted, limit, offset

    async def _board(self, request: web.Request, mode: str, code: str) -> dict[str, Any]:
        assisted, limit, offset = self._limits(request)
        entries = await asyncio.to_thread(
            self.boards.board, mode, code, assisted=assisted, limit=limit, offset=offset
        )
        day = None
        if entries:
            day = entries[0].day
        return {
            "mode": mode,
            "code": code,
            "day": day,
            "entries": [
                {
                    key: value
                    for key, value in entry.public().items()
                    if key not in ("mode", "code", "day")
                }
                for entry in entries
            ],
        }

    async def board(self, request: web.Request) -> web.Response:
        mode = request.match_info["mode"].lower()
        code = request.match_info["code"].upper().replace("-", "")
        return web.json_response(await self._board(request, mode, code))

    async def daily(self, request: web.Request) -> web.Response:
        mode = registry().modes.get(request.match_info["mode"].lower())
        if mode is None or not mode.daily:
            return problem(404, _("no daily mode {mode!r} here").format(mode=mode and mode.id))
        text = request.match_info.get("day")
        try:
            day = date.fromisoformat(text) if text else self.today()
        except ValueError:
            return problem(400, _("a day is an ISO date, such as 2026-12-01"))
        code = daily_code(mode.id, day)
        found = await self._board(request, mode.id, code)
        found["day"] = day.isoformat()
        return web.json_response(found)

    async def _entry(self, request: web.Request) -> Any:
        try:
            entry_id = int(request.match_info["id"])
        except ValueError:
            raise web.HTTPNotFound() from None
        if not 0 < entry_id <= MOST_ID:
            raise web.HTTPNotFound()
        entry = await asyncio.to_thread(self.boards.entry, entry_id)
        if entry is None:
            raise web.HTTPNotFound()
        return entry

    async def entry(self, request: web.Request) -> web.Response:
        entry = await self._entry(request)
        return web.json_response({**entry.public(), "proof": entry.proof})

    async def replay(self, request: web.Request) -> web.Response:
        entry = await self._entry(request)
        frames = await asyncio.to_thread(self.boards.replay, entry.id)
        if frames is None:
            raise web.HTTPNotFound(text=_("this entry's replay is not kept"))
        # made once when the entry was accepted: sent as it is kept, never replayed here
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            headers = {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
            return web.Response(body=frames, content_type="application/json", headers=headers)
        body = await asyncio.to_thread(gzip.decompress, frames)
        return web.Response(body=body, content_type="application/json")

    # -- the pages -------------------------------------------------------------------------

    async def front_page(self, request: web.Request) -> web.Response:
        today = self.today()
        boards = []
        for mode in sorted(registry().modes.values(), key=lambda m: m.id):
            if mode.daily:
                boards.append(await self._page_of(mode, today, 1, page.ON_FRONT))
        return aiohttp_jinja2.render_template("front.html", request, page.front(today, boards))

    async def board_page(self, request: web.Request) -> web.Response:
        name = request.match_info["mode"].lower()
        mode = registry().modes.get(name)
        if mode is None or not mode.daily:
            raise web.HTTPNotFound(text=_("no daily mode {mode!r} here").format(mode=name))
        try:
            number = min(MOST_ID // page.PER_PAGE, max(1, int(request.query.get("page", "1"))))
        except ValueError:
            raise web.HTTPBadRequest(text=_("a page is a whole number")) from None
        today = self.today()
        found = await self._page_of(mode, today, number, page.PER_PAGE)
        return aiohttp_jinja2.render_template("board.html", request, page.board(today, found))

    async def _page_of(self, mode: Mode, today: date, number: int, size: int) -> page.Board:
        """Page ``number`` of today's board of ``mode``, ``size`` entries a page."""
        code = daily_code(mode.id, today)
        entries = await asyncio.to_thread(
            self.boards.board,
            mode.id,
            code,
            assisted=False,
            limit=size + 1,
            offset=(number - 1) * size,
        )
        return page.Board(mode, code, entries[:size], number, more=len(entries) > size)

    async def replay_page(self, request: web.Request) -> web.Response:
        entry = await self._entry(request)
        mode = registry().modes.get(entry.mode)
        return aiohttp_jinja2.render_template("replay.html", request, page.replay(entry, mode))
