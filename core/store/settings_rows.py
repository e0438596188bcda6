"""Settings as rows of ``settings`` (a key and its JSON value each), and the language peek."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from twofold.core.settings import Settings
from twofold.core.store.schema import SETTINGS

SELECT = f"SELECT key, value FROM {SETTINGS.name}"
UPSERT = SETTINGS.upsert()


def from_rows(rows: list[tuple[Any, ...]]) -> Settings:
    """The stored settings; anything missing or unreadable takes its default."""
    data: dict[str, Any] = {}
    for key, value in rows:
        try:
            data[str(key)] = json.loads(value)
        except (TypeError, ValueError, RecursionError):
            continue
    return Settings.from_dict(data)


def to_rows(settings: Settings) -> list[tuple[str, str]]:
    return [(key, json.dumps(value)) for key, value in settings.as_dict().items()]


def peek_language(path: Path) -> str:
    """The ``language`` setting in the database at ``path``, or "" (never raises, never writes).

    Read-only: opening for real (migrations, moving a damaged file aside) is the store's
    job, and the command line's ``--help`` is translated before any store opens.
    """
    try:
        if not path.is_file():
            return ""
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=0.2)
        try:
            row = connection.execute(f"{SELECT} WHERE key = 'language'").fetchone()
        finally:
            connection.close()
        value = json.loads(row[1]) if row else ""
    except (sqlite3.Error, OSError, ValueError, TypeError, RecursionError, UnicodeError):
        return ""  # a missing table, a damaged file: the environment decides
    return value if isinstance(value, str) else ""
