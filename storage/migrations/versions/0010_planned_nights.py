"""planned nights of ladder and field seasons (COMMON-SEASON-1)

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02 04:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "planned_night",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("week", sa.Integer(), nullable=True),
        sa.Column("play_on", sa.Date(), nullable=False),
        sa.Column("starts", sa.String(length=5), nullable=False),
        sa.Column("skipped_because", sa.String(length=200), nullable=True),
        sa.ForeignKeyConstraint(
            ["league_id"], ["league.id"], name=op.f("fk_planned_night_league_id_league"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["season_id"], ["season.id"], name=op.f("fk_planned_night_season_id_season"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_planned_night")),
        sa.UniqueConstraint("season_id", "play_on", name=op.f("uq_planned_night_season_id_play_on")),
        sa.UniqueConstraint("season_id", "week", name=op.f("uq_planned_night_season_id_week")),
    )
    with op.batch_alter_table("planned_night", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_planned_night_league_id"), ["league_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_planned_night_season_id"), ["season_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("planned_night", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_planned_night_season_id"))
        batch_op.drop_index(batch_op.f("ix_planned_night_league_id"))
    op.drop_table("planned_night")
