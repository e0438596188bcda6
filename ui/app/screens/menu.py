"""The mode menu: every registered mode with its best score and whether a game waits."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from twofold.core._i18n import _
from twofold.ui.app.screens.menu_keys import menu_bindings
from twofold.ui.app.seams import TwofoldHost, TwofoldScreen
from twofold.ui.app.widgets.footer import Footer

TITLE_WIDTH = 20
PROBLEM_PREFIX = "problem:"
NOTE_PREFIX = "note:"


class MenuColumn(Vertical):
    """The menu's column: when its height changes (the terminal, a footer that wraps),
    the list is fitted again."""

    def on_resize(self) -> None:
        screen = self.screen
        if isinstance(screen, MenuScreen):
            screen.call_after_refresh(screen.fit_list)


class MenuScreen(TwofoldScreen[None]):
    """Pick a mode; Enter or a click opens it, resuming its saved game."""

    DEFAULT_CSS = """
    MenuScreen {
        align-horizontal: center;
    }
    MenuScreen #menu {
        width: 76;
        max-width: 100%;
        height: 1fr;
        padding: 1 1 0 1;
    }
    MenuScreen #menu-title {
        width: 100%;
        text-align: center;
        text-style: bold;
        color: $primary;
    }
    MenuScreen #menu-tagline {
        width: 100%;
        text-align: center;
        color: $foreground-muted;
        margin-bottom: 1;
    }
    MenuScreen #modes {
        height: auto;
    }
    MenuScreen #mode-description {
        height: auto;
        min-height: 2;
        margin-top: 1;
        padding: 0 1;
        color: $foreground-muted;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = menu_bindings()

    @property
    def twofold(self) -> TwofoldHost:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        with MenuColumn(id="menu"):
            yield Label("twofold", id="menu-title")
            yield Label(_("power-of-two merge puzzles"), id="menu-tagline")
            yield OptionList(id="modes")
            yield Static("", id="mode-description", markup=False)
        yield Footer()

    @property
    def modes(self) -> OptionList:
        return self.query_one("#modes", OptionList)

    def on_mount(self) -> None:
        self.fill()
        self.modes.focus()

    def on_screen_resume(self) -> None:
        self.twofold.prune_sessions()
        self.fill()

    def fill(self) -> None:
        """Build the list again (best scores and saves change while playing)."""
        option_list = self.modes
        keep = option_list.highlighted
        option_list.clear_options()
        app = self.twofold
        for mode in app.registry.modes.values():
            reason = app.screen_reason(mode)
            option_list.add_option(self._mode_option(mode.id, mode.title, reason))
        for problem in app.registry.problems:
            prompt = Text.assemble(
                (f"{problem.plugin:<{TITLE_WIDTH}}", "bold"),
                _("not loaded: {reason}").format(reason=problem.reason),
            )
            option_list.add_option(
                Option(prompt, id=f"{PROBLEM_PREFIX}{problem.plugin}", disabled=True)
            )
        # a loaded plugin's notes (a key twofold keeps, a failed hook): said, never "not loaded"
        for number, note in enumerate(dict.fromkeys(app.registry.notes)):
            prompt = Text.assemble((f"{note.plugin:<{TITLE_WIDTH}}", "bold"), note.reason)
            option_list.add_option(Option(prompt, id=f"{NOTE_PREFIX}{number}", disabled=True))
        if option_list.option_count:
            first_enabled = next(
                (i for i, o in enumerate(option_list.options) if not o.disabled), None
            )
            if keep is not None and keep < option_list.option_count:
                option_list.highlighted = keep
            else:
                option_list.highlighted = first_enabled
        self._describe()

    def _mode_option(self, mode_id: str, title: str, reason: str | None) -> Option:
        app = self.twofold
        if reason is not None:
            unavailable = _("unavailable: {reason}").format(reason=reason)
            prompt = Text.assemble((f"{title:<{TITLE_WIDTH}}", "bold"), unavailable)
            return Option(prompt, id=mode_id, disabled=True)
        best = app.best_score(mode_id)
        best_text = _("best {best}").format(best=best) if best else _("no games yet")
        waiting = _("▶ game in progress") if app.game_waits(mode_id) else ""
        prompt = Text.assemble(
            (f"{title:<{TITLE_WIDTH}}", "bold"),
            (f"{best_text:<18}", ""),
            (waiting, "italic"),
        )
        return Option(prompt, id=mode_id)

    @on(OptionList.OptionHighlighted, "#modes")
    def _highlighted(self) -> None:
        self._describe()

    def _describe(self) -> None:
        option = self.modes.highlighted_option
        text = ""
        if option is not None and option.id and not option.id.startswith(PROBLEM_PREFIX):
            mode = self.twofold.registry.modes.get(option.id)
            if mode is not None:
                text = mode.description
        self.query_one("#mode-description", Static).update(text)
        self.call_after_refresh(self.fit_list)

    def fit_list(self) -> None:
        """Keep the list within what the title, tagline and description leave: a long list
        scrolls inside its border, and the description under it is never pushed off."""
        menu = self.query_one("#menu")
        modes = self.modes
        others = sum(
            child.outer_size.height + child.styles.margin.height
            for child in menu.children
            if child is not modes and child.display
        )
        room = max(3, menu.content_region.height - others - modes.styles.margin.height)
        if modes.styles.max_height is None or modes.styles.max_height.value != room:
            modes.styles.max_height = room

    @on(OptionList.OptionSelected, "#modes")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id and not event.option.disabled:
            self.twofold.open_mode(event.option.id)

    def action_open(self) -> None:
        option = self.modes.highlighted_option
        if option is not None and option.id and not option.disabled:
            self.twofold.open_mode(option.id)

    def action_help(self) -> None:
        from twofold.ui.app.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(None))

    def action_statistics(self) -> None:
        from twofold.ui.app.screens.statistics import StatisticsScreen

        option = self.modes.highlighted_option
        mode_id = option.id if option is not None and not option.disabled else None
        self.app.push_screen(StatisticsScreen(mode_id))

    def action_settings(self) -> None:
        from twofold.ui.app.screens.settings import SettingsScreen

        self.app.push_screen(SettingsScreen())
