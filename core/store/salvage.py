"""A damaged file replaced: moved aside, and what of it still reads copied into a fresh one.

A damaged page costs the rows on it, not the file: every row of every table that SQLite
can still read (its own pages, read past the damaged ones: see :class:`Reader`) is
copied into the fresh file. Saves are sealed by their checksums and finished games are
checked where they are read, so a damaged value copied is refused there, as before.
Seats are not copied: they are about processes, and a fresh file has none.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from twofold.core.store.files import (
    COMPANIONS,
    Connect,
    connect,
    create_private,
    move_aside,
    open_checked,
    roll_back,
)
from twofold.core.store.readable import KEPT, readable_rows


def replace_damaged(
    path: Path, connect: Connect = connect, kept: Path | None = None
) -> tuple[sqlite3.Connection, Path, int]:
    """Move ``path`` aside and open a fresh file there with what of it reads.

    ``kept``: a copy of the damaged file made before a repair wrote to it; it is what is
    read and kept, and ``path`` (as the repair left it) is removed. Returns the fresh
    file's connection, the name the damaged one was kept as, and how many rows were
    copied. Raises as :func:`open_checked` does if the fresh file fails.
    """
    if kept is not None and kept.exists():
        broken = kept
        for end in ("", *COMPANIONS):
            path.with_name(path.name + end).unlink(missing_ok=True)
    else:
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
    rows = {table.name: readable_rows(broken, table) for table in KEPT}
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
