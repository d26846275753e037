"""games in progress (TEAM-MACH-2) and the extra-ball opt-out (TEAM-PEN-3) of team matches

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02 10:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "match_game_start",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("round_index", sa.Integer(), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_by", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_match_game_start_match_id_match"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match_game_start")),
        sa.UniqueConstraint(
            "match_id", "round_index", "game_number", name=op.f("uq_match_game_start_match_id_round_index_game_number")
        ),
    )
    with op.batch_alter_table("match_game_start", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_match_game_start_match_id"), ["match_id"], unique=False)
    op.create_table(
        "extra_ball_opt_out",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(length=8), nullable=False),
        sa.Column("agreed_by", sa.BigInteger(), nullable=False),
        sa.Column("agreed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_extra_ball_opt_out_match_id_match"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_extra_ball_opt_out")),
        sa.UniqueConstraint("match_id", "side", name=op.f("uq_extra_ball_opt_out_match_id_side")),
    )
    with op.batch_alter_table("extra_ball_opt_out", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_extra_ball_opt_out_match_id"), ["match_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("extra_ball_opt_out", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_extra_ball_opt_out_match_id"))
    op.drop_table("extra_ball_opt_out")
    with op.batch_alter_table("match_game_start", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_match_game_start_match_id"))
    op.drop_table("match_game_start")
