"""The leaderboard's tables as SQLAlchemy Core sees them: one schema for SQLite and PostgreSQL.

This is the schema the newest migration (``migrations/versions``) leaves; the migrations
themselves are frozen, and a test compares what they build with these tables on both stores.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Double,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    Table,
    Text,
    text,
)

metadata = MetaData()

#: SQLite's rowid (INTEGER PRIMARY KEY AUTOINCREMENT) there, BIGSERIAL on PostgreSQL
_ID = BigInteger().with_variant(Integer(), "sqlite")

entries = Table(
    "entries",
    metadata,
    Column("id", _ID, primary_key=True, autoincrement=True),
    # the mode, the code and the log: the same game sent again is never counted twice
    Column("game_key", Text, nullable=False, unique=True),
    Column("mode", Text, nullable=False),
    Column("code", Text, nullable=False),
    Column("day", Text),
    Column("name", Text, nullable=False),
    Column("score", BigInteger, nullable=False),
    Column("largest", BigInteger, nullable=False),
    Column("moves", BigInteger, nullable=False),
    Column("played", Text, nullable=False),
    Column("assisted", Integer, nullable=False),
    Column("proof", Text, nullable=False),
    Column("submitted", Double, nullable=False),
    # -1: not counted yet (an entry stored before the count was kept); -2: cannot be replayed
    Column("actions", BigInteger, nullable=False, server_default=text("-1")),
    # what a name is compared by (names.name_key): its look-alikes have the same key
    Column("name_key", Text),
    Index("entries_name_key", "mode", "code", "name_key"),
    sqlite_autoincrement=True,
)
# a board, best first: the unassisted (the default board), and all
Index(
    "entries_unassisted",
    entries.c.mode,
    entries.c.code,
    entries.c.assisted,
    entries.c.score.desc(),
    entries.c.id,
)
Index("entries_all", entries.c.mode, entries.c.code, entries.c.score.desc(), entries.c.id)

#: the keys of each game's first 16, 32, 64, … actions: a game that starts another is found by them
checkpoints = Table(
    "checkpoints",
    metadata,
    Column("key", Text, nullable=False),
    Column("entry_id", BigInteger, ForeignKey("entries.id", ondelete="CASCADE"), nullable=False),
    Index("checkpoints_key", "key"),
    Index("checkpoints_entry", "entry_id"),
)

#: each game's replay, made once when it is accepted (gzipped JSON), never per request
replays = Table(
    "replays",
    metadata,
    Column(
        "entry_id",
        BigInteger,
        ForeignKey("entries.id", ondelete="CASCADE"),
        primary_key=True,
        autoincrement=False,
    ),
    Column("frames", LargeBinary, nullable=False),
)

#: where a PostgreSQL database kept its schema's version before Alembic (one row)
legacy_version = Table(
    "twofold_leaderboard", MetaData(), Column("version", Integer, nullable=False)
)
