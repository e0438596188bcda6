"""A damaged file replaced: moved aside, and what of it still reads copied into a fresh one.

A damaged page costs the rows on it, not the file: every row of every table that SQLite
can still read (its own pages, read past the damaged ones: see :class:`Reader`) is
copied into the fresh file. Saves are sealed by their checksums and finished games are
checked where they are read, so a damaged value copied is refused there, as before.
Seats are not copied: they are about processes, and a fresh file has none.
"""

from __future__ import annotations

import sqlite3
from itertools import pairwise
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
from twofold.core.store.schema import FINISHED, LIVE, SAVE_TAIL, SAVES, SETTINGS, Table

#: the tables whose rows are copied from a damaged file, in this order
KEPT = (SETTINGS, FINISHED, SAVES, SAVE_TAIL, LIVE)


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


def readable_rows(broken: Path, table: Table) -> list[tuple[object, ...]]:
    """Every row of ``table`` that SQLite can still read (opened read-only), in rowid order."""
    uri = broken.resolve().as_uri()
    # the WAL moved aside with the file holds its last writes (read-only, SQLite keeps an
    # index of it beside it); with no WAL, or if that fails, the file alone, immutable
    wal = broken.with_name(broken.name + "-wal").exists()
    for query in ("?mode=ro", "?immutable=1") if wal else ("?immutable=1",):
        try:
            source = sqlite3.connect(uri + query, uri=True, timeout=1.0)
        except sqlite3.Error:
            continue
        source.text_factory = lambda data: data.decode("utf-8", "replace")
        try:
            found = Reader(source, table).rows()
        finally:
            source.close()
        if found:
            return found
    return []


#: what reading one row of a damaged file may raise
_UNREADABLE = (sqlite3.Error, ValueError, OverflowError, MemoryError)
#: the most rowids looked up one by one in a table's damaged stretches, and how far past
#: the first and last rowid read
PROBES = 100_000
EDGE = 1000
_LOWEST, _HIGHEST = -(2**63), 2**63 - 1


class Reader:
    """The rows of one table of a damaged file: every one on a page SQLite can still read.

    A scan stops at the first page that does not read, and Python's cursor loses the row
    before it too; so rows are read one query at a time: forward from the first, backward
    from the last, then by the rowids the table's indexes still list, then rowid by rowid
    through the stretches between (a lookup descends past a damaged page, a scan does not).
    """

    def __init__(self, source: sqlite3.Connection, table: Table) -> None:
        self.source = source
        self.table = table
        self.found: dict[int, tuple[object, ...]] = {}
        self.select = f"SELECT rowid, {table.column_list} FROM {table.name} NOT INDEXED"

    def one(self, where: str, args: tuple[int, ...]) -> tuple[object, ...] | bool | None:
        """The row ``where`` picks (also kept), None if there is none, False if it does not read."""
        try:
            row = self.source.execute(f"{self.select} {where}", args).fetchone()
        except _UNREADABLE:
            return False
        if row is None:
            return None
        rowid, *values = row
        self.found[int(rowid)] = tuple(values)
        return tuple(row)

    def walk(self, forward: bool) -> int | None:
        """Read from one end until the damage; the last rowid read before it (None: it
        reached the other end)."""
        where, order = ("rowid > ?", "ASC") if forward else ("rowid < ?", "DESC")
        at = _LOWEST if forward else _HIGHEST
        while True:
            row = self.one(f"WHERE {where} ORDER BY rowid {order} LIMIT 1", (at,))
            if row is None:
                return None
            if row is False:
                return at
            rowid = int(row[0])  # type: ignore[index,call-overload]
            if (rowid <= at) if forward else (rowid >= at):
                return at  # a damaged page out of order: the walk would go round
            at = rowid

    def listed(self) -> set[int]:
        """The rowids the table's indexes list, as far as each reads."""
        rowids: set[int] = set()
        try:
            names = [
                row[0]
                for row in self.source.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?",
                    (self.table.name,),
                )
            ]
        except _UNREADABLE:
            return rowids
        for name in names:
            quoted = str(name).replace('"', '""')
            try:
                for (rowid,) in self.source.execute(
                    f'SELECT rowid FROM {self.table.name} INDEXED BY "{quoted}"'
                ):
                    rowids.add(int(rowid))
            except _UNREADABLE:
                continue
        return rowids

    def rows(self) -> list[tuple[object, ...]]:
        try:
            self.source.execute(f"{self.select} LIMIT 0").fetchall()
        except _UNREADABLE:
            return []  # no such table, or its schema does not read
        # a walk that ends cleanly proves nothing: a damaged rowid sends a seek past rows
        self.walk(forward=True)
        self.walk(forward=False)
        # a walk may have read a damaged cell where a lookup finds the row: the lookup wins
        for rowid in sorted(self.listed() | self.found.keys()):
            self.one("WHERE rowid = ?", (rowid,))
        self.probe()
        return [self.found[rowid] for rowid in sorted(self.found)]

    def probe(self) -> None:
        """Look up the rowids between those read, the narrowest stretches first, and a little
        past either end, at most :data:`PROBES` of them."""
        known = sorted(self.found)
        if not known:
            stretches = [(1, PROBES + 1)]
        else:
            stretches = sorted(
                (
                    (max(_LOWEST + 1, known[0] - EDGE), known[0]),
                    (known[-1] + 1, min(_HIGHEST, known[-1] + 1 + EDGE)),
                    *((low + 1, high) for low, high in pairwise(known)),
                ),
                key=lambda stretch: stretch[1] - stretch[0],
            )
        budget = PROBES
        for low, high in stretches:
            if high - low > budget:
                break
            budget -= high - low
            for rowid in range(low, high):
                if rowid not in self.found:
                    self.one("WHERE rowid = ?", (rowid,))
