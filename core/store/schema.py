"""The database's schema, stated once: its tables, its migrations, and the check on open.

Every column list, insert and placeholder of the store is derived from :data:`TABLES`.
A file's schema is compared, table by table and column by column, with the one these
migrations build: an older twofold's file is recognised by its exact schema (any other
file is foreign, never written), and a file of today's version that differs is damaged.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from functools import cache

#: SQLite's application_id of a twofold database ("twof"); another value is never written
APPLICATION_ID = 0x74776F66


@dataclass(frozen=True)
class Table:
    """One table: its name, its columns with their declarations, and its key."""

    name: str
    columns: tuple[tuple[str, str], ...]
    key: tuple[str, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _declaration in self.columns)

    @property
    def column_list(self) -> str:
        """``"a, b, c"``: the columns in their order, for a SELECT or an INSERT."""
        return ", ".join(self.names)

    @property
    def placeholders(self) -> str:
        return ", ".join("?" * len(self.columns))

    def create(self) -> str:
        lines = [f"{name} {declaration}" for name, declaration in self.columns]
        if len(self.key) > 1:  # a key of one column is declared with it (as version 1 did)
            lines.append(f"PRIMARY KEY ({', '.join(self.key)})")
        return f"CREATE TABLE {self.name} (\n    " + ",\n    ".join(lines) + "\n)"

    def insert(self, *, replace: bool = False) -> str:
        verb = "INSERT OR REPLACE" if replace else "INSERT"
        return f"{verb} INTO {self.name} ({self.column_list}) VALUES ({self.placeholders})"

    def upsert(self) -> str:
        """An insert that updates every other column of a row with the same key."""
        others = [name for name in self.names if name not in self.key]
        return f"{self.insert()} ON CONFLICT ({', '.join(self.key)}) DO UPDATE SET " + ", ".join(
            f"{name} = excluded.{name}" for name in others
        )


SAVES = Table(
    "saves",
    (("mode_id", "TEXT PRIMARY KEY"), ("data", "TEXT NOT NULL"), ("saved_at", "REAL NOT NULL")),
    ("mode_id",),
)
FINISHED = Table(
    "finished",
    (
        ("game_id", "TEXT PRIMARY KEY"),
        ("mode_id", "TEXT NOT NULL"),
        ("code", "TEXT NOT NULL"),
        ("score", "INTEGER NOT NULL"),
        ("largest", "INTEGER NOT NULL"),
        ("moves", "INTEGER NOT NULL"),
        ("elapsed", "REAL NOT NULL"),
        ("counted", "INTEGER NOT NULL"),
        ("won", "INTEGER NOT NULL"),
        ("tiles", "TEXT NOT NULL"),
        ("stats", "TEXT NOT NULL"),
        ("day", "TEXT"),
        ("finished_at", "REAL NOT NULL"),
    ),
    ("game_id",),
)
SETTINGS = Table("settings", (("key", "TEXT PRIMARY KEY"), ("value", "TEXT NOT NULL")), ("key",))
SAVE_TAIL = Table(
    "save_tail",
    (
        ("mode_id", "TEXT NOT NULL"),
        ("seq", "INTEGER NOT NULL"),
        ("action", "TEXT NOT NULL"),
        ("elapsed", "REAL NOT NULL"),
        ("flags", "TEXT NOT NULL"),
        ("base", "TEXT NOT NULL"),
        ("seal", "TEXT NOT NULL"),
    ),
    ("mode_id", "seq"),
)
SEATS = Table(
    "seats",
    (
        ("mode_id", "TEXT PRIMARY KEY"),
        ("owner", "TEXT NOT NULL"),
        ("pid", "INTEGER NOT NULL"),
        ("host", "TEXT NOT NULL"),
        ("started", "TEXT NOT NULL"),
        ("beat", "REAL NOT NULL"),
    ),
    ("mode_id",),
)
#: the game in progress of each mode, summed up for records (its save is its log)
LIVE = Table(
    "live",
    (
        ("mode_id", "TEXT PRIMARY KEY"),
        ("game_id", "TEXT NOT NULL"),
        ("data", "TEXT NOT NULL"),
        ("saved_at", "REAL NOT NULL"),
    ),
    ("mode_id",),
)
TABLES = {table.name: table for table in (SAVES, FINISHED, SETTINGS, SAVE_TAIL, SEATS, LIVE)}
FINISHED_INDEX = "CREATE INDEX finished_by_mode ON finished (mode_id, counted, finished_at)"

#: MIGRATIONS[n] takes the schema from version n to n + 1 (version 0 is an empty file).
#: A table changed by a later version must keep its old CREATE here and be altered after.
#: Every version changes the tables: an older twofold tells a newer twofold's file from a
#: damaged header by them (the same tables under a higher version are damage).
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (SAVES.create(), FINISHED.create(), FINISHED_INDEX, SETTINGS.create()),
    (f"PRAGMA application_id = {APPLICATION_ID}", SAVE_TAIL.create(), SEATS.create()),
    (LIVE.create(),),
)
SCHEMA_VERSION = len(MIGRATIONS)

#: a table's shape as SQLite reports it: (column, type, not null, primary key position)
Shape = dict[str, tuple[tuple[str, str, int, int], ...]]


def shape(connection: sqlite3.Connection) -> Shape:
    """The tables of a database and their columns, as SQLite itself reads them."""
    tables = [
        row[0]
        for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    found: Shape = {}
    for name in tables:
        columns = connection.execute(
            'SELECT name, upper(type), "notnull", pk FROM pragma_table_info(?)', (name,)
        ).fetchall()
        found[name] = tuple((str(c), str(t), int(n), int(p)) for c, t, n, p in columns)
    return found


@cache
def expected_shape(version: int) -> Shape:
    """The tables that the migrations up to ``version`` build."""
    connection = sqlite3.connect(":memory:")
    try:
        for step in MIGRATIONS[:version]:
            for statement in step:
                connection.execute(statement)
        return shape(connection)
    finally:
        connection.close()


#: a database's objects other than its columns: ``(type, name)`` -> the SQL that made it
Objects = dict[tuple[str, str], str | None]


def objects(connection: sqlite3.Connection) -> Objects:
    """Every table, index, trigger and view of a database, with its SQL (an index that a
    key makes has none)."""
    rows = connection.execute(
        "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_stat%'"
    ).fetchall()
    return {(str(kind), str(name)): sql for kind, name, sql in rows}


@cache
def expected_objects(version: int) -> Objects:
    """The objects that the migrations up to ``version`` make."""
    connection = sqlite3.connect(":memory:")
    try:
        for step in MIGRATIONS[:version]:
            for statement in step:
                connection.execute(statement)
        return objects(connection)
    finally:
        connection.close()


def strays(expected: Objects, found: Objects) -> tuple[list[tuple[str, str]], list[str | None]]:
    """The objects found that the schema does not have (or has otherwise), and the SQL of
    the indexes and triggers it has that were not found."""
    extra = [key for key, sql in found.items() if key[0] != "table" and expected.get(key) != sql]
    missing = [sql for key, sql in expected.items() if key[0] != "table" and key not in found]
    return extra, missing


def differences(found: Shape, version: int) -> list[str]:
    """How ``found`` differs from the schema of ``version`` (empty when it is the same)."""
    expected = expected_shape(version)
    problems = [f"table {name} is missing" for name in expected if name not in found]
    problems += [f"table {name} is not twofold's" for name in found if name not in expected]
    problems += [
        f"table {name} has other columns"
        for name, columns in expected.items()
        if name in found and found[name] != columns
    ]
    return problems


def extends(found: Shape, version: int) -> bool:
    """Whether ``found`` has every table and column of ``version`` and more (a newer schema)."""
    expected = expected_shape(version)
    if found == expected:
        return False
    return all(
        name in found and set(columns) <= set(found[name]) for name, columns in expected.items()
    )
