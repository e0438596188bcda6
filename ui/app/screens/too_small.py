"""The one screen a terminal below the smallest size gets: what size is needed, nothing else.

Below it, the menu, the games and the dialogs would draw clipped words. This screen goes on
top of whatever is open (a game's clock stops, as for any screen on top) and goes away by
itself once the terminal is large enough again; Ctrl+Q still saves and quits.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.geometry import Size
from textual.widgets import Static

from twofold.core._i18n import _
from twofold.ui.app.language import TranslatedScreen

#: the smallest terminal every screen fits: columns, rows
SMALLEST = Size(44, 20)


def too_small(size: Size) -> bool:
    return size.width < SMALLEST.width or size.height < SMALLEST.height


def too_small_words() -> str:
    return _("Terminal too small: make it at least {w}x{h}.").format(
        w=SMALLEST.width, h=SMALLEST.height
    )


class TooSmallScreen(TranslatedScreen[None]):
    """The terminal is too small for twofold: the size needed, centred, and nothing else."""

    DEFAULT_CSS = """
    TooSmallScreen {
        align: center middle;
    }
    TooSmallScreen #too-small {
        width: 100%;
        height: auto;
        text-align: center;
        color: $warning;
    }
    """

    def compose(self) -> ComposeResult:
        yield Static(too_small_words(), id="too-small", markup=False)


def keep_fitting(app: Any) -> Callable[[], None]:
    """Show :class:`TooSmallScreen` on top whenever the terminal is below the smallest size
    (as screens come and go), and take it away once it is not; the returned check is
    called again as the terminal resizes."""

    def check(_screen: Any = None) -> None:
        small = too_small(app.size)
        on_top = isinstance(app.screen, TooSmallScreen)
        if small and not on_top:
            app.push_screen(TooSmallScreen())
        elif not small and on_top:
            app.pop_screen()

    app.screen_change_signal.subscribe(app, check)
    check()
    return check
