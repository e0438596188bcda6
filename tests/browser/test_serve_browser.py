"""``twofold serve`` in a real Chromium: the menu, both games by keys and mouse, links, resuming."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterator
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import skip_without_a_browser
from tests.browser.served import (
    PHONE,
    VIEWPORT,
    WAIT_MS,
    Served,
    cell_center,
    colours_at,
    drag,
    drawn_box,
    number_after,
    open_page,
    screen,
    start_server,
    top_bar,
    touch,
    wait_for,
    wait_for_announcement,
    wait_for_text,
)
from tests.processes import alive
from tests.waiting import wait_until
from twofold.core._rules import Refused
from twofold.core.codes import code_from_text, share_string
from twofold.core.game import Game
from twofold.core.plugins import Registry, registry
from twofold.core.plugins import load as load_plugins
from twofold.core.store import open_store

skip_without_a_browser()

CODE_2048 = code_from_text("browser keys")
CODE_2248 = code_from_text("browser chain")


def game_url(served: Served, mode: str, code: str) -> str:
    return f"{served.url}?game={share_string(mode, code)}"  # as Copy link gives it


def played(
    mode_id: str, code: str, actions: list[str], modes: Registry | None = None
) -> tuple[Game, str]:
    """The game the app should be showing after ``actions``, and its last announcement."""
    game = Game.start((modes or registry()).mode(mode_id), code)
    said = ""
    for action in actions:
        try:
            said = game.act(action).announcement
        except Refused as refusal:  # the app announces a refusal in the same line
            said = str(refusal)
    return game, said


def test_the_menu_appears_and_quitting_ends_the_page(context: Any, served: Served) -> None:
    page = open_page(context, served.url, "2248 Daily")
    assert "2048" in "\n".join(screen(page))
    assert page.title() == "twofold"
    page.keyboard.press("q")
    # the app ended cleanly: the page says so instead of a dead terminal
    page.wait_for_selector("body.-closed #closed", state="visible")


def test_2048_moves_with_arrow_keys_a_mouse_drag_and_buttons(context: Any, served: Served) -> None:
    page = open_page(context, game_url(served, "2048", CODE_2048), "Moves 0")
    assert page.title() == "2048 · twofold"
    page.keyboard.press("ArrowRight")
    wait_for_text(page, "Moves 1", row=0)
    # a swipe to the left, from the middle of the board, far past the 3-column threshold
    cols, rows = page.evaluate("[window.twofoldTerminal.cols, window.twofoldTerminal.rows]")
    start = cell_center(page, cols / 2 + 10, rows / 2)
    end = cell_center(page, cols / 2 - 10, rows / 2)
    drag(page, [start, end])
    wait_for_text(page, "Moves 2", row=0)
    # the arrow buttons under the board take clicks
    row, line = next((y, text) for y, text in enumerate(screen(page)) if "▶" in text)
    page.mouse.click(*cell_center(page, line.index("▶"), row))
    wait_for_text(page, "Moves 3", row=0)
    # a smaller window: the app lays itself out again for the terminal's new size
    page.set_viewport_size({"width": 640, "height": 480})
    wait_for(page, f"() => window.twofoldTerminal.cols < {cols}", what="a narrower terminal")
    # the top bar drawn again at the new width: its last field ends at the right edge
    wait_for(
        page,
        "() => { const top = window.twofoldScreen()[0];"
        " return /Moves 3/.test(top) && top.trimEnd().length >= window.twofoldTerminal.cols - 1; }",
        what="the top bar redrawn to the new width",
    )


def chain_board(rows: list[str]) -> dict[tuple[int, int], tuple[int, float, int]]:
    """The 2248 board on screen: (board row, column) -> (screen row, screen column, value).

    A board row is a screen row of exactly five powers of two (the tiles' numbers).
    """
    board: dict[tuple[int, int], tuple[int, float, int]] = {}
    board_row = 0
    for y, line in enumerate(rows[1:], start=1):
        numbers = list(re.finditer(r"\d+", line))
        values = [int(m.group()) for m in numbers]
        if len(values) != 5 or any(v < 2 or v & (v - 1) for v in values):
            continue
        for column, (match, value) in enumerate(zip(numbers, values, strict=True)):
            board[board_row, column] = (y, (match.start() + match.end() - 1) / 2, value)
        board_row += 1
    return board


def values(board: dict[tuple[int, int], tuple[int, float, int]]) -> dict[tuple[int, int], int]:
    return {cell: shown[2] for cell, shown in board.items()}


def three_equal(board: dict[tuple[int, int], tuple[int, float, int]]) -> list[tuple[int, int]]:
    """A path of three touching cells (diagonals too) holding the same value."""
    steps = [d for d in product((-1, 0, 1), repeat=2) if d != (0, 0)]
    for first, second, third in (
        (a, (a[0] + d[0], a[1] + d[1]), (a[0] + d[0] + e[0], a[1] + d[1] + e[1]))
        for a in board
        for d in steps
        for e in steps
    ):
        cells = [first, second, third]
        if (
            len(set(cells)) == 3
            and all(c in board for c in cells)
            and len({board[c][2] for c in cells}) == 1
        ):
            return cells
    raise AssertionError("no three equal touching tiles on this board")


def test_a_2248_chain_dragged_through_three_equal_tiles_merges(
    context: Any, served: Served
) -> None:
    page = open_page(context, game_url(served, "2248", CODE_2248), "Score 0")
    assert page.title() == "2248 · twofold"
    board = wait_until(lambda: len(chain_board(screen(page))) == 40 and chain_board(screen(page)))
    assert board, "\n".join(screen(page))
    cells = three_equal(board)
    value = board[cells[0]][2]
    drag(page, [cell_center(page, board[c][1], board[c][0]) for c in cells])
    game, said = played("2248", CODE_2248, ["chain " + " ".join(f"{r},{c}" for r, c in cells)])
    # the chain played and drawn: its announcement, then the board the rules say, tiles settled
    wait_for_announcement(page, said)
    assert number_after("Score", top_bar(page)) == game.state.score > 0
    expected = {(r, c): v for r, row in enumerate(game.state.board) for c, v in enumerate(row)}
    shown = wait_until(lambda: values(chain_board(screen(page))) == expected)
    assert shown, "\n".join(screen(page))
    merged = chain_board(screen(page))[cells[-1]][2]
    assert merged > value, f"{cells} of {value} made {merged}"
    # Copy link in 2248 gives a link to this page's game as well
    page.keyboard.press("c")
    wait_for(page, "() => window.twofoldCopied", what="a copy")
    assert page.evaluate("window.twofoldCopied") == game_url(served, "2248", CODE_2248)


def test_copy_link_opens_that_game_from_its_first_move(context: Any, served: Served) -> None:
    code = code_from_text("browser link")
    page = open_page(context, game_url(served, "2048", code), "Moves 0")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowLeft")
    wait_for(page, "() => !/Moves 0\\b/.test(window.twofoldScreen()[0])", what="a move")
    page.keyboard.press("c")
    wait_for(page, "() => window.twofoldCopied", what="a copy")
    link = page.evaluate("window.twofoldCopied")
    assert link.startswith(served.url) and f"2048/{code[:4]}-{code[4:]}" in link
    assert page.evaluate("navigator.clipboard.readText()") == link
    # Copy result carries the same link, from the page to the clipboard
    # the link's dialog, shown as the result's is, closed before the next key (an Esc
    # followed at once by y would read as alt+y)
    shown = "() => window.twofoldScreen().join('').includes('Link copied')"
    wait_for(page, shown, what="the link's dialog")
    page.keyboard.press("Escape")
    wait_for(page, f"() => !({shown})()", what="the link's dialog closed")
    page.keyboard.press("y")
    wait_for(page, "(link) => window.twofoldCopied !== link", link, what="the result copied")
    assert link in page.evaluate("navigator.clipboard.readText()")

    other = open_page(context, link, "Moves 0")
    bar = top_bar(other)
    assert f"{code[:4]}-{code[4:]}" in bar and "Score 0" in bar


def test_closing_the_page_and_reopening_resumes_the_game(context: Any, served: Served) -> None:
    code = code_from_text("browser resume")
    page = open_page(context, game_url(served, "2048-5x5", code), "Moves 0")
    keys = {"ArrowDown": "down", "ArrowRight": "right", "ArrowLeft": "left"}
    pressed = ["ArrowDown", "ArrowRight", "ArrowDown", "ArrowLeft"]
    for key in pressed:
        page.keyboard.press(key)
    game, last_words = played("2048-5x5", code, [keys[key] for key in pressed])
    moves = game.state.moves
    assert moves >= 2, "the keys should move this board"
    # the last key handled (and so saved), not only sent: its announcement and its count
    wait_for_announcement(page, last_words)
    wait_for_text(page, f"Moves {moves}", row=0)
    before = screen(page)
    page.close()

    menu = open_page(context, served.url, "2248 Daily")
    row = next(i for i, line in enumerate(screen(menu)) if re.search(r"\b2048 5x5\b", line))
    column = screen(menu)[row].index("2048 5x5")
    menu.mouse.click(*cell_center(menu, column + 2, row))
    wait_for_text(menu, f"Moves {moves}", row=0)
    assert screen(menu)[0] == before[0]
    # the tab's title follows the app from the menu into the game
    wait_for(menu, "() => document.title === '2048 5x5 · twofold'", what="the game's title")


def children_of(pid: int) -> set[int]:
    """The live processes whose parent is ``pid`` (Linux /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(stat.parent.name))
    return found


def test_ctrl_c_stops_the_server_and_every_game_it_started_each_saved(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "stopped-home"
    home.mkdir()
    server = start_server(home)
    try:
        context = browser.new_context(viewport=VIEWPORT)
        page = open_page(context, game_url(server, "2048", CODE_2048), "Moves 0")
        open_page(context, server.url, "2248 Daily")
        page.keyboard.press("ArrowRight")
        wait_for_text(page, "Moves 1", row=0)
        assert wait_until(lambda: len(children_of(server.process.pid)) == 2), (
            "each page should run its own app process"
        )
        started = children_of(server.process.pid)
        # ctrl+c in the terminal: SIGINT to the server (the apps get it from their server)
        assert server.stop() == 0
        said = server.process.stdout.read() if server.process.stdout else ""
        assert "Traceback" not in said and "every game is saved" in said, said
        assert wait_until(lambda: not any(alive(pid) for pid in started)), "a game outlived it"
        context.close()
    finally:
        server.stop()
    monkeypatch.setenv("TWOFOLD_HOME", str(home))
    store = open_store()
    try:
        saved = store.load_save("2048")
        assert saved is not None and len(saved.actions) == 1
    finally:
        store.close()


# -- a plugin's place controls: the drop example, installed by pip -----------------------------

CODE_DROP = code_from_text("browser drop")


@pytest.fixture(scope="module")
def drop_modes() -> Iterator[Registry]:
    """The drop example's mode, here too, for the game the page should be showing."""
    from tests.plugins.wheels import EXAMPLES

    folder = str(EXAMPLES / "twofold-drop")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    import twofold_drop

    modes = load_plugins([("drop", twofold_drop)], entry_points_=[])
    yield modes
    modes.manager.unregister(name="drop")


def blocks(rows: list[str]) -> list[tuple[int, float, int]]:
    """The numbers on the drop board, bottom row first: (screen row, screen column, value).

    A board row is a screen row of nothing but numbers (an empty cell is drawn blank);
    the next blocks, drawn under "Next:" right of the board, are not on it.
    """
    beside = min((line.index("Next:") for line in rows if "Next:" in line), default=None)
    found = []
    for y, line in reversed(list(enumerate(rows[1:], start=1))):
        board = line if beside is None else line[:beside]
        if board.strip() and re.fullmatch(r"[\d ]+", board):
            found += [
                (y, (m.start() + m.end() - 1) / 2, int(m.group()))
                for m in re.finditer(r"\d+", board)
            ]
    return found


def settled_blocks(page: Any) -> list[tuple[int, float, int]]:
    """The blocks on screen once no block is falling any more: the same on two looks."""

    def still() -> list[tuple[int, float, int]]:
        first = blocks(screen(page))
        time.sleep(0.2)
        return first if first and first == blocks(screen(page)) else []

    return wait_until(still)


def test_the_drop_example_plays_by_key_and_by_click_and_resumes(
    context: Any, served_with_drop: Served, drop_modes: Registry
) -> None:
    served = served_with_drop
    page = open_page(context, game_url(served, "drop", CODE_DROP), "Moves 0")
    assert top_bar(page).split()[:2] == ["Twofold", "Drop"]
    assert page.title() == "Twofold Drop · twofold"
    assert blocks(screen(page)) == [], "an empty board shows no number"
    # by key: the first arrow aims at the middle column, Enter drops the next block there
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    game, said = played("drop", CODE_DROP, ["place 2"], drop_modes)
    wait_for_announcement(page, said)
    wait_for_text(page, "Moves 1", row=0)
    landed = game.state.board[-1][2]
    # the lowest number once the block has fallen (drawn the same twice, 0.2 s apart)
    y, x, value = settled_blocks(page)[0]
    assert value == landed > 0
    # by click: on that block, a cell of its column, so the next block drops onto it
    page.mouse.click(*cell_center(page, x, y))
    game, said = played("drop", CODE_DROP, ["place 2", "place 2"], drop_modes)
    wait_for_announcement(page, said)
    wait_for_text(page, f"Moves {game.state.moves}", row=0)
    assert game.state.moves == 2 and number_after("Score", top_bar(page)) == game.state.score
    before = top_bar(page)
    # the page loaded again, on the menu: the drop game is there, resumed as it was left
    page.goto(served.url)
    wait_for_text(page, "Twofold Drop")
    row = next(i for i, line in enumerate(screen(page)) if "Twofold Drop" in line)
    page.mouse.click(*cell_center(page, screen(page)[row].index("Twofold Drop") + 2, row))
    wait_for_text(page, f"Moves {game.state.moves}", row=0)
    assert top_bar(page) == before
    kept = sorted(v for line in game.state.board for v in line if v)
    assert sorted(value for _y, _x, value in settled_blocks(page)) == kept


# -- a phone: touch, a narrow screen, device pixel ratios 1 to 3 ------------------------------


@pytest.fixture(params=[2], ids=lambda dpr: f"dpr{dpr}")
def phone(browser: Any, served: Served, request: pytest.FixtureRequest) -> Any:
    """An upright phone's browser: 390x844 CSS pixels, touch, at a device pixel ratio."""
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=request.param, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(WAIT_MS)
    yield context
    context.close()


def test_a_finger_swipe_moves_2048_past_the_mouse_threshold_only(
    phone: Any, served: Served
) -> None:
    page = open_page(phone, game_url(served, "2048", CODE_2048), "Moves 0")
    cols, rows = page.evaluate("[window.twofoldTerminal.cols, window.twofoldTerminal.rows]")
    middle = (cols / 2, rows / 2)
    touch(page, [cell_center(page, middle[0] + 10, middle[1]), cell_center(page, *middle)])
    wait_for_text(page, "Moves 1", row=0)
    # a slide of one column is under the swipe threshold, as with the mouse: no move
    touch(page, [cell_center(page, *middle), cell_center(page, middle[0] + 1, middle[1])])
    touch(page, [cell_center(page, *middle), cell_center(page, middle[0], middle[1] + 8)])
    wait_for_text(page, "Moves 2", row=0)
    time.sleep(0.3)  # anything the short slide had set off would have landed by now
    assert number_after("Moves", top_bar(page)) == 2


def test_a_finger_drawn_2248_chain_merges(phone: Any, served: Served) -> None:
    page = open_page(phone, game_url(served, "2248", CODE_2248), "Score 0")
    board = wait_until(lambda: len(chain_board(screen(page))) == 40 and chain_board(screen(page)))
    assert board, "\n".join(screen(page))
    cells = three_equal(board)
    value = board[cells[0]][2]
    touch(page, [cell_center(page, board[c][1], board[c][0]) for c in cells])
    wait_for(page, "() => !/Score 0\\b/.test(window.twofoldScreen()[0])", what="a score")
    assert chain_board(screen(page))[cells[-1]][2] > value


def test_a_2248_chain_tapped_tile_by_tile_merges(phone: Any, served: Served) -> None:
    code = code_from_text("browser taps")
    page = open_page(phone, game_url(served, "2248", code), "Score 0")
    board = wait_until(lambda: len(chain_board(screen(page))) == 40 and chain_board(screen(page)))
    assert board, "\n".join(screen(page))
    cells = three_equal(board)
    value = board[cells[0]][2]
    # tap the three, then the last again to merge (as clicks do)
    for cell in [*cells, cells[-1]]:
        page.touchscreen.tap(*cell_center(page, board[cell][1], board[cell][0]))
        time.sleep(0.15)  # taps a finger apart, not a double tap
    wait_for(page, "() => !/Score 0\\b/.test(window.twofoldScreen()[0])", what="a score")
    assert chain_board(screen(page))[cells[-1]][2] > value


@pytest.mark.parametrize("phone", [1, 2, 3], ids=lambda dpr: f"dpr{dpr}", indirect=True)
@pytest.mark.parametrize("mode", ["2048", "2248"])
def test_on_a_phone_the_top_bar_is_whole_and_the_board_all_drawn(
    phone: Any, served: Served, mode: str, tmp_path: Path
) -> None:
    code = code_from_text(f"browser phone {mode}")
    page = open_page(phone, game_url(served, mode, code), "Score 0")
    shown = f"{code[:4]}-{code[4:]}"
    wait_for(page, f"() => window.twofoldScreen()[0].trim().endsWith('{shown}')", what="the bar")
    bar = top_bar(page).split()
    assert bar[0] == mode and shown in bar and "Score" in bar and "Best" in bar, bar
    assert ("Moves" in bar) == (mode == "2048")
    # the app laid out for the whole terminal: its footer on the last row, whole to its last
    # key; on a narrow terminal the keys wrap, the palette's key ending the row above the last
    wait_for(
        page,
        "() => { const rows = window.twofoldScreen().map((row) => row.trimEnd());"
        " const last = rows[rows.length - 1], above = rows[rows.length - 2];"
        " return last.endsWith('palette')"
        " || (above.endsWith('palette') && last.endsWith('Menu')); }",
        what="the footer on the last row",
    )
    rows = screen(page)
    page.screenshot(path=tmp_path / f"phone-{mode}.png")
    width = PHONE["width"]
    # drawn at the right scale: the top bar and the footer, at the screen's top and bottom
    # corners, are drawn where the terminal has them (at a wrong scale only the top-left
    # part of the screen is drawn, enlarged over the whole page)
    _x, bar_y = cell_center(page, 0, 0)
    _x, footer_y = cell_center(page, 0, len(rows) - 1)
    top_left, top_right, bottom_left = colours_at(
        page, [(2, bar_y), (width - 8, bar_y), (2, footer_y)]
    )
    assert top_left == top_right == bottom_left, (top_left, top_right, bottom_left)
    if mode == "2048":
        arrows = next(y for y, text in enumerate(rows) if "▶" in text)
        left, top, right, bottom = drawn_box(page, 2, arrows - 1)
        # the board: centred, as wide as the screen lets it be, and drawn to its last cell
        assert right - left > 0.85 * width and abs(left - (width - right)) < 0.05 * width
        assert bottom - top > 0.25 * PHONE["height"], (top, bottom)
    else:
        board = chain_board(rows)
        assert len(board) == 40, "\n".join(rows)
        first, last = min(y for y, _x, _v in board.values()), max(y for y, _x, _v in board.values())
        left, top, right, bottom = drawn_box(page, first - 1, last + 2)
        assert right - left > 0.85 * width and abs(left - (width - right)) < 0.05 * width
        _left, row_top, _cell_w, cell_h = page.evaluate(
            """() => { const t = window.twofoldTerminal;
            const r = document.querySelector('.xterm-screen').getBoundingClientRect();
            return [r.left, r.top, r.width / t.cols, r.height / t.rows]; }"""
        )
        assert bottom >= row_top + last * cell_h, "the last row of tiles is drawn"


def test_a_bad_game_link_gets_a_page_in_the_apps_look(phone: Any, served: Served) -> None:
    page = phone.new_page()
    response = page.goto(f"{served.url}?game=2048/XXXX-XXXX")
    assert response is not None and response.status == 400
    look = page.evaluate(
        """() => { const box = document.querySelector('.notice > div');
        const body = getComputedStyle(document.body);
        return [body.backgroundColor, getComputedStyle(box).fontFamily,
                box.getBoundingClientRect().width, document.querySelector('a').textContent]; }"""
    )
    background, font, box_width, link = look
    assert background == "rgb(12, 24, 31)"  # the game page's own
    assert "Roboto Mono" in font
    assert 0 < box_width <= PHONE["width"]
    assert link == "Open the menu"
    page.click("a")
    wait_for_text(page, "2248 Daily")
