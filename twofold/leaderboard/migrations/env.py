"""Alembic's entry point for the leaderboard's migrations.

The store runs them when it opens (``boards.migrate``), on the connection it passes in
``config.attributes["connection"]``, inside its own transaction; the ``alembic`` command
can run them too, given ``sqlalchemy.url``.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from twofold.leaderboard.tables import metadata

connection = context.config.attributes.get("connection")
if connection is not None:
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()
else:
    engine = create_engine(context.config.get_main_option("sqlalchemy.url") or "")
    with engine.begin() as opened:
        context.configure(connection=opened, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()
