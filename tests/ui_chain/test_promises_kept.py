"""Promises the app makes, in both games, kept through the real app."""

from __future__ import annotations

import dataclasses
import io
import json
import re
from collections.abc import Sequence
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Sparkline

from tests.ui_chain.conftest import (
    CODE,
    DAY,
    FakeClock,
    board_of,
    drag,
    ladder,
    make_app,
    no_pairs,
    playing,
)
from twofold.core._capabilities import Hint
from twofold.core.session import Session
from twofold.core.settings import Settings
from twofold.core.store import open_store
from twofold.ui.app.app import TwofoldApp, screen_commands
from twofold.ui.app.board.chain import ChainBoard
from twofold.ui.app.board.slide import SlideBoard
from twofold.ui.app.dialogs import ConfirmDialog
from twofold.ui.app.screens import help as help_screen
from twofold.ui.app.screens.chain import ChainPlay
from twofold.ui.app.screens.chain import dialogs as chain_dialogs
from twofold.ui.app.screens.chain.dialogs import ChainResultDialog, NoMoreMovesDialog
from twofold.ui.app.screens.game import GameScreen
from twofold.ui.app.screens.help import HelpScreen, help_markdown
from twofold.ui.app.screens.slide import SlidePlay
from twofold.ui.app.screens.statistics import StatisticsScreen
from twofold.ui.lines import run_lines


def keys_in_help(*args: Any) -> Any:
    return help_screen.keys_in_help(*args)


def screen_keys(screen: Any) -> Any:
    return help_screen.screen_keys(screen.keys_node)  # a game's keys are its play widget's


def pairs_board() -> dict[str, Any]:
    """No pairs but two side by side at the bottom: (7,0)+(7,1) and (7,3)+(7,4) each merge."""
    board = no_pairs()
    board[7] = [2, 2, 256, 1024, 1024]
    return {"board": board}


async def until(pilot: Pilot[Any], condition: Any, tries: int = 400) -> None:
    """Wait on a condition, never on a fixed sleep."""
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.01)
    assert condition()


def burst(app: TwofoldApp, keys: Sequence[str]) -> None:
    """Send keys as a terminal does in a burst: all at once, with no pause for the app (a
    driver posts each key it reads to the app's queue, as this does)."""
    names = {"space": " ", "enter": "\r"}
    for key in keys:
        event = events.Key(key, names.get(key))
        event.set_sender(app)
        app.post_message(event)


def replayed(mode_id: str, code: str, commands: list[str], position: Any = None) -> dict[str, Any]:
    """The last reply of ``twofold play MODE --json`` fed ``commands``."""
    from twofold.core.plugins import registry
    from twofold.core.store import memory_store

    session = Session(registry().mode(mode_id), memory_store(today=lambda: DAY))
    session.new_game(code, position=position)
    out = io.StringIO()
    run_lines(session, json_mode=True, stdin=commands, stdout=out)
    return json.loads(out.getvalue().splitlines()[-2])  # the one before quit's


# -- 1. Z undoes in 2248; Help comes from the very bindings ----------------------------------------


async def test_z_undoes_in_2248() -> None:
    async with playing(position={"board": ladder()}) as (pilot, screen):
        before = screen.state
        await drag(pilot, board_of(screen), [(7, 0), (7, 1), (7, 2)])
        assert screen.state.score > 0
        await pilot.press("z")
        await pilot.pause()
        assert screen.state.board == before.board
        assert screen.session.game.log[-1] == "undo"


@pytest.mark.parametrize("mode_id", ["2048", "2048-daily", "2248", "2248-daily", "2248-blitz"])
async def test_help_lists_exactly_the_keys_the_screen_runs(mode_id: str) -> None:
    """Every key Help names runs that action on the screen, and every key run is named."""
    keymap = {"chain.undo": "x,ctrl+z", "slide.undo": "x,ctrl+z"}
    app = make_app(Settings(tutorial_seen=True, keymap=keymap))
    async with app.run_test(size=(100, 32)) as pilot:
        mode = app.registry.mode(mode_id)
        session = Session(mode, app.store, clock=FakeClock(), today=lambda: DAY)
        screen = (
            GameScreen(session, play=ChainPlay)
            if mode.controls == "chain"
            else GameScreen(session, play=SlidePlay)
        )
        await app.push_screen(screen)
        await pilot.pause()
        listed = {
            key: binding.action
            for binding, keys in keys_in_help(screen_keys(screen), keymap, mode)
            for key in keys
        }
        # what Textual would run for each key of the screen, with the player's keymap
        # private: every key Textual runs; active_bindings leaves out the ones check_action hides
        chain = dict(screen._binding_chain)
        runs = {
            key: bindings[0].action
            for key, bindings in chain[screen.keys_node].key_to_bindings.items()
            if bindings[0].id is not None
        }
        assert listed == runs
        assert listed["x"] == "screen.undo" and "u" not in listed
        markdown = help_markdown(mode, keymap, screen_keys(screen))
        undo_row = next(line for line in markdown.splitlines() if "| Undo | Take back" in line)
        assert "X" in undo_row and "U," not in undo_row
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


async def test_2248_help_names_z_for_undo() -> None:
    async with playing() as (pilot, screen):
        await pilot.press("question_mark")
        await pilot.pause()
        help_screen = app_screen(pilot)
        assert isinstance(help_screen, HelpScreen)
        text = help_markdown(screen.mode, None, screen_keys(screen))
        assert "| U, Z, Ctrl+Z | Undo |" in text


def app_screen(pilot: Pilot[Any]) -> Any:
    return pilot.app.screen


# -- 2. no per-move hint in 2048; a plugin slide mode's hint is never on a move key ----------------


def slide_app(mode_id: str = "2048", mode: Any = None) -> tuple[TwofoldApp, Session]:
    app = make_app()
    mode = mode or app.registry.mode(mode_id)
    session = Session(mode, app.store, clock=FakeClock(), today=lambda: DAY)
    return app, session


async def test_2048_offers_no_hint_in_palette_help_or_keys() -> None:
    app, session = slide_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = GameScreen(session, play=SlidePlay)
        await app.push_screen(screen)
        await pilot.pause()
        titles = [command.title for command in screen_commands(screen)]
        assert "Hint" not in titles and "Watch the solver" in titles
        text = help_markdown(session.mode, None, screen_keys(screen))
        assert "Hint" not in text
        assert sum(line.split("|")[1].count("H") for line in text.splitlines() if "|" in line) == 1
        before = session.game.state
        await pilot.press("h")  # h moves left, nothing else
        assert session.game.log in ([], ["left"])
        assert screen.announcer.text != "" and "Hint" not in screen.announcer.text
        assert session.game.state.moves in (before.moves, before.moves + 1)


async def test_a_plugin_slide_modes_hint_is_never_on_a_move_key() -> None:
    app, _session = slide_app()
    mode = dataclasses.replace(app.registry.mode("2048"), id="hinted", hint=lambda s: Hint("up"))
    session = Session(mode, app.store, clock=FakeClock(), today=lambda: DAY)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = GameScreen(session, play=SlidePlay)
        await app.push_screen(screen)
        await pilot.pause()
        rows = keys_in_help(screen_keys(screen), None, mode)
        moves = {k for b, keys in rows if b.action.startswith("move") for k in keys}
        hints = {k for b, keys in rows if b.action == "screen.hint" for k in keys}
        assert hints and not hints & moves
        await pilot.press(*hints)
        await pilot.app.workers.wait_for_complete()
        await until(pilot, lambda: "Hint: Move up" in screen.announcer.text)


# -- 4. input is never lost: bursts with no pause --------------------------------------------------

#: two chains from the keyboard, from the top left: (7,0)+(7,1), then (7,3)+(7,4), in one burst
KEYS_2248 = [
    *["down"] * 7, "space", "right", "space", "enter",
    *["right"] * 2, "space", "right", "space", "enter",
]  # fmt: skip


@pytest.mark.parametrize("reduced", [False, True])
async def test_a_burst_of_keys_in_2248_loses_nothing(reduced: bool) -> None:
    settings = Settings(tutorial_seen=True, reduced_motion=reduced)
    async with playing(position=pairs_board(), settings=settings) as (pilot, screen):
        board = board_of(screen)
        board.cursor, board.cursor_shown = (0, 0), True
        burst(pilot.app, KEYS_2248)
        await until(pilot, lambda: len(screen.session.game.log) >= 2)
        await pilot.pause()
        log = screen.session.game.log
        assert log == ["chain 7,0 7,1", "chain 7,3 7,4"]
        reply = replayed("2248", CODE, [*log, "quit"], pairs_board())
        assert screen.state.score == reply["score"]
        assert [list(row) for row in screen.state.board] == reply["board"]


async def test_a_chain_started_at_once_after_a_merge_is_applied() -> None:
    """Release a chain and press on the next pair at once, as a quick hand does."""
    async with playing(position=pairs_board()) as (pilot, screen):
        board = board_of(screen)
        app = pilot.app
        origin = board.region.offset
        presses = [
            (events.MouseDown, (7, 0)),
            (events.MouseMove, (7, 1)),
            (events.MouseUp, (7, 1)),
            (events.MouseDown, (7, 3)),
            (events.MouseMove, (7, 4)),
            (events.MouseUp, (7, 4)),
        ]
        for kind, cell in presses:
            x, y = origin + board.cell_offset(cell)
            # as Pilot sends mouse events, less its pause for the app between two of them
            event = kind(board, x, y, 0, 0, 1, False, False, False, screen_x=x, screen_y=y)
            app.mouse_position = (x, y)
            # private: how Pilot itself delivers a mouse event, here without its pause between two
            app.screen._forward_event(event)
        await until(pilot, lambda: len(screen.session.game.log) >= 2)
        assert screen.session.game.log == ["chain 7,0 7,1", "chain 7,3 7,4"]
        reply = replayed("2248", CODE, [*screen.session.game.log, "quit"], pairs_board())
        assert screen.state.score == reply["score"]


async def test_a_burst_of_moves_in_2048_loses_nothing() -> None:
    app, session = slide_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = GameScreen(session, play=SlidePlay)
        await app.push_screen(screen)
        await pilot.pause()
        code = session.game.code
        keys = ["left", "up", "right", "down", "h", "k", "l", "j"] * 3
        burst(app, keys)
        await until(pilot, lambda: screen.board is not None)
        await pilot.pause()
        await pilot.pause()
        words = {"h": "left", "k": "up", "l": "right", "j": "down"}
        wanted = [words.get(k, k) for k in keys]
        reply = replayed("2048", code, [*wanted, "quit"])
        await until(pilot, lambda: session.game.state.moves == reply["moves"])
        assert session.game.state.score == reply["score"]
        assert [list(row) for row in session.game.state.board] == reply["board"]
        assert screen.query_one(SlideBoard).board == session.game.state.board


# -- 5. a setting changed in a second window keeps that window's game ------------------------------


async def test_a_language_change_in_a_second_window_keeps_its_game() -> None:
    first_store = open_store(owner="window-one")
    second_store = open_store(owner="window-two")
    try:
        for store in (first_store, second_store):
            store.save_settings(Settings(tutorial_seen=True))
        from twofold.core.plugins import registry

        one = TwofoldApp(registry(), first_store, mode_id="2248")
        two = TwofoldApp(registry(), second_store, mode_id="2248")
        async with one.run_test(size=(80, 24)) as pilot_one:
            await until(pilot_one, lambda: isinstance(getattr(one.screen, "play", None), ChainPlay))
            async with two.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: isinstance(getattr(two.screen, "play", None), ChainPlay))
                screen = two.screen
                assert isinstance(getattr(screen, "play", None), ChainPlay)
                session = screen.session
                assert not session.seated  # the first window holds the save
                hint = session.mode.hint(session.game.state)  # type: ignore[misc]
                assert hint is not None
                screen.act(hint.action)
                game_id, score = session.game.game_id, session.game.state.score
                assert score > 0
                await pilot.press("comma")
                await until(pilot, lambda: two.screen.__class__.__name__ == "SettingsScreen")
                two.screen.query_one("#setting-language").value = "de"
                await until(
                    pilot,
                    lambda: (
                        two.screen.__class__.__name__ == "SettingsScreen"
                        and len(two.screen_stack) >= 3
                        and isinstance(getattr(two.screen_stack[-2], "play", None), ChainPlay)
                        and two.screen_stack[-2] is not screen
                    ),
                )
                await pilot.press("escape")
                await until(pilot, lambda: isinstance(getattr(two.screen, "play", None), ChainPlay))
                again = two.screen
                assert again is not screen
                assert again.session.game.game_id == game_id
                assert again.session.game.state.score == score
                assert again.session is session
    finally:
        from twofold.core import _i18n as i18n

        i18n.set_language("en")
        first_store.close()
        second_store.close()


# -- 6. "No more moves" gives way to the result by itself ------------------------------------------


async def test_no_more_moves_then_the_result_with_no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chain_dialogs, "NO_MORE_MOVES_SECONDS", 0.2, raising=False)
    timed_out: list[str] = []
    own = getattr(NoMoreMovesDialog, "_on_its_own", lambda dialog: None)

    def on_its_own(dialog: NoMoreMovesDialog) -> None:
        timed_out.append(dialog.title_text)
        own(dialog)

    # private: the dialog's own timeout, counted; nothing public tells it went by itself
    monkeypatch.setattr(NoMoreMovesDialog, "_on_its_own", on_its_own, raising=False)
    position = {"board": no_pairs(), "powerups": {"hammer": 0, "swap": 0, "shuffle": 0, "undo": 0}}
    async with playing(position=position) as (pilot, _screen):
        await until(pilot, lambda: isinstance(pilot.app.screen, ChainResultDialog))
        assert timed_out == ["No more moves"]  # the word came first, and went by itself


# -- 7. an empty plot is its sentence alone --------------------------------------------------------


@pytest.mark.parametrize("mode_id", ["2048", "2248"])
async def test_statistics_with_no_finished_game_draw_no_block(mode_id: str) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(StatisticsScreen(mode_id))
        await pilot.pause()
        plot = app.screen.query_one("#stats-scores", Sparkline)
        assert not plot.display or plot.region.height == 0
        assert "█" not in app.export_screenshot()
        assert "No finished games yet." in str(app.screen.query_one("#stats-scores-range").render())


# -- 8. Restart asks before replacing a game with points -------------------------------------------


async def test_restart_asks_first_in_2248() -> None:
    async with playing(position={"board": ladder()}) as (pilot, screen):
        await drag(pilot, board_of(screen), [(7, 0), (7, 1), (7, 2)])
        played = screen.session.game.game_id
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmDialog)
        await pilot.press("escape")
        await pilot.pause()
        assert screen.session.game.game_id == played and screen.state.score > 0
        await pilot.press("ctrl+r")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert screen.session.game.game_id != played and screen.state.score == 0


async def test_restart_asks_first_in_2048() -> None:
    position = {"board": [[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]]}
    app, session = slide_app()
    session.new_game(CODE, position=position)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = GameScreen(session, play=SlidePlay)
        await app.push_screen(screen)
        await pilot.pause()
        await pilot.press("left")
        assert session.game.state.score > 0
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        await pilot.pause()
        assert session.game.state.score > 0


# -- 9. the solver's game never stands as Best -----------------------------------------------------


async def test_watch_the_solver_never_touches_best() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        mode = app.registry.mode("2248")
        session = Session(mode, app.store, clock=FakeClock(), today=lambda: DAY)
        session.new_game(CODE)
        screen = GameScreen(session, play=ChainPlay)
        await app.push_screen(screen)
        await pilot.pause()
        hint = mode.hint(session.game.state)  # type: ignore[misc]
        assert hint is not None
        screen.act(hint.action)  # the player scores first: live, it is the best so far
        assert app.best_score("2248") == session.game.state.score > 0
        await pilot.press("v", "y")  # asked first: the game stops counting
        await pilot.pause()
        await pilot.press("v")  # and takes the board back
        await pilot.pause()
        assert session.game.flags.solver
        assert app.store.records("2248").best == 0
        assert str(screen.topbar.query_one("#topbar-best").render()) == "Best 0"


# -- 10. the small things --------------------------------------------------------------------------


async def test_b_with_no_last_game_says_why() -> None:
    async with playing() as (pilot, screen):
        screen.session.previous = None  # the fixture's own opening game is no last game
        await pilot.press("b")
        await pilot.pause()
        assert "no earlier game" in screen.announcer.text


async def test_sample_is_not_a_key_of_2248() -> None:
    async with playing() as (_pilot, screen):
        keys = {k for _b, ks in keys_in_help(screen_keys(screen), None, screen.mode) for k in ks}
        assert "e" not in keys
        assert "e" not in screen.active_bindings
        assert "Sample" not in [c.title for c in screen_commands(screen)]


async def test_copy_result_has_no_capital_mid_sentence() -> None:
    async with playing(position={"board": ladder()}) as (pilot, screen):
        await drag(pilot, board_of(screen), [(7, 0), (7, 1), (7, 2)])
        text = screen.result_text().splitlines()[0]
        sentence = text.split(": ", 1)[1]
        for part in sentence.split(" · "):
            words = part.split()
            assert all(not w[0].isupper() for w in words[1:] if w[0].isalpha()), part


async def test_too_small_a_terminal_gets_the_whole_sentence_and_reachable_buttons() -> None:
    app = make_app(Settings())  # the tutorial shows on first launch
    async with app.run_test(size=(44, 20)) as pilot:  # the smallest: the board does not fit
        mode = app.registry.mode("2248")
        session = Session(mode, app.store, clock=FakeClock(), today=lambda: DAY)
        screen = GameScreen(session, play=ChainPlay)
        await app.push_screen(screen)
        # the tutorial on top, and composed (it is on top a moment before: failed under load)
        await until(pilot, lambda: app.screen is not screen and app.screen.query("#tutorial-title"))
        tutorial = app.screen
        title = tutorial.query_one("#tutorial-title")
        await until(pilot, lambda: title.region.area > 0)  # laid out
        await pilot.pause()
        skip = tutorial.query_one("#tutorial-skip")
        assert tutorial.region.contains_region(skip.region) and skip.region.area > 0
        await pilot.click("#tutorial-skip")
        await until(pilot, lambda: app.screen is screen)
        board = screen.query_one(ChainBoard)
        text = " ".join(
            str(s.text).strip() for s in [board.render_line(y) for y in range(board.size.height)]
        )
        # the whole sentence, wrapped to the board's width, with the size that fits it
        needed = re.search(r"make it at least (\d+)x(\d+)\.", " ".join(text.split()))
        assert needed and int(needed[1]) <= 44 and int(needed[2]) > 20  # taller, not wider
