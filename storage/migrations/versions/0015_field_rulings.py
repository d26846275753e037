"""field rulings: the official rank of a check-in (FIELD-OFF-1/2), a malfunction's group, outcome, ruling official
and involved-official flag (FIELD-MALF-2..5), a penalty's ruling and group replay (FIELD-PEN-2/5/7/8)

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-02 13:50:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("field_checkin", schema=None) as batch_op:
        batch_op.add_column(sa.Column("official_rank", sa.Integer(), nullable=True))
    with op.batch_alter_table("field_malfunction", schema=None) as batch_op:
        batch_op.add_column(sa.Column("group_number", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("outcome", sa.String(length=24), nullable=True))
        batch_op.add_column(sa.Column("ruled_by", sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column("involved_official", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("field_malfunction", schema=None) as batch_op:
        batch_op.alter_column("involved_official", server_default=None)
    with op.batch_alter_table("field_penalty", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ruling", sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column("group_replay", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("field_penalty", schema=None) as batch_op:
        batch_op.alter_column("group_replay", server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("field_penalty", schema=None) as batch_op:
        batch_op.drop_column("group_replay")
        batch_op.drop_column("ruling")
    with op.batch_alter_table("field_malfunction", schema=None) as batch_op:
        batch_op.drop_column("involved_official")
        batch_op.drop_column("ruled_by")
        batch_op.drop_column("outcome")
        batch_op.drop_column("group_number")
    with op.batch_alter_table("field_checkin", schema=None) as batch_op:
        batch_op.drop_column("official_rank")
