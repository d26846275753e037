"""photos of machine displays kept with games (one table per format: a team match's game, a ladder group's game, a
field group's machine)

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-02 10:20:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "field_game_photo",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("night_id", sa.Integer(), nullable=False),
        sa.Column("group_number", sa.Integer(), nullable=False),
        sa.Column("machine_id", sa.Integer(), nullable=False),
        sa.Column("url", sa.String(length=2048), nullable=False),
        sa.Column("filename", sa.String(length=255), nullable=False),
        sa.Column("content_type", sa.String(length=100), nullable=False),
        sa.Column("uploaded_by", sa.BigInteger(), nullable=False),
        sa.Column("uploaded_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["machine_id"], ["machine.id"], name=op.f("fk_field_game_photo_machine_id_machine"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["night_id"], ["field_night.id"], name=op.f("fk_field_game_photo_night_id_field_night"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_field_game_photo")),
        sa.UniqueConstraint(
            "night_id", "group_number", "machine_id", name=op.f("uq_field_game_photo_night_id_group_number_machine_id")
        ),
    )
    with op.batch_alter_table("field_game_photo", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_field_game_photo_night_id"), ["night_id"], unique=False)

    op.create_table(
        "game_photo",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("round_index", sa.Integer(), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("url", sa.String(length=2048), nullable=False),
        sa.Column("filename", sa.String(length=255), nullable=False),
        sa.Column("content_type", sa.String(length=100), nullable=False),
        sa.Column("uploaded_by", sa.BigInteger(), nullable=False),
        sa.Column("uploaded_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_game_photo_match_id_match"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_photo")),
        sa.UniqueConstraint(
            "match_id", "round_index", "game_number", name=op.f("uq_game_photo_match_id_round_index_game_number")
        ),
    )
    with op.batch_alter_table("game_photo", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_photo_match_id"), ["match_id"], unique=False)

    op.create_table(
        "ladder_game_photo",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("slot", sa.Integer(), nullable=False),
        sa.Column("url", sa.String(length=2048), nullable=False),
        sa.Column("filename", sa.String(length=255), nullable=False),
        sa.Column("content_type", sa.String(length=100), nullable=False),
        sa.Column("uploaded_by", sa.BigInteger(), nullable=False),
        sa.Column("uploaded_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["ladder_group.id"],
            name=op.f("fk_ladder_game_photo_group_id_ladder_group"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ladder_game_photo")),
        sa.UniqueConstraint("group_id", "slot", name=op.f("uq_ladder_game_photo_group_id_slot")),
    )
    with op.batch_alter_table("ladder_game_photo", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_ladder_game_photo_group_id"), ["group_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("ladder_game_photo", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ladder_game_photo_group_id"))

    op.drop_table("ladder_game_photo")
    with op.batch_alter_table("game_photo", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_photo_match_id"))

    op.drop_table("game_photo")
    with op.batch_alter_table("field_game_photo", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_field_game_photo_night_id"))

    op.drop_table("field_game_photo")
