"""A damaged file replaced: moved aside, and what of it still reads copied into a fresh one.

A damaged page costs the rows on it, not the file: every row of every table that reads
(scanned in the table's own order, never through an index, which may be the damage) is
copied into the fresh file. Saves are sealed by their checksums and finished games are
checked where they are read, so a damaged value copied is refused there, as before.
Seats are not copied: they are about processes, and a fresh file has none.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from twofold.core.store.files import (
    Connect,
    connect,
    create_private,
    move_aside,
    open_checked,
    roll_back,
)
from twofold.core.store.schema import FINISHED, LIVE, SAVE_TAIL, SAVES, SETTINGS, Table

#: the tables whose rows are copied from a damaged file, in this order
KEPT = (SETTINGS, FINISHED, SAVES, SAVE_TAIL, LIVE)


def replace_damaged(path: Path, connect: Connect = connect) -> tuple[sqlite3.Connection, Path, int]:
    """Move ``path`` aside and open a fresh file there with what of it reads.

    Returns the fresh file's connection, the name the damaged one was kept as, and how
    many rows were copied. Raises as :func:`open_checked` does if the fresh file fails.
    """
    broken = move_aside(path)
    create_private(path)
    connection, _repairs = open_checked(path, connect)
    try:
        copied = copy_rows(broken, connection)
    except BaseException:
        connection.close()
        raise
    return connection, broken, copied


def copy_rows(broken: Path, connection: sqlite3.Connection) -> int:
    """Copy every row that reads of :data:`KEPT` from ``broken``; how many were copied."""
    rows = {table.name: _readable_rows(broken, table) for table in KEPT}
    if not any(rows.values()):
        return 0
    connection.execute("BEGIN IMMEDIATE")
    try:
        for table in KEPT:
            # a damaged key may repeat: the first row read is kept
            insert = table.insert().replace("INSERT", "INSERT OR IGNORE", 1)
            connection.executemany(insert, rows[table.name])
        connection.execute("COMMIT")
    except BaseException:
        roll_back(connection)
        raise
    return sum(len(found) for found in rows.values())


def _readable_rows(broken: Path, table: Table) -> list[tuple[object, ...]]:
    """The rows of ``table`` up to the first that does not read (opened read-only)."""
    uri = broken.resolve().as_uri()
    found: list[tuple[object, ...]] = []
    # the WAL moved aside with the file holds its last writes (read-only, SQLite keeps an
    # index of it beside it); with no WAL, or if that fails, the file alone, immutable
    wal = broken.with_name(broken.name + "-wal").exists()
    for query in ("?mode=ro", "?immutable=1") if wal else ("?immutable=1",):
        found = []
        try:
            source = sqlite3.connect(uri + query, uri=True, timeout=1.0)
        except sqlite3.Error:
            continue
        source.text_factory = lambda data: data.decode("utf-8", "replace")
        try:
            cursor = source.execute(f"SELECT {table.column_list} FROM {table.name} NOT INDEXED")
            for row in cursor:
                found.append(tuple(row))
            return found
        except (sqlite3.Error, ValueError, OverflowError):
            if found:
                return found  # the rows before the damage
        finally:
            source.close()
    return found
