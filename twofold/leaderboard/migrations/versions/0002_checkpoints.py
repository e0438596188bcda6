"""Each entry's count of actions, and the checkpoints a related game is found by (schema 2).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # -1: not known yet; the store counts it from the proof when it opens
    op.add_column(
        "entries",
        sa.Column("actions", sa.BigInteger, nullable=False, server_default=sa.text("-1")),
    )
    op.create_table(
        "checkpoints",
        sa.Column("key", sa.Text, nullable=False),
        sa.Column(
            "entry_id",
            sa.BigInteger,
            sa.ForeignKey("entries.id", ondelete="CASCADE"),
            nullable=False,
        ),
    )
    op.create_index("checkpoints_key", "checkpoints", ["key"])
    op.create_index("checkpoints_entry", "checkpoints", ["entry_id"])


def downgrade() -> None:
    op.drop_table("checkpoints")
    with op.batch_alter_table("entries") as batch:
        batch.drop_column("actions")
