"""a league's earlier option versions, each with the date it stopped applying (COMMON-LEAGUE-2)

Existing leagues start with none: their current options are the first version, in effect from the beginning.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02 04:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Existing rows get an empty history through a server default, which is then dropped: the model sets it.
    with op.batch_alter_table("league", schema=None) as batch_op:
        batch_op.add_column(sa.Column("option_history", sa.JSON(), nullable=False, server_default="[]"))
    with op.batch_alter_table("league", schema=None) as batch_op:
        batch_op.alter_column("option_history", server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("league", schema=None) as batch_op:
        batch_op.drop_column("option_history")
