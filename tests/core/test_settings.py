"""Settings: defaults, persistence, and forgiving reads."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, replace
from pathlib import Path

from twofold.core.settings import Settings
from twofold.core.store import DB_NAME, open_store


def test_defaults() -> None:
    settings = Settings()
    assert settings.theme == "textual-dark"
    assert not settings.reduced_motion and not settings.auto_hint and not settings.sound
    assert settings.language == ""
    assert settings.keymap == {}
    assert not settings.tutorial_seen


def test_a_fresh_store_has_the_defaults() -> None:
    with open_store() as store:
        assert store.load_settings() == Settings()


def test_settings_persist_across_runs() -> None:
    chosen = Settings(
        theme="nord",
        reduced_motion=True,
        auto_hint=True,
        sound=True,
        language="de",
        keymap={"undo": "ctrl+z,u", "new_game": "n"},
        tutorial_seen=True,
    )
    with open_store() as store:
        store.save_settings(chosen)
    with open_store() as store:
        assert store.load_settings() == chosen
        store.save_settings(replace(chosen, sound=False, keymap={}))
    with open_store() as store:
        assert store.load_settings() == replace(chosen, sound=False, keymap={})


def test_the_keymap_is_a_copy_and_asdict_works() -> None:
    keys = {"undo": "u"}
    settings = Settings(keymap=keys)
    keys["undo"] = "z"
    assert settings.keymap == {"undo": "u"}
    assert asdict(settings)["keymap"] == {"undo": "u"}
    assert json.loads(json.dumps(settings.as_dict())) == settings.as_dict()


def test_bad_stored_values_fall_back_to_their_defaults(twofold_home: Path) -> None:
    with open_store() as store:
        store.save_settings(Settings(theme="nord", sound=True))
    with sqlite3.connect(twofold_home / DB_NAME) as connection:
        connection.executemany(
            "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
            [
                ("reduced_motion", '"yes"'),
                ("keymap", "[1, 2]"),
                ("language", "not json"),
                ("auto_hint", "1"),
                ("from_the_future", "true"),
            ],
        )
    with open_store() as store:
        assert store.load_settings() == Settings(theme="nord", sound=True)


def test_from_dict_ignores_unknown_keys_and_wrong_types() -> None:
    data = {"theme": 3, "sound": True, "keymap": {"undo": 5}, "colour": "red"}
    assert Settings.from_dict(data) == Settings(sound=True)
