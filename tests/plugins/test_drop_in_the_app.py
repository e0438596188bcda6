"""The drop example in the app: place controls by click and by keys, the aim and its
preview, empty cells drawn as a grid, the next blocks beside the board, falls animated.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import twofold_drop
from textual.pilot import Pilot
from textual.widgets import Static

from tests.core.toy import TALLY
from tests.plugins.playing import Body, play_in_the_app
from twofold.core import plugins
from twofold.core._events import Appeared, Fell, Merged
from twofold.core._presentation import TutorialPage
from twofold.core._rules import Mode
from twofold.core.codes import code_from_text
from twofold.plugin import hookimpl
from twofold.ui.app.app import TwofoldApp
from twofold.ui.app.board.motion import plan
from twofold.ui.app.board.place import PlaceBoard
from twofold.ui.app.screens.place import PlacePlay
from twofold.ui.app.screens.slide import SlidePlay
from twofold.ui.app.screens.tutorial import TutorialScreen

CODE = code_from_text("drop")


def in_the_app(
    body: Body,
    *,
    registry: plugins.Registry | None = None,
    mode_id: str = "drop",
    seen: tuple[str, ...] = ("drop",),
    motion: bool = False,
) -> None:
    if registry is None:
        registry = plugins.load([("drop", twofold_drop)], entry_points_=[])
    play_in_the_app(body, registry, mode_id, code=CODE, seen=seen, motion=motion)


def styles_at(board: PlaceBoard, cell: tuple[int, int]) -> set[str]:
    """The background colours drawn on the middle line of ``cell``'s tile."""
    geometry = board.geometry
    assert geometry is not None
    x, y = geometry.origin(cell)
    strip = board.render_line(y + geometry.value_line)
    found: set[str] = set()
    offset = 0
    for segment in strip:
        end = offset + len(segment.text)
        if offset <= x + 1 < end and segment.style is not None and segment.style.bgcolor:
            found.add(str(segment.style.bgcolor.name))
        offset = end
    return found


def test_the_drop_mode_opens_on_the_place_screen_with_its_next_blocks() -> None:
    async def body(app: TwofoldApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        assert isinstance(getattr(screen, "play", None), PlacePlay)
        upcoming = str(screen.query_one("#upcoming", Static).render())
        assert upcoming == "Next: 4, then 4"
        board = screen.board
        assert board.column and board.aim is None
        # every cell of the empty board is drawn, in the empty cells' colour
        empty = board.get_component_rich_style("board--empty").bgcolor
        assert empty is not None
        for cell in ((0, 0), (6, 4), (3, 2)):
            assert styles_at(board, cell) == {empty.name}

    in_the_app(body)


def test_the_keys_aim_a_column_the_judge_previews_it_and_enter_drops() -> None:
    async def body(app: TwofoldApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        assert isinstance(getattr(screen, "play", None), PlacePlay)
        await pilot.press("right")  # the first key shows the aim, on the middle column
        board = screen.board
        assert board.aim == (0, 2)
        assert board.aimed_cells() == [(r, 2) for r in range(7)]
        assert board.preview == ((6, 2), "4")
        aim = board.get_component_rich_style("board--aim").bgcolor
        assert aim is not None and styles_at(board, (3, 2)) == {aim.name}
        assert str(screen.query_one("#aim-preview", Static).render()) == "Column 3: makes 4"
        await pilot.press("right", "enter")
        await pilot.pause()
        assert screen.session.game.log == ["place 3"]
        assert screen.state.board[6][3] == 4 and board.board[6][3] == 4
        assert board.aim == (0, 3) and board.preview == ((5, 3), "8")  # the 4 on the 4
        assert "Block 4 fell into column 4." in screen.announcer.text
        await pilot.press("u")
        await pilot.pause()
        assert screen.state.board[6][3] == 0

    in_the_app(body)


def test_a_click_on_any_cell_of_a_column_drops_into_it() -> None:
    async def body(app: TwofoldApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        assert isinstance(getattr(screen, "play", None), PlacePlay)
        board = screen.board
        geometry = board.geometry
        assert geometry is not None
        await pilot.click(board, offset=geometry.centre((2, 1)))
        await pilot.pause()
        assert screen.session.game.log == ["place 1"]
        assert screen.state.board[6][1] == 4
        assert str(screen.query_one("#upcoming", Static).render()).startswith("Next: 4, then ")

    in_the_app(body)


def test_the_hint_aims_at_its_column() -> None:
    async def body(app: TwofoldApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        assert isinstance(getattr(screen, "play", None), PlacePlay)
        await pilot.press("h")
        await pilot.pause()
        hint = twofold_drop.hint(screen.state)
        assert hint is not None
        column = hint.cells[0][1]
        assert screen.board.aim == (0, column)
        assert f"Hint: place {column + 1}." in screen.announcer.text  # said from 1

    in_the_app(body)


def test_the_tutorial_opens_the_first_drop_game() -> None:
    async def body(app: TwofoldApp, pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, TutorialScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(getattr(app.screen, "play", None), PlacePlay)
        assert app.settings.has_seen_tutorial("drop")

    in_the_app(body, seen=())


class Offers:
    def __init__(self, *modes: Mode) -> None:
        self.modes = modes

    @hookimpl
    def twofold_register_modes(self, register: Any) -> None:
        for mode in self.modes:
            register(mode)


def test_a_slide_modes_tutorial_opens_its_first_game_too() -> None:
    taught = replace(TALLY, tutorial=(TutorialPage("Add", "Every key adds."),))
    registry = plugins.load([("tally", Offers(taught))], entry_points_=[])

    async def body(app: TwofoldApp, pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, TutorialScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(getattr(app.screen, "play", None), SlidePlay)
        assert app.settings.has_seen_tutorial("tally")

    in_the_app(body, registry=registry, mode_id="tally", seen=())


def test_falls_are_animated_and_with_reduced_motion_drawn_where_they_end() -> None:
    events = (Appeared((4, 0), 2), Merged((4, 0), 4, ((5, 0), (4, 0))), Fell((4, 0), (5, 0), 4))
    before = tuple(tuple(2 if (r, c) == (5, 0) else 0 for c in range(5)) for r in range(7))
    after = tuple(tuple(4 if (r, c) == (5, 0) else 0 for c in range(5)) for r in range(7))
    motion = plan(before, after, events)
    assert motion is not None and motion.kinds == ("arrive", "change", "travel")
    assert motion.phases[-1].glides == ((4, (4, 0), (5, 0)),)

    def body_for(motion: bool) -> Body:
        async def body(app: TwofoldApp, pilot: Pilot[Any]) -> None:
            screen = app.screen
            assert isinstance(getattr(screen, "play", None), PlacePlay)
            board = screen.board
            board.play(before, after, events)
            assert board.animating is motion
            board.finish_animation()
            assert board.board == after and not board.animating

        return body

    in_the_app(body_for(True), motion=True)
    in_the_app(body_for(False), motion=False)


def test_help_lists_the_place_screens_keys_and_the_modes_words() -> None:
    from twofold.ui.app.screens.help import keys_in_help, screen_bindings

    mode = twofold_drop.modes()[0]
    listed = {binding.description: keys for binding, keys in keys_in_help(screen_bindings(mode))}
    assert listed["Place"] == ["enter", "space"]
    assert "Move" not in listed and "Add tile" not in listed  # no other kind's keys

    async def body(app: TwofoldApp, pilot: Pilot[Any]) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"

    in_the_app(body)
