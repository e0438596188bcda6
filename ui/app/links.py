"""What an app served to a browser (``twofold serve``) does differently: links and the page title.

The server tells each app process where the page was opened through ``TWOFOLD_SERVED_AT``
(``scheme://host:port``, as the browser asked for it); an app without it is in a terminal.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import quote

from twofold.core.codes import share_string
from twofold.ui.app.seams import twofold_screens
from twofold.ui.app.textual_private import write_to_terminal

SERVED_AT = "TWOFOLD_SERVED_AT"
#: the query parameter of a served page that opens a game: ``/?game=2048/CODE``
GAME_PARAMETER = "game"
APP_NAME = "twofold"


def served_at() -> str | None:
    """The address the browser used to reach this app's server, or None in a terminal."""
    return os.environ.get(SERVED_AT) or None


def page_url(origin: str, share: str | None = None) -> str:
    """The page that opens the app (the menu), or the game ``share`` from its first move."""
    base = origin.rstrip("/") + "/"
    if share is None:
        return base
    return f"{base}?{GAME_PARAMETER}={quote(share, safe='/')}"


def game_link(mode_id: str, code: str) -> str:
    """What Copy link gives: the share string, or in a browser a link that opens the game."""
    share = share_string(mode_id, code)
    origin = served_at()
    return share if origin is None else page_url(origin, share)


def page_title(mode_title: str | None = None) -> str:
    """The browser tab's title: the game being played, then the app."""
    return APP_NAME if not mode_title else f"{mode_title} · {APP_NAME}"


def title_of(app: Any) -> str:
    """The page title for the app's current screens: the game under any dialog, or the app."""
    for screen in reversed(twofold_screens(app.screen_stack)):
        if screen.session is not None:
            return page_title(screen.session.mode.title)
    return page_title()


def follow_page_title(app: Any) -> None:
    """In a browser, keep the tab's title naming the game on screen (a terminal's is left be)."""
    if not app.is_web:
        return

    def show(_screen: Any = None) -> None:
        # OSC 2 sets a terminal's title; the served page copies it to the tab
        title = title_of(app).replace("\x07", "").replace("\x1b", "")
        write_to_terminal(app, f"\x1b]2;{title}\x07")

    app.screen_change_signal.subscribe(app, show)
    show()
