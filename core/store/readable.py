"""The rows of a damaged file that SQLite can still read: every row on a page that reads.

What a repair compares its rebuilt file with, and what a fresh file is given of a
damaged one (:mod:`twofold.core.store.salvage`).
"""

from __future__ import annotations

import sqlite3
from itertools import pairwise
from pathlib import Path

from twofold.core.store.schema import FINISHED, LIVE, SAVE_TAIL, SAVES, SETTINGS, Table

#: the tables whose rows are copied from a damaged file, in this order
KEPT = (SETTINGS, FINISHED, SAVES, SAVE_TAIL, LIVE)


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
