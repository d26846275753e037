"""roll-call answers of planned ladder and field nights

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02 05:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "night_roll_call_reply",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("planned_night_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("answer", sa.String(length=8), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["planned_night_id"],
            ["planned_night.id"],
            name=op.f("fk_night_roll_call_reply_planned_night_id_planned_night"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_night_roll_call_reply_player_id_player"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_night_roll_call_reply")),
        sa.UniqueConstraint(
            "planned_night_id", "player_id", name=op.f("uq_night_roll_call_reply_planned_night_id_player_id")
        ),
    )
    with op.batch_alter_table("night_roll_call_reply", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_night_roll_call_reply_planned_night_id"), ["planned_night_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("night_roll_call_reply", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_night_roll_call_reply_planned_night_id"))
    op.drop_table("night_roll_call_reply")
