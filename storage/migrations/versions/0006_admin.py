"""commissioner tools: discipline ledger, conduct incidents, disputes, machine-issue log

Revision ID: 0006
Revises: 0002
Create Date: 2026-11-29 22:03:51.212806
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "conduct_incident",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("category", sa.String(length=24), nullable=False),
        sa.Column("description", sa.String(length=1000), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("reported_by", sa.BigInteger(), nullable=False),
        sa.Column("reported_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_reason", sa.String(length=500), nullable=True),
        sa.ForeignKeyConstraint(
            ["league_id"], ["league.id"], name=op.f("fk_conduct_incident_league_id_league"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_conduct_incident_player_id_player"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_conduct_incident")),
    )
    with op.batch_alter_table("conduct_incident", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_conduct_incident_league_id"), ["league_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_conduct_incident_player_id"), ["player_id"], unique=False)

    op.create_table(
        "alternative_result",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("round_index", sa.Integer(), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("scores", sa.JSON(), nullable=False),
        sa.Column("entered_by", sa.BigInteger(), nullable=False),
        sa.Column("entered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("chosen", sa.String(length=1), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_alternative_result_match_id_match"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_alternative_result")),
        sa.UniqueConstraint(
            "match_id",
            "round_index",
            "game_number",
            name=op.f("uq_alternative_result_match_id_round_index_game_number"),
        ),
    )
    with op.batch_alter_table("alternative_result", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_alternative_result_match_id"), ["match_id"], unique=False)

    op.create_table(
        "discipline_entry",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("team_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("rule_id", sa.String(length=40), nullable=True),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("cause_id", sa.Integer(), nullable=True),
        sa.Column("incident_id", sa.Integer(), nullable=True),
        sa.Column("automatic", sa.Boolean(), nullable=False),
        sa.Column("starts_on", sa.Date(), nullable=False),
        sa.Column("ends_on", sa.Date(), nullable=True),
        sa.Column("issued_by", sa.BigInteger(), nullable=False),
        sa.Column("issued_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lifted_by", sa.BigInteger(), nullable=True),
        sa.Column("lifted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lift_reason", sa.String(length=500), nullable=True),
        sa.ForeignKeyConstraint(
            ["cause_id"],
            ["discipline_entry.id"],
            name=op.f("fk_discipline_entry_cause_id_discipline_entry"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["incident_id"],
            ["conduct_incident.id"],
            name=op.f("fk_discipline_entry_incident_id_conduct_incident"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["league_id"], ["league.id"], name=op.f("fk_discipline_entry_league_id_league"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_discipline_entry_match_id_match"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_discipline_entry_player_id_player"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["season_id"], ["season.id"], name=op.f("fk_discipline_entry_season_id_season"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["team_id"], ["team.id"], name=op.f("fk_discipline_entry_team_id_team"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_discipline_entry")),
    )
    with op.batch_alter_table("discipline_entry", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_discipline_entry_league_id"), ["league_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_discipline_entry_player_id"), ["player_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_discipline_entry_season_id"), ["season_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_discipline_entry_team_id"), ["team_id"], unique=False)

    op.create_table(
        "machine_issue",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("machine_id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("severity", sa.String(length=16), nullable=False),
        sa.Column("description", sa.String(length=500), nullable=False),
        sa.Column("action_taken", sa.String(length=200), nullable=False),
        sa.Column("reported_by", sa.BigInteger(), nullable=False),
        sa.Column("reported_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["league_id"], ["league.id"], name=op.f("fk_machine_issue_league_id_league"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["machine_id"], ["machine.id"], name=op.f("fk_machine_issue_machine_id_machine"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_machine_issue_match_id_match"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_machine_issue")),
    )
    with op.batch_alter_table("machine_issue", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_machine_issue_league_id"), ["league_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_machine_issue_machine_id"), ["machine_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_machine_issue_reported_at"), ["reported_at"], unique=False)

    op.create_table(
        "match_agreement",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("terms", sa.String(length=1000), nullable=False),
        sa.Column("proposed_by", sa.BigInteger(), nullable=False),
        sa.Column("proposed_for", sa.String(length=8), nullable=False),
        sa.Column("proposed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("accepted_by", sa.BigInteger(), nullable=True),
        sa.Column("accepted_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_match_agreement_match_id_match"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match_agreement")),
    )
    with op.batch_alter_table("match_agreement", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_match_agreement_match_id"), ["match_id"], unique=False)

    op.create_table(
        "precedent",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("challenge_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("rule_id", sa.String(length=40), nullable=True),
        sa.Column("machine_family", sa.String(length=100), nullable=True),
        sa.Column("situation", sa.String(length=1000), nullable=False),
        sa.Column("ruling", sa.String(length=1000), nullable=False),
        sa.Column("official_took_part", sa.Boolean(), nullable=False),
        sa.Column("ruled_by", sa.BigInteger(), nullable=False),
        sa.Column("ruled_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["challenge_id"],
            ["match_challenge.id"],
            name=op.f("fk_precedent_challenge_id_match_challenge"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["league_id"], ["league.id"], name=op.f("fk_precedent_league_id_league"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_precedent")),
    )
    with op.batch_alter_table("precedent", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_precedent_league_id"), ["league_id"], unique=False)

    # Existing rows get a value through a server default, which is then dropped: the models set these values.
    with op.batch_alter_table("league", schema=None) as batch_op:
        batch_op.add_column(sa.Column("extra_commissioner_role_ids", sa.JSON(), nullable=False, server_default="[]"))
    with op.batch_alter_table("league", schema=None) as batch_op:
        batch_op.alter_column("extra_commissioner_role_ids", server_default=None)

    with op.batch_alter_table("match_challenge", schema=None) as batch_op:
        batch_op.add_column(sa.Column("kind", sa.String(length=24), nullable=False, server_default="score"))
        batch_op.add_column(sa.Column("rule_id", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("photo_url", sa.String(length=500), nullable=True))
    with op.batch_alter_table("match_challenge", schema=None) as batch_op:
        batch_op.alter_column("kind", server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("match_challenge", schema=None) as batch_op:
        batch_op.drop_column("photo_url")
        batch_op.drop_column("rule_id")
        batch_op.drop_column("kind")

    with op.batch_alter_table("league", schema=None) as batch_op:
        batch_op.drop_column("extra_commissioner_role_ids")

    with op.batch_alter_table("precedent", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_precedent_league_id"))

    op.drop_table("precedent")
    with op.batch_alter_table("match_agreement", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_match_agreement_match_id"))

    op.drop_table("match_agreement")
    with op.batch_alter_table("machine_issue", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_machine_issue_reported_at"))
        batch_op.drop_index(batch_op.f("ix_machine_issue_machine_id"))
        batch_op.drop_index(batch_op.f("ix_machine_issue_league_id"))

    op.drop_table("machine_issue")
    with op.batch_alter_table("discipline_entry", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_discipline_entry_team_id"))
        batch_op.drop_index(batch_op.f("ix_discipline_entry_season_id"))
        batch_op.drop_index(batch_op.f("ix_discipline_entry_player_id"))
        batch_op.drop_index(batch_op.f("ix_discipline_entry_league_id"))

    op.drop_table("discipline_entry")
    with op.batch_alter_table("alternative_result", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_alternative_result_match_id"))

    op.drop_table("alternative_result")
    with op.batch_alter_table("conduct_incident", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_conduct_incident_player_id"))
        batch_op.drop_index(batch_op.f("ix_conduct_incident_league_id"))

    op.drop_table("conduct_incident")
