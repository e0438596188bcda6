"""The Textual app: the mode menu, and a game screen per mode chosen by its controls.

``run_app`` is what ``twofold`` and ``twofold play MODE`` call. The app holds the
registry, the store and the settings; screens reach them through ``self.app``.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from textual import events
from textual.app import SystemCommand
from textual.screen import Screen

from twofold.core._i18n import _, retranslate
from twofold.core._rules import Mode, PositionError
from twofold.core.plugins import PluginFault, Registry
from twofold.core.session import FinishedGame, Session
from twofold.core.settings import Settings
from twofold.core.storage import Store
from twofold.ui.app import terminal
from twofold.ui.app.controls import PLAYS
from twofold.ui.app.language import TranslatedApp
from twofold.ui.app.seams import AppHost, TwofoldScreen, twofold_screens
from twofold.ui.app.textual_private import node_bindings

ScreenFactory = Callable[[Session], Screen[Any]]


def _module_exists(name: str) -> bool:
    """Whether ``name`` can be imported, without importing it."""
    if name in sys.modules:
        return sys.modules[name] is not None
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


class TwofoldApp(TranslatedApp):
    """twofold's app: a menu of every registered mode and a screen to play each.

    TranslatedApp puts Textual's own words (palette, key names) in the player's language.
    """

    CSS_PATH = "app.tcss"
    TITLE = "twofold"

    def __init__(
        self,
        registry: Registry,
        store: Store,
        *,
        mode_id: str | None = None,
        code: str | None = None,
        position: Mapping[str, Any] | None = None,
    ) -> None:
        """:param store: the player's store (``twofold.core.store.open_store``)."""
        super().__init__()
        self.registry = registry
        self.store = store
        self.settings: Settings = store.load_settings()
        self.start_mode = mode_id
        self.start_code = code
        self.start_position = position
        #: sessions whose screens are open; closed (saved) on quit
        self.sessions: list[Session] = []
        #: controls whose screen failed to import -> the reason, shown in the menu
        self._broken_screens: dict[str, str] = {}
        self._opening_blur_passed = False
        #: shows or takes away the too-small screen (set once the first screens are up)
        self._fit_check: Callable[[], None] | None = None

    # -- settings ----------------------------------------------------------------------------

    @property
    def reduced_motion(self) -> bool:
        """The reduced-motion setting, or Textual's ``TEXTUAL_ANIMATIONS=none``."""
        return self.settings.reduced_motion or self.animation_level == "none"

    def apply_settings(self, settings: Settings) -> bool:
        """Use ``settings`` now (theme, keys, language) without saving them.

        Returns True when the language changed, so the screens should be built again.
        """
        self.settings = settings
        theme = settings.theme if settings.theme in self.available_themes else "textual-dark"
        self.theme = theme
        # Textual's keymap: binding id -> keys; an empty map gives every default back.
        self.set_keymap({k: v for k, v in settings.keymap.items() if isinstance(v, str) and v})
        return self.switch_language(settings.language or None)

    def save_settings(self, settings: Settings) -> bool:
        """Use and keep ``settings``; True when the language changed (see apply_settings)."""
        changed = self.apply_settings(settings)
        self.store.save_settings(settings)
        self.tell_store_notice()
        for screen in twofold_screens(self.screen_stack):
            screen.apply_settings()
        return changed

    def rebuild_screens(self) -> None:
        """Build every screen again in the current language, as a restart would.

        The screens are popped (a game screen saves its game as it goes), the registry's
        titles and descriptions are made again, and the menu, the games that were open
        (resumed from their saves) and the Settings screen come back in the same order.

        The work runs from the app's own message queue: awaiting it inside a handler of
        a screen it pops would wait for that screen forever.
        """
        self.call_later(self._rebuild)

    async def _rebuild(self) -> None:
        from twofold.core import plugins
        from twofold.ui.app.keys import KeyBindingsScreen
        from twofold.ui.app.screens.menu import MenuScreen
        from twofold.ui.app.screens.settings import SettingsScreen

        stack = list(self.screen_stack)[1:]
        games = [s.session for s in twofold_screens(stack) if s.session is not None]
        tops = [s for s in stack if isinstance(s, SettingsScreen | KeyBindingsScreen)]
        for screen in twofold_screens(stack):
            # the games go on: their screens let go of them without closing their sessions,
            # so no game is replaced, ended or dropped (a second window keeps its own game)
            screen.keep_session()
        while len(self.screen_stack) > 1:
            await self.pop_screen()
        if self.registry is plugins.registry():
            # mode titles and descriptions are made in the language of their registration
            plugins.reset()
            self.registry = plugins.registry()
        await self.push_screen(MenuScreen())
        for session in games:
            self.reopen(session)
        for screen in tops:
            await self.push_screen(type(screen)())

    # -- records -----------------------------------------------------------------------------

    def best_score(self, mode_id: str, *, live: bool = True) -> int:
        """The records' best score; ``live=False``: of finished games only (a game screen
        adds its own game's score, as it changes, so undo brings Best down with it)."""
        best = int(self.store.records(mode_id, live=live).best)
        if self.is_running:  # e.g. finished games that could not be read
            self.tell_store_notice()
        return best

    def tell_store_notice(self) -> None:
        """Show the store's notice (how the file opened, rows that did not read) once."""
        notice = self.store.take_notice()
        if notice:
            self.notify(notice, severity="warning", timeout=10)

    def has_save(self, mode_id: str) -> bool:
        return bool(self.store.has_save(mode_id))

    def game_waits(self, mode_id: str) -> bool:
        """Whether the mode's saved game is still to play (the menu's "game in progress")."""
        return bool(self.store.game_waits(mode_id))

    # -- modes -------------------------------------------------------------------------------

    def screen_reason(self, mode: Mode) -> str | None:
        """Why ``mode`` cannot be played here, or None; cheap enough for the menu.

        A screen is only looked for, not imported, so the menu opens fast; a screen that
        then fails to import is remembered and its modes greyed.
        """
        where = PLAYS.get(mode.controls)
        if where is None:
            return _("this app has no screen for {controls!r} controls").format(
                controls=mode.controls
            )
        if mode.controls in self._broken_screens:
            return self._broken_screens[mode.controls]
        if not _module_exists(where[0]):
            return _("no screen for {controls} games is installed").format(controls=mode.controls)
        return None

    def screen_factory(self, mode: Mode) -> tuple[ScreenFactory | None, str | None]:
        """The screen class that plays ``mode``, or None and why it cannot be played."""
        reason = self.screen_reason(mode)
        if reason is not None:
            return None, reason
        module_name, class_name = PLAYS[mode.controls]
        try:
            module = __import__(module_name, fromlist=[class_name])
            factory = _game_screen(getattr(module, class_name))
        except Exception as error:  # a broken screen greys its modes, never a crash
            reason = _("the {controls} screen failed to load ({error})").format(
                controls=mode.controls, error=type(error).__name__
            )
            self._broken_screens[mode.controls] = reason
            return None, reason
        return factory, None

    def open_mode(
        self,
        mode_id: str,
        *,
        code: str | None = None,
        position: Mapping[str, Any] | None = None,
    ) -> bool:
        """Open a mode's screen, resuming its saved game (or starting the given one)."""
        try:
            mode = self.registry.mode(mode_id)
        except KeyError:
            self.notify(_("There is no mode {mode!r}.").format(mode=mode_id), severity="error")
            return False
        factory, reason = self.screen_factory(mode)
        if factory is None:
            self.notify(
                _("{mode} cannot be played: {reason}").format(mode=mode.title, reason=reason),
                severity="error",
            )
            from twofold.ui.app.screens.menu import MenuScreen

            if isinstance(self.screen, MenuScreen):
                self.screen.fill()  # the menu greys the mode from now on
            return False
        self.prune_sessions()
        try:
            session = Session(
                mode,
                self.store,
                on_finished=self._finished,
                on_notice=self.saving_notice,
                plugin=self.registry.owner(mode.id),
            )
            if code is not None or position is not None:
                try:
                    session.new_game(code, position=position)
                except (PositionError, ValueError) as error:
                    self.notify(str(error), severity="error")
        except PluginFault as fault:  # the mode's rules failed to start a game: stay here
            self.notify(str(fault), severity="error", timeout=10)
            return False
        self.sessions.append(session)
        self.push_screen(factory(session), lambda _result: self.forget_session(session))
        return True

    def reopen(self, session: Session) -> bool:
        """Show a session's game again on a new screen (the screens were built anew).

        The session, its seat and its game stay as they were; only the mode is taken from
        the registry again, for its words in the current language.
        """
        mode = self.registry.modes.get(session.mode.id, session.mode)
        factory, _reason = self.screen_factory(mode)
        if factory is None:
            session.close()
            return False
        session.mode = session.game.mode = mode
        if session not in self.sessions:
            self.sessions.append(session)
        self.push_screen(factory(session), lambda _result: self.forget_session(session))
        return True

    def _finished(self, finished: FinishedGame) -> None:
        # a plugin's failing hook is told here, where the game was played; the game is kept
        result = dataclasses.asdict(finished)
        for problem in self.registry.notify_finished(finished.mode_id, result):
            self.notify(str(problem), severity="warning", timeout=10)
        for screen in twofold_screens(self.screen_stack):
            if screen.session is not None:
                screen.call_later(screen.refresh_best)

    def saving_notice(self, text: str) -> None:
        """Saving failed, failed otherwise, or works again (Session.on_notice): say so."""
        self.notify(text, severity="warning", timeout=10)

    def forget_session(self, session: Session) -> None:
        if session in self.sessions:
            self.sessions.remove(session)

    def prune_sessions(self) -> None:
        """Forget sessions whose screens are gone, so quitting never saves a stale game."""
        open_ = {id(screen.session) for screen in twofold_screens(self.screen_stack)}
        self.sessions = [s for s in self.sessions if id(s) in open_]

    def close_sessions(self) -> None:
        """Save every open game (quitting)."""
        for screen in twofold_screens(self.screen_stack):
            screen.close_session()
        for session in self.sessions:
            session.close()
        self.sessions.clear()

    # -- the app -----------------------------------------------------------------------------

    def on_mount(self) -> None:
        from twofold.ui.app.links import follow_page_title
        from twofold.ui.app.screens.menu import MenuScreen

        self.apply_settings(self.settings)
        self.push_screen(MenuScreen())
        follow_page_title(self)
        self.tell_store_notice()
        if self.start_mode is not None:
            self.open_mode(self.start_mode, code=self.start_code, position=self.start_position)
        terminal.watch(self, self.terminal_gone)
        self.call_after_refresh(self._keep_fitting)

    def _keep_fitting(self) -> None:
        from twofold.ui.app.screens.too_small import keep_fitting

        # an app closed before its first refresh has no screens left to fit (nor signals)
        if not self.is_running:
            return
        self._fit_check = keep_fitting(self)

    def on_resize(self, event: events.Resize) -> None:
        if self._fit_check is not None:
            self.call_after_refresh(self._fit_check)

    def terminal_gone(self) -> None:
        """The terminal went away (hangup, stdin closed): save everything and end now."""
        self.close_sessions()
        self.store.close()
        terminal.end_soon(terminal.HUNG_UP)
        self.exit(terminal.HUNG_UP)

    def on_app_blur(self, event: events.AppBlur) -> None:
        # a served app starts with a blur from Textual's web driver, not from the player:
        # taken at its word, it would pause a 2248 game the moment its page opens
        if self.is_web and not self._opening_blur_passed:
            self._opening_blur_passed = True
            event.prevent_default()

    async def action_quit(self) -> None:
        self.close_sessions()
        self.exit(0)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Every action of the current screen, then Textual's own (theme, keys, quit).

        Its described bindings come first; a screen may add actions that have no key of
        their own with ``palette_extras()`` returning ``(title, help, callback)`` triples.
        """
        yield from screen_commands(screen)
        if isinstance(screen, TwofoldScreen):
            for title, help_text, callback in screen.palette_extras():
                yield SystemCommand(title, help_text, callback)
        yield from super().get_system_commands(screen)


def _game_screen(play: type[Any]) -> ScreenFactory:
    """The one game screen, composing the play widget ``play``."""
    from twofold.ui.app.screens.game import GameScreen

    return lambda session: GameScreen(session, play=play)


def screen_commands(screen: Screen[Any]) -> Iterable[SystemCommand]:
    """A palette command for each described, currently possible binding of ``screen``."""
    # the bindings the screen runs: a game's are its mode's (its own directions...), on its
    # play widget, which runs its own actions and leaves ``screen.*`` ones to the screen
    node: Any = screen.keys_node if isinstance(screen, TwofoldScreen) else screen
    seen: set[str] = set(getattr(node, "PALETTE_HIDDEN", ()))
    running = [b for on_key in node_bindings(node).key_to_bindings.values() for b in on_key]
    for binding in {id(b): b for b in running}.values():
        if binding.action in seen or not binding.description or binding.system:
            continue
        target, action = node, binding.action
        if action.startswith("screen."):
            target, action = screen, action.removeprefix("screen.")
        name, _sep, rest = action.partition("(")
        if name in seen:
            continue
        seen.add(binding.action)
        if "." in name:
            continue  # app.* bindings are Textual's own commands
        parameters = tuple(_parameters(rest.rstrip(")")))
        if target.check_action(name, parameters) is not True:
            continue
        # Grouped bindings share a description ("Move"); their tooltips tell them apart.
        title = (binding.tooltip if binding.group else binding.description) or binding.description
        # BINDINGS keep the language of their import (retranslate gives today's), and
        # the key is the one the player chose, as the Footer shows it
        title, tooltip = retranslate(title), retranslate(binding.tooltip)
        host = screen.app if isinstance(screen.app, AppHost) else None
        chosen = (host.settings if host else Settings()).keymap.get(binding.id or "")
        shown = binding.with_key(chosen.split(",")[0]) if chosen else binding
        key = _("Key: {key}").format(key=screen.app.get_key_display(shown))
        help_text = f"{tooltip} ({key})" if tooltip else key
        yield SystemCommand(title, help_text, _runner(target, action))


def _parameters(text: str) -> list[str]:
    return [part.strip().strip("'\"") for part in text.split(",") if part.strip()]


def _runner(node: Any, action: str) -> Callable[[], Any]:
    async def run() -> None:
        await node.run_action(action)

    return run


def run_app(
    mode_id: str | None = None,
    *,
    code: str | None = None,
    position: dict[str, Any] | None = None,
) -> int:
    """Run the app: the menu, or ``mode_id``'s game (its save, or the given code/position)."""
    from twofold.core.plugins import registry
    from twofold.core.store import open_store

    store = open_store()
    registry_ = registry()
    if mode_id is not None and mode_id.lower() not in registry_.modes:
        print(_("twofold: there is no mode {mode!r}").format(mode=mode_id), file=sys.stderr)
        store.close()
        return 2
    app = TwofoldApp(registry_, store, mode_id=mode_id, code=code, position=position)
    try:
        result = app.run()
    finally:
        app.close_sessions()
        store.close()
    return int(result or 0)
