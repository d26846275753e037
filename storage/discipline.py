"""The commissioner's records: the discipline ledger, disputes (precedents, games played both ways, captains'
agreements) and the machine-issue log.

Like every other table, each row belongs to one league. Flags (an expulsion review, repeated slam tilts, a
team's second warning) are never stored: `bot.rules.discipline` derives them from these rows.
"""

from __future__ import annotations

from datetime import date, datetime
from enum import StrEnum

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from bot.rules.discipline import DisciplineKind
from bot.rules.team.model import Side
from storage.models import enum_column, json_column, snowflake, utc_column


class IncidentStatus(StrEnum):
    INVESTIGATING = "investigating"
    DECIDED = "decided"  # a warning, suspension or expulsion names it
    DISMISSED = "dismissed"


class ConductIncident(SQLModel, table=True):
    """TEAM-DISC-1: a conduct incident an official records, investigated before any outcome is decided."""

    __tablename__ = "conduct_incident"

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True, ondelete="CASCADE")
    player_id: int = Field(foreign_key="player.id", index=True, ondelete="CASCADE")
    category: str = Field(max_length=24)
    description: str = Field(max_length=1000)
    status: IncidentStatus = enum_column(IncidentStatus, 16, default=IncidentStatus.INVESTIGATING)
    reported_by: int = snowflake()
    reported_at: datetime = utc_column()
    closed_reason: str | None = Field(default=None, max_length=500)


class DisciplineEntry(SQLModel, table=True):
    """COMMON-DISC-1: one warning, suspension or expulsion of a player, or a warning to a team (TEAM-DISC-4).

    A suspension applies from `starts_on` through `ends_on`, or to the end of its season when `ends_on` is
    empty. Lifting keeps the row and records who lifted it, when and why."""

    __tablename__ = "discipline_entry"

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True, ondelete="CASCADE")
    season_id: int = Field(foreign_key="season.id", index=True, ondelete="CASCADE")
    player_id: int | None = Field(default=None, foreign_key="player.id", index=True, ondelete="CASCADE")
    team_id: int | None = Field(default=None, foreign_key="team.id", index=True, ondelete="CASCADE")
    kind: DisciplineKind = enum_column(DisciplineKind, 16)
    rule_id: str | None = Field(default=None, max_length=40)
    reason: str = Field(max_length=500)
    match_id: int | None = Field(default=None, foreign_key="match.id", ondelete="SET NULL")
    cause_id: int | None = Field(default=None, foreign_key="discipline_entry.id", ondelete="SET NULL")
    incident_id: int | None = Field(default=None, foreign_key="conduct_incident.id", ondelete="SET NULL")
    automatic: bool = False  # TEAM-DISC-2: the bot suspended on a second warning
    starts_on: date
    ends_on: date | None = None
    issued_by: int = snowflake()
    issued_at: datetime = utc_column()
    lifted_by: int | None = snowflake(default=None)
    lifted_at: datetime | None = utc_column(default=None)
    lift_reason: str | None = Field(default=None, max_length=500)


class Precedent(SQLModel, table=True):
    """COMMON-RULING-1: a ruling kept with the tags that make a later dispute similar to it."""

    __tablename__ = "precedent"

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True, ondelete="CASCADE")
    challenge_id: int | None = Field(default=None, foreign_key="match_challenge.id", ondelete="SET NULL")
    kind: str = Field(max_length=24)
    rule_id: str | None = Field(default=None, max_length=40)
    machine_family: str | None = Field(default=None, max_length=100)
    situation: str = Field(max_length=1000)
    ruling: str = Field(max_length=1000)
    official_took_part: bool = False  # COMMON-DISPUTE-1: the ruling official played in the match
    ruled_by: int = snowflake()
    ruled_at: datetime = utc_column()


class IssueSeverity(StrEnum):
    MINOR = "minor"
    MAJOR = "major"
    CATASTROPHIC = "catastrophic"
    POSITIVE = "positive"


class IssueKind(StrEnum):
    FAILURE = "failure"  # TEAM-MACH-7
    ADJUSTMENT = "adjustment"  # TEAM-MACH-8: a non-essential adjustment after 18:00 on match night
    STATUS = "status"  # an official changed the machine's status


class MachineIssue(SQLModel, table=True):
    """COMMON-MALF-1: the venue's maintenance sheet, exportable for its operator."""

    __tablename__ = "machine_issue"

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True, ondelete="CASCADE")
    machine_id: int = Field(foreign_key="machine.id", index=True, ondelete="CASCADE")
    match_id: int | None = Field(default=None, foreign_key="match.id", ondelete="SET NULL")
    kind: IssueKind = enum_column(IssueKind, 16)
    severity: IssueSeverity = enum_column(IssueSeverity, 16)
    description: str = Field(max_length=500)
    action_taken: str = Field(max_length=200)
    reported_by: int = snowflake()
    reported_at: datetime = utc_column(index=True)


class AlternativeResult(SQLModel, table=True):
    """TEAM-DISP-3: a disputed game played both ways; the scores as entered are interpretation A, these are B.
    `scores` maps each player id (as text) to their score under B."""

    __tablename__ = "alternative_result"
    __table_args__ = (sa.UniqueConstraint("match_id", "round_index", "game_number"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True, ondelete="CASCADE")
    round_index: int
    game_number: int
    scores: dict[str, int] = json_column(default_factory=dict)
    entered_by: int = snowflake()
    entered_at: datetime = utc_column()
    chosen: str | None = Field(default=None, max_length=1)  # "A" or "B", once the commissioner rules


class MatchAgreement(SQLModel, table=True):
    """TEAM-DISP-2: how both captains agreed to handle a situation the rules do not cover; it stands for this
    match even if the rules change later. Proposed by one captain, accepted by the other."""

    __tablename__ = "match_agreement"

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True, ondelete="CASCADE")
    terms: str = Field(max_length=1000)
    proposed_by: int = snowflake()
    proposed_for: Side = enum_column(Side, 8)  # the proposing captain's side
    proposed_at: datetime = utc_column()
    accepted_by: int | None = snowflake(default=None)
    accepted_at: datetime | None = utc_column(default=None)
