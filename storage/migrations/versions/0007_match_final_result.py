"""stored final results of team matches, valid while the match's facts_version stays the same

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-30 01:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "match_final_result",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("facts_version", sa.Integer(), nullable=False),
        sa.Column("basis", sa.String(length=16), nullable=False),
        sa.Column("home_points", sa.Integer(), nullable=False),
        sa.Column("away_points", sa.Integer(), nullable=False),
        sa.Column("home_outcome", sa.String(length=8), nullable=True),
        sa.Column("away_outcome", sa.String(length=8), nullable=True),
        sa.Column("available_points", sa.Integer(), nullable=True),
        sa.Column("needs_tiebreaker", sa.Boolean(), nullable=False),
        sa.Column("flags", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_match_final_result_match_id_match"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_match_final_result")),
    )
    # Existing rows get 0 through a server default, which is then dropped: the model sets the value.
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.add_column(sa.Column("facts_version", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.alter_column("facts_version", server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.drop_column("facts_version")
    op.drop_table("match_final_result")
