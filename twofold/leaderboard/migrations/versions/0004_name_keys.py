"""What each name is compared by, so that its look-alikes are found (schema 4).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # names.name_key of the name; filled by the store when it opens
    op.add_column("entries", sa.Column("name_key", sa.Text))
    op.create_index("entries_name_key", "entries", ["mode", "code", "name_key"])


def downgrade() -> None:
    op.drop_index("entries_name_key", "entries")
    with op.batch_alter_table("entries") as batch:
        batch.drop_column("name_key")
