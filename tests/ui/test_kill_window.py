"""An app killed within 80 ms of its last key (36 keys) keeps every move it drew.

Read along the save path, every action is written, in one committed transaction, inside
``Session.act`` and so before the screen draws it: a kill at any moment after a move
is drawn finds it in the file. This holds that in place, from the very first action.
"""

from __future__ import annotations

from pathlib import Path

from tests.ui.conftest import set_settings
from tests.waiting import until
from twofold.core.plugins import registry
from twofold.core.store import open_store
from twofold.ui.app.app import TwofoldApp

KEYS = ("left", "up", "right", "down") * 9


def committed(home: Path) -> int:
    """The actions of the 2048 save another process would find in the file now."""
    with open_store(home, owner="another process") as reader:
        saved = reader.load_save("2048")
    return 0 if saved is None else len(saved.actions)


async def test_every_move_on_screen_is_already_in_the_file(twofold_home: Path) -> None:
    store = open_store()
    set_settings(store, reduced_motion=True)
    app = TwofoldApp(registry(), store, mode_id="2048")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: bool(app.screen.query("#board")), what="the board")
            session = app.sessions[-1]
            for key in KEYS:
                await pilot.press(key)
                assert committed(twofold_home) == len(session.game.log)
            assert len(session.game.log) > 0
    finally:
        store.close()
