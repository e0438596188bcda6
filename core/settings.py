"""The player's settings: what the Settings screen edits and the store keeps.

Settings are a frozen value; change one with :func:`dataclasses.replace` and hand the
result to ``store.save_settings``. Reading is forgiving: a stored value of the wrong
type (hand-edited, or from another version) falls back to its default, so a bad
setting never stops the app from opening.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

DEFAULT_THEME = "textual-dark"


@dataclass(frozen=True)
class Settings:
    #: a Textual theme name
    theme: str = DEFAULT_THEME
    reduced_motion: bool = False
    #: show the 2248 hint chain without being asked
    auto_hint: bool = False
    #: terminal bell on merges and wins
    sound: bool = False
    #: a language code ("de"); "" means from the environment
    language: str = ""
    #: binding id -> keys ("ctrl+z,u"), Textual's keymap format
    keymap: Mapping[str, str] = field(default_factory=dict)
    #: every tutorial counts as shown (set by earlier versions once 2248's was seen)
    tutorial_seen: bool = False
    #: the mode families whose tutorial has been shown once
    tutorials_seen: tuple[str, ...] = ()
    #: a leaderboard's address (``http://host:port/``) and the player's name on it; while
    #: either is empty nothing is ever sent (sending is the player's choice)
    leaderboard: str = ""
    leaderboard_name: str = ""

    def has_seen_tutorial(self, family: str) -> bool:
        return self.tutorial_seen or family in self.tutorials_seen

    def __post_init__(self) -> None:
        # Its own copy, so changing the dict handed in does not change these settings.
        object.__setattr__(self, "keymap", dict(self.keymap))

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data, one key per setting."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["keymap"] = dict(self.keymap)
        data["tutorials_seen"] = list(self.tutorials_seen)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Settings:
        """Settings from stored data; unknown keys are ignored, bad values use the default."""
        defaults = cls()
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in data:
                continue
            value = data[f.name]
            default = getattr(defaults, f.name)
            if f.name == "keymap":
                if isinstance(value, Mapping) and all(
                    isinstance(k, str) and isinstance(v, str) for k, v in value.items()
                ):
                    values[f.name] = dict(value)
            elif f.name == "tutorials_seen":
                if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
                    values[f.name] = tuple(value)
            elif type(value) is type(default):
                values[f.name] = value
        return cls(**values)
