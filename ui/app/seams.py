"""What the app and its screens ask of each other, declared here and never probed.

Every screen of twofold is a :class:`TwofoldScreen`: its keys are drawn in the player's
language (``TranslatedScreen``), and it has the hooks the app calls as it walks its stack
to save settings, refresh records, keep or close games and fill the command palette;
each hook does nothing until a screen has something to do. A screen asks its app for
settings, modes and saving through :class:`AppHost`, which ``TwofoldApp`` is; on another
app (a test's own) :attr:`TwofoldScreen.host` is None and the screen keeps its defaults.
The screens that only ever run on twofold's app (the menu, statistics, settings, a game)
see it as a :class:`TwofoldHost`, so no screen imports the app that opens it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

from textual.dom import DOMNode
from textual.screen import Screen

from twofold.core._rules import Mode
from twofold.core.plugins import Registry
from twofold.core.session import Session
from twofold.core.settings import Settings
from twofold.core.storage import Store
from twofold.ui.app.language import TranslatedScreen

ResultT = TypeVar("ResultT")

#: an action of the command palette with no key of its own: (title, help, run it)
PaletteAction = tuple[str, str, Callable[[], Any]]


@runtime_checkable
class AppHost(Protocol):
    """What a screen may ask of the app it is on."""

    settings: Settings
    registry: Registry

    def save_settings(self, settings: Settings) -> bool:
        """Use and keep ``settings``; True when the language changed."""
        ...


class TwofoldHost(AppHost, Protocol):
    """All that twofold's own screens ask of its app (``TwofoldApp`` is one)."""

    store: Store

    def best_score(self, mode_id: str, *, live: bool = True) -> int:
        """The records' best score (``live=False``: of finished games only)."""
        ...

    def game_waits(self, mode_id: str) -> bool:
        """Whether a saved game of the mode waits to be resumed."""
        ...

    def screen_reason(self, mode: Mode) -> str | None:
        """Why the mode cannot be played in this app, or None."""
        ...

    def open_mode(self, mode_id: str) -> bool:
        """Open the mode's screen, resuming its saved game; False if it cannot be played."""
        ...

    def prune_sessions(self) -> None:
        """Let go of the sessions whose screens have closed."""
        ...

    def rebuild_screens(self) -> None:
        """Build every screen again in the current language, as a restart would."""
        ...


class TwofoldScreen(TranslatedScreen[ResultT]):
    """A screen of twofold: its keys drawn in the player's language, and the hooks the app
    calls as it walks its stack."""

    #: actions the command palette leaves out (they are reached another way)
    PALETTE_HIDDEN: ClassVar[frozenset[str]] = frozenset()
    #: the game this screen plays, if it plays one
    session: Session | None = None

    @property
    def host(self) -> AppHost | None:
        """The twofold app this screen is on, or None on another app."""
        return self.app if isinstance(self.app, AppHost) else None

    def apply_settings(self) -> None:
        """The player's settings changed: redraw what follows them."""

    def refresh_best(self) -> None:
        """A game was recorded: show the records as they are now."""

    def keep_session(self) -> None:
        """Leave without closing the game: another screen takes it on (a language switch)."""

    def close_session(self) -> None:
        """Save the game played here and let it go (leaving the screen, or quitting)."""

    @property
    def keys_node(self) -> DOMNode:
        """The node whose bindings are this screen's keys (a game's are its play widget's)."""
        return self

    def palette_extras(self) -> Iterable[PaletteAction]:
        """Actions with no key of their own, for the command palette."""
        return ()


def twofold_screens(stack: Iterable[Screen[Any]]) -> list[TwofoldScreen[Any]]:
    """The screens of ``stack`` that take part (Textual's own, such as the palette, do not)."""
    return [screen for screen in stack if isinstance(screen, TwofoldScreen)]
