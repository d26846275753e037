"""group boards of ladder and field nights: where each group's living board is, and who confirmed a score

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 04:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("ladder_group", schema=None) as batch_op:
        batch_op.add_column(sa.Column("board_channel_id", sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column("board_message_id", sa.BigInteger(), nullable=True))
    with op.batch_alter_table("ladder_score", schema=None) as batch_op:
        batch_op.add_column(sa.Column("confirmed_by", sa.BigInteger(), nullable=True))
    with op.batch_alter_table("field_night", schema=None) as batch_op:
        batch_op.add_column(sa.Column("boards", sa.JSON(), nullable=True))
    with op.batch_alter_table("field_score", schema=None) as batch_op:
        batch_op.add_column(sa.Column("confirmed_by", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("field_score", schema=None) as batch_op:
        batch_op.drop_column("confirmed_by")
    with op.batch_alter_table("field_night", schema=None) as batch_op:
        batch_op.drop_column("boards")
    with op.batch_alter_table("ladder_score", schema=None) as batch_op:
        batch_op.drop_column("confirmed_by")
    with op.batch_alter_table("ladder_group", schema=None) as batch_op:
        batch_op.drop_column("board_message_id")
        batch_op.drop_column("board_channel_id")
