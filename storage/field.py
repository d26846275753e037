"""Field-format facts: meet nights and their machines, check-ins and groups, machine scores, tie-breaker
playoffs, penalties, and the finals (entries, seeding, best-of-three games).

Points, standings and brackets are never stored: `bot.rules.field` computes them from these rows, so a
correction anywhere recomputes everything after it (COMMON-LEAGUE-2 aside). Unique keys settle races:
one night per (season, week), one check-in per (night, player), one score per (night, player, machine,
attempt), one playoff per (night, machine, tied players), one finals game per (finals, match, number).
"""

from __future__ import annotations

from datetime import date, datetime
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from bot.rules.field.groups import PlayMode
from bot.rules.field.malfunctions import Incident, Severity
from bot.rules.field.penalties import Offence
from bot.rules.photos import FILENAME_LENGTH as PHOTO_FILENAME_LENGTH
from bot.rules.photos import TYPE_LENGTH as PHOTO_TYPE_LENGTH
from bot.rules.photos import URL_LENGTH as PHOTO_URL_LENGTH
from storage.models import enum_column, json_column, snowflake, utc_column


class NightState(StrEnum):
    OPEN = "open"
    CLOSED = "closed"  # final: scores and penalties can no longer change


class FieldNight(SQLModel, table=True):
    """One meet (league night) of a field league: week number, date, the five machines (FIELD-MSEL-1)."""

    __tablename__ = "field_night"
    __table_args__ = (sa.UniqueConstraint("season_id", "week"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True, ondelete="CASCADE")
    season_id: int = Field(foreign_key="season.id", index=True, ondelete="CASCADE")
    week: int
    play_on: date
    state: NightState = enum_column(NightState, 16, default=NightState.OPEN)
    machine_ids: list[int] = json_column(default_factory=list)  # in announcement order
    groups_made_at: datetime | None = utc_column(default=None)
    opened_by: int = snowflake()
    boards: dict[str, list[int]] | None = json_column(default=None)  # group → [channel, message] of its board


class FieldCheckin(SQLModel, table=True):
    """FIELD-ATT-1/3: a player present at a night; guests carry the approving official (FIELD-ATT-3)."""

    __tablename__ = "field_checkin"
    __table_args__ = (sa.UniqueConstraint("night_id", "player_id"),)

    id: int | None = Field(default=None, primary_key=True)
    night_id: int = Field(foreign_key="field_night.id", index=True, ondelete="CASCADE")
    player_id: int = Field(foreign_key="player.id", index=True, ondelete="CASCADE")
    guest: bool = False
    approved_by: int | None = snowflake(default=None)
    group_number: int | None = None  # 1-based, once groups are made
    mode: PlayMode = enum_column(PlayMode, 16, default=PlayMode.GROUP)
    arrived_at: datetime = utc_column()
    official_rank: int | None = None  # FIELD-OFF-1: an official checking in, 0 = highest (FIELD-OFF-2 picks the SLO)


class FieldScore(SQLModel, table=True):
    """A machine score (FIELD-SCORE-1); attempt 2 is a sanctioned replay that replaces attempt 1."""

    __tablename__ = "field_score"
    __table_args__ = (sa.UniqueConstraint("night_id", "player_id", "machine_id", "attempt"),)

    id: int | None = Field(default=None, primary_key=True)
    night_id: int = Field(foreign_key="field_night.id", index=True, ondelete="CASCADE")
    player_id: int = Field(foreign_key="player.id", index=True, ondelete="CASCADE")
    machine_id: int = Field(foreign_key="machine.id", index=True, ondelete="CASCADE")
    attempt: int = 1
    score: int = Field(sa_type=sa.BigInteger)
    entered_by: int = snowflake()
    entered_at: datetime = utc_column()
    confirmed_by: int | None = snowflake(default=None)  # another group member (then FIELD-SCORE-4 corrects it)


class FieldCorrection(SQLModel, table=True):
    """FIELD-SCORE-4: a request to correct a written score. It applies only when every player of the group
    confirms (`votes`: player id → agrees) within the window; the first score is kept (COMMON-SCORE-3)."""

    __tablename__ = "field_correction"

    id: int | None = Field(default=None, primary_key=True)
    night_id: int = Field(foreign_key="field_night.id", index=True, ondelete="CASCADE")
    score_id: int = Field(foreign_key="field_score.id", index=True, ondelete="CASCADE")
    new_score: int = Field(sa_type=sa.BigInteger)
    group_players: list[int] = json_column(default_factory=list)  # the players who must all confirm
    votes: dict[str, bool] = json_column(default_factory=dict)
    reason: str = Field(max_length=500)
    requested_by: int = snowflake()
    requested_at: datetime = utc_column()


class FieldPlayoff(SQLModel, table=True):
    """FIELD-SCORE-3: the one-ball playoff of players tied on a machine; `order` is best first, or empty when
    it could not be played (FIELD-AMB-17). `players_key` is the sorted player ids, for uniqueness."""

    __tablename__ = "field_playoff"
    __table_args__ = (sa.UniqueConstraint("night_id", "machine_id", "players_key"),)

    id: int | None = Field(default=None, primary_key=True)
    night_id: int = Field(foreign_key="field_night.id", index=True, ondelete="CASCADE")
    machine_id: int = Field(foreign_key="machine.id", ondelete="CASCADE")
    players_key: str = Field(max_length=200)
    order: list[int] = json_column(default_factory=list)
    entered_by: int = snowflake()
    entered_at: datetime = utc_column()


class FieldPenalty(SQLModel, table=True):
    """FIELD-PEN-*: an offence recorded by an official; its effect is computed (bot.rules.field.penalties)."""

    __tablename__ = "field_penalty"

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True, ondelete="CASCADE")
    season_id: int = Field(foreign_key="season.id", index=True, ondelete="CASCADE")
    night_id: int = Field(foreign_key="field_night.id", index=True, ondelete="CASCADE")
    player_id: int = Field(foreign_key="player.id", index=True, ondelete="CASCADE")
    offence: Offence = enum_column(Offence, 24)
    machine_id: int | None = Field(default=None, foreign_key="machine.id", ondelete="SET NULL")
    note: str | None = Field(default=None, max_length=500)
    recorded_by: int = snowflake()
    recorded_at: datetime = utc_column()
    ruling: str | None = Field(default=None, max_length=200)  # what was decided: the victim's choice, the fix…
    group_replay: bool = False  # the offender's group replays the game on the machine (FIELD-PEN-2/5)


class FieldMalfunction(SQLModel, table=True):
    """FIELD-MALF-7 / COMMON-MALF-1: the maintenance sheet: what happened on which machine, how serious
    (FIELD-MALF-1), who reported it; exported for the venue operator."""

    __tablename__ = "field_malfunction"

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True, ondelete="CASCADE")
    night_id: int = Field(foreign_key="field_night.id", index=True, ondelete="CASCADE")
    machine_id: int = Field(foreign_key="machine.id", ondelete="CASCADE")
    incident: Incident = enum_column(Incident, 32)
    severity: Severity = enum_column(Severity, 16)
    announced_before_play: bool = False
    note: str | None = Field(default=None, max_length=500)
    reported_by: int = snowflake()
    reported_at: datetime = utc_column()  # also the time of the decision (FIELD-MALF-2)
    group_number: int | None = None  # the group concerned, as `field_checkin.group_number`
    outcome: str | None = Field(default=None, max_length=24)  # the ruling (bot.services.field.malfunctions)
    ruled_by: int | None = snowflake(default=None)  # the SLO who ruled (FIELD-OFF-2)
    involved_official: bool = False  # every official present was in the group concerned (FIELD-OFF-2)


class FieldFinals(SQLModel, table=True):
    """A season's finals: the seeds in order once seeded (FIELD-FIN-2), and the tie-breaker games
    (FIELD-STAND-2) as {"players_key": [player ids best first], ...} with the drawn machine's seed logged."""

    __tablename__ = "field_finals"
    __table_args__ = (sa.UniqueConstraint("season_id"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True, ondelete="CASCADE")
    season_id: int = Field(foreign_key="season.id", index=True, ondelete="CASCADE")
    seeds: list[int] = json_column(default_factory=list)  # player ids, seed 1 first; empty until seeded
    a_division: int = 0
    tiebreaks: dict[str, Any] = json_column(default_factory=dict)
    seeded_at: datetime | None = utc_column(default=None)


class FieldFinalsEntry(SQLModel, table=True):
    """FIELD-FIN-1: a player checked in at the finals, with the entry fee paid or not."""

    __tablename__ = "field_finals_entry"
    __table_args__ = (sa.UniqueConstraint("finals_id", "player_id"),)

    id: int | None = Field(default=None, primary_key=True)
    finals_id: int = Field(foreign_key="field_finals.id", index=True, ondelete="CASCADE")
    player_id: int = Field(foreign_key="player.id", index=True, ondelete="CASCADE")
    paid: bool = False
    recorded_by: int = snowflake()
    recorded_at: datetime = utc_column()


class FieldFinalsGame(SQLModel, table=True):
    """FIELD-FIN-4/5: one game of a best-of-three pairing: the two picks and the winning seed."""

    __tablename__ = "field_finals_game"
    __table_args__ = (sa.UniqueConstraint("finals_id", "bracket", "match_code", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    finals_id: int = Field(foreign_key="field_finals.id", index=True, ondelete="CASCADE")
    bracket: int = 0  # 0 = the single bracket or A, 1 = B (FIELD-AMB-4)
    match_code: str = Field(max_length=16)  # the bracket's match id, e.g. "W1-2"
    number: int
    picks: list[dict[str, Any]] = json_column(default_factory=list)
    winner_seed: int | None = None


class FieldGamePhoto(SQLModel, table=True):
    """A photo of the machine's display, sent with a group's scores on one machine from its board's form (one
    per group and machine; a fix may replace it, taking the scores back removes it)."""

    __tablename__ = "field_game_photo"
    __table_args__ = (sa.UniqueConstraint("night_id", "group_number", "machine_id"),)

    id: int | None = Field(default=None, primary_key=True)
    night_id: int = Field(foreign_key="field_night.id", index=True, ondelete="CASCADE")
    group_number: int  # as `field_checkin.group_number`
    machine_id: int = Field(foreign_key="machine.id", ondelete="CASCADE")
    url: str = Field(max_length=PHOTO_URL_LENGTH)
    filename: str = Field(max_length=PHOTO_FILENAME_LENGTH)
    content_type: str = Field(max_length=PHOTO_TYPE_LENGTH)
    uploaded_by: int = snowflake()
    uploaded_at: datetime = utc_column()
