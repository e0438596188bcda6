"""The leaderboard's pages: Jinja2 templates through aiohttp-jinja2, with their stylesheet
and script as static files beside them.

Every value is escaped where a template writes it (autoescape), so a name is always text.
The tiles' colours come from the one palette the app draws with (``core/palette.py``),
written out as a stylesheet of their own (``/tiles.css``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import web

from twofold.core import palette
from twofold.core._i18n import _, current_language
from twofold.core._rules import Mode
from twofold.core.codes import format_code
from twofold.leaderboard.boards import Entry

HERE = Path(__file__).parent
#: entries on a page of one board, and on the front page for each board
PER_PAGE = 25
ON_FRONT = 10
#: tiles up to 2 to this power get a colour of their own in the stylesheet
TOP_EXPONENT = 40


def setup(app: web.Application) -> None:
    """Give ``app`` the templates (HTML autoescaped), the static files and the tiles'
    stylesheet."""
    environment = aiohttp_jinja2.setup(
        app,
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=jinja2.select_autoescape(("html",), default_for_string=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.globals.update(_=_, format_code=format_code, language=current_language)
    environment.filters["chip"] = tile_class
    app.router.add_get("/tiles.css", tiles_css)
    app.router.add_static("/static/", HERE / "static", name="static")


@cache
def tile_rules() -> str:
    """The tiles' colours as CSS: ``.classic .t8`` as the app's slide boards, ``.vivid .t8``
    as its chain boards, each value's own, and the empty cells and stones."""
    rules = [
        f".board {{ --frame: {palette.LIGHT_FRAME}; --empty: {palette.LIGHT_EMPTY}; }}",
        f".board.vivid {{ --frame: {palette.DARK_TEXT}; --empty: {palette.EMPTY_VIVID}; }}",
        f".stone {{ background: {palette.STONE_BACKGROUND}; color: {palette.STONE_TEXT}; }}",
    ]
    for exponent in range(1, TOP_EXPONENT + 1):
        value = 1 << exponent
        background, text = palette.tile_colours(value)
        rules.append(f".classic .t{value} {{ background: {background}; color: {text}; }}")
        vivid = palette.vivid_rgb(value)
        hex_vivid = "#{:02x}{:02x}{:02x}".format(*vivid)
        text = palette.readable_text(vivid)
        rules.append(f".vivid .t{value} {{ background: {hex_vivid}; color: {text}; }}")
    return "\n".join(rules) + "\n"


async def tiles_css(request: web.Request) -> web.Response:
    return web.Response(
        text=tile_rules(), content_type="text/css", headers={"Cache-Control": "max-age=3600"}
    )


def scheme(mode: Mode | None) -> str:
    """The app's colour scheme for ``mode``'s tiles: vivid on chain boards, else classic."""
    return "vivid" if mode is not None and mode.controls == "chain" else "classic"


def tile_class(value: int) -> str:
    """The class that colours a tile of ``value`` (a stone below 0, nothing for 0)."""
    if value < 0:
        return "stone"
    return f"t{value}" if value > 0 else ""


def mode_title(mode: Mode | None, mode_id: str) -> str:
    """A mode's name as players see it (its id when it is not installed here)."""
    return _(mode.title) if mode is not None else mode_id


def code_title(mode: Mode | None, mode_id: str, code: str) -> str:
    """The mode's name and the code as the app shows them: ``2048 Daily F1SP-D7S4``."""
    shown = format_code(code) if len(code) == 8 else code
    return f"{mode_title(mode, mode_id)} {shown}"


@dataclass(frozen=True)
class Board:
    """One board on a page: its mode, code, one page of entries and where the others are."""

    mode: Mode
    code: str
    entries: Sequence[Entry]
    page: int = 1
    more: bool = False

    @property
    def title(self) -> str:
        return code_title(self.mode, self.mode.id, self.code)

    @property
    def scheme(self) -> str:
        return scheme(self.mode)

    def link(self, page: int) -> str:
        return f"/daily/{self.mode.id}" + (f"?page={page}" if page > 1 else "")


def front(today: Any, boards: Sequence[Board]) -> dict[str, Any]:
    """The front page's context: today's board of every daily mode, its first entries."""
    return {"today": today.isoformat(), "boards": boards}


def board(today: Any, found: Board) -> dict[str, Any]:
    """One daily board's page, ``found.page`` of it."""
    return {"today": today.isoformat(), "board": found}


def replay(entry: Entry, mode: Mode | None) -> dict[str, Any]:
    """A game's page: the page's script draws it move by move from its replay."""
    return {
        "entry": entry,
        "title": code_title(mode, entry.mode, entry.code),
        "scheme": scheme(mode),
        # a board that is no rectangle is drawn at its layout's positions (None: its rows)
        "layout": mode.layout.as_dict() if mode is not None and mode.layout else None,
        "said": {
            "step": _("Move {at} of {total} · score {score}"),
            "cut": _("The replay shows the first {shown} of {total} moves."),
            "play": _("Play"),
            "pause": _("Pause"),
            "failed": _("The replay could not be loaded: {error}"),
        },
    }
