"""Each game's replay, made once when it is accepted (schema 3).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "replays",
        sa.Column(
            "entry_id",
            sa.BigInteger,
            sa.ForeignKey("entries.id", ondelete="CASCADE"),
            primary_key=True,
            autoincrement=False,
        ),
        # gzipped JSON
        sa.Column("frames", sa.LargeBinary, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("replays")
