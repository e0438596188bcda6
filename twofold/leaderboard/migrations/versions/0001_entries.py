"""The entries, one a game, and the indexes a board is read by (schema 1).

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "entries",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            primary_key=True,
            autoincrement=True,
        ),
        sa.Column("game_key", sa.Text, nullable=False, unique=True),
        sa.Column("mode", sa.Text, nullable=False),
        sa.Column("code", sa.Text, nullable=False),
        sa.Column("day", sa.Text),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("score", sa.BigInteger, nullable=False),
        sa.Column("largest", sa.BigInteger, nullable=False),
        sa.Column("moves", sa.BigInteger, nullable=False),
        sa.Column("played", sa.Text, nullable=False),
        sa.Column("assisted", sa.Integer, nullable=False),
        sa.Column("proof", sa.Text, nullable=False),
        sa.Column("submitted", sa.Double, nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index(
        "entries_unassisted", "entries", ["mode", "code", "assisted", sa.text("score DESC"), "id"]
    )
    op.create_index("entries_all", "entries", ["mode", "code", sa.text("score DESC"), "id"])


def downgrade() -> None:
    op.drop_table("entries")
