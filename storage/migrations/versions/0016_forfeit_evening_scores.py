"""forfeit-evening scores: the games the attending team plays on a forfeit evening, for high scores (TEAM-FORF-2,
TEAM-HS-3)

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-03 06:10:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "forfeit_evening_score",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("machine_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("score", sa.BigInteger(), nullable=False),
        sa.Column("entered_by", sa.BigInteger(), nullable=False),
        sa.Column("entered_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["machine_id"], ["machine.id"], name=op.f("fk_forfeit_evening_score_machine_id_machine"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_forfeit_evening_score_match_id_match"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_forfeit_evening_score_player_id_player"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_forfeit_evening_score")),
        sa.UniqueConstraint(
            "match_id",
            "game_number",
            "player_id",
            name=op.f("uq_forfeit_evening_score_match_id_game_number_player_id"),
        ),
    )
    with op.batch_alter_table("forfeit_evening_score", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_forfeit_evening_score_match_id"), ["match_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("forfeit_evening_score", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_forfeit_evening_score_match_id"))

    op.drop_table("forfeit_evening_score")
