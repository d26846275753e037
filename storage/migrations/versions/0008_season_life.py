"""a season's stage is derived from its facts, not stored; its post-season date; ladder players carried into a new
season keep a seed

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02 04:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("season", schema=None) as batch_op:
        batch_op.drop_column("status")
        batch_op.add_column(sa.Column("postseason_on", sa.Date(), nullable=True))
    with op.batch_alter_table("ladder_player", schema=None) as batch_op:
        batch_op.add_column(sa.Column("seed", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("ladder_player", schema=None) as batch_op:
        batch_op.drop_column("seed")
    with op.batch_alter_table("season", schema=None) as batch_op:
        batch_op.drop_column("postseason_on")
        batch_op.add_column(sa.Column("status", sa.String(length=16), nullable=False, server_default="planned"))
