"""Ladder-format facts: who plays, each league night's machines, groups, picks and scores, premakeups,
and what a closed night finalized.

Scores, picks and attendance are facts. Closing a night finalizes it (COMMON-LEAGUE-2): its per-player
results, the premakeup values it used and the next week's groups are stored then, so a later change of a
normalizer or a premakeup never silently rewrites a finished week.
"""

from __future__ import annotations

from datetime import date, datetime
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from bot.rules.ladder.groups import NightPresence
from bot.rules.photos import FILENAME_LENGTH as PHOTO_FILENAME_LENGTH
from bot.rules.photos import TYPE_LENGTH as PHOTO_TYPE_LENGTH
from bot.rules.photos import URL_LENGTH as PHOTO_URL_LENGTH
from storage.models import enum_column, json_column, snowflake, utc_column


class LadderOffence(StrEnum):
    DEATH_SAVE = "death_save"  # LADDER-PEN-4, bang-backs too
    TILTED_ANOTHERS_BALL = "tilted_anothers_ball"  # LADDER-PEN-5
    SLAM_INTENTIONAL = "slam_intentional"  # LADDER-PEN-6
    SLAM_ACCIDENTAL = "slam_accidental"
    SLAM_MALFUNCTION = "slam_malfunction"
    RESTART = "restart"  # LADDER-PEN-8: the wrong number of players started, the game aborted and restarted


class LadderStatus(StrEnum):
    ACTIVE = "active"
    DROPPED = "dropped"  # LADDER-ATT-5: the 3rd No-Show


class LadderPlayer(SQLModel, table=True):
    """A player's season in a ladder league (LADDER-REG-*, LADDER-ATT-5, LADDER-DIV-1, LADDER-PMU-9)."""

    __tablename__ = "ladder_player"
    __table_args__ = (sa.UniqueConstraint("season_id", "player_id"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True, ondelete="CASCADE")
    season_id: int = Field(foreign_key="season.id", index=True, ondelete="CASCADE")
    player_id: int = Field(foreign_key="player.id", index=True, ondelete="CASCADE")
    skill: int  # LADDER-REG-2
    joined_at: datetime = utc_column()
    status: LadderStatus = enum_column(LadderStatus, 16, default=LadderStatus.ACTIVE)
    no_shows: int = 0
    division: str | None = Field(default=None, max_length=1)  # "A" / "B" from week 6 (LADDER-DIV-1)
    premakeup_uses: int = 0  # out of the season cap (LADDER-PMU-5)
    missed_weeks: int = 0  # weeks with no game played (LADDER-AMB-24)
    seed: int | None = None  # place in last season's final standings, ahead of skill in week 1 (`/season new`)


class LadderMachine(SQLModel, table=True):
    """LADDER-NORM-1: the commissioner's normalizer for a machine (LADDER-AMB-28)."""

    __tablename__ = "ladder_machine"

    machine_id: int = Field(foreign_key="machine.id", primary_key=True, ondelete="CASCADE")
    league_id: int = Field(foreign_key="league.id", index=True, ondelete="CASCADE")
    normalizer: int = Field(sa_type=sa.BigInteger)


class LadderNight(SQLModel, table=True):
    """One league night (week). `machines` is the working set with the normalizers in force when it opened
    (LADDER-GSEL-1); `next_groups` is the movement result stored when it closes (LADDER-GROUP-3)."""

    __tablename__ = "ladder_night"
    __table_args__ = (sa.UniqueConstraint("season_id", "week"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True, ondelete="CASCADE")
    season_id: int = Field(foreign_key="season.id", index=True, ondelete="CASCADE")
    week: int
    play_on: date
    machines: list[dict[str, Any]] = json_column(default_factory=list)  # [{"id", "name", "normalizer"}]
    opened_at: datetime = utc_column()
    closed_at: datetime | None = utc_column(default=None)
    next_groups: list[list[int]] | None = json_column(default=None)  # ladder_player ids per group
    pot_cents: int = 0


class LadderGroup(SQLModel, table=True):
    """A group of a night: members in rank order at open, and its five game slots once chosen (GSEL-4)."""

    __tablename__ = "ladder_group"
    __table_args__ = (sa.UniqueConstraint("night_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    night_id: int = Field(foreign_key="ladder_night.id", index=True, ondelete="CASCADE")
    number: int  # 1 = top group (of its division)
    division: str | None = Field(default=None, max_length=1)
    members: list[int] = json_column(default_factory=list)  # ladder_player ids, best rank first
    ranks: dict[str, int] = json_column(default_factory=dict)  # ladder_player id → league rank at open
    slots: list[int] | None = json_column(default=None)  # machine ids, in play order
    playoff_orders: dict[str, list[int]] = json_column(default_factory=dict)  # slot → order (LADDER-AMB-5)
    board_channel_id: int | None = snowflake(default=None)  # the group's living board message
    board_message_id: int | None = snowflake(default=None)


class LadderPick(SQLModel, table=True):
    """LADDER-GSEL-3: one pick in a group's passes; `seq` settles races for the same turn."""

    __tablename__ = "ladder_pick"
    __table_args__ = (sa.UniqueConstraint("group_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    group_id: int = Field(foreign_key="ladder_group.id", index=True, ondelete="CASCADE")
    seq: int
    ladder_player_id: int = Field(foreign_key="ladder_player.id", ondelete="CASCADE")
    machine_id: int = Field(foreign_key="machine.id", ondelete="CASCADE")
    picked_at: datetime = utc_column()


class LadderScore(SQLModel, table=True):
    """A score played in one of a group's game slots (LADDER-SCORE-1); a correction updates it, audited."""

    __tablename__ = "ladder_score"
    __table_args__ = (sa.UniqueConstraint("group_id", "slot", "ladder_player_id"),)

    id: int | None = Field(default=None, primary_key=True)
    group_id: int = Field(foreign_key="ladder_group.id", index=True, ondelete="CASCADE")
    slot: int  # 0-based index into the group's slots
    ladder_player_id: int = Field(foreign_key="ladder_player.id", ondelete="CASCADE")
    score: int = Field(sa_type=sa.BigInteger)
    entered_by: int = Field(sa_type=sa.BigInteger)
    entered_at: datetime = utc_column()
    confirmed_by: int | None = snowflake(default=None)  # another group member (COMMON-SCORE-3: then locked)


class LadderPenalty(SQLModel, table=True):
    """LADDER-PEN-4/5/6/8: a ruling in one game of a group, against the offending player."""

    __tablename__ = "ladder_penalty"
    __table_args__ = (sa.UniqueConstraint("group_id", "slot", "ladder_player_id", "offence"),)

    id: int | None = Field(default=None, primary_key=True)
    group_id: int = Field(foreign_key="ladder_group.id", index=True, ondelete="CASCADE")
    slot: int
    ladder_player_id: int = Field(foreign_key="ladder_player.id", index=True, ondelete="CASCADE")
    offence: LadderOffence = enum_column(LadderOffence, 24)
    victim_id: int | None = Field(default=None, foreign_key="ladder_player.id", ondelete="SET NULL")
    recorded_by: int = Field(sa_type=sa.BigInteger)
    recorded_at: datetime = utc_column()


class LadderAttendance(SQLModel, table=True):
    """LADDER-ATT-1/3/4/5: check-in and notices for one week; notices may come before the night opens."""

    __tablename__ = "ladder_attendance"
    __table_args__ = (sa.UniqueConstraint("season_id", "week", "ladder_player_id"),)

    id: int | None = Field(default=None, primary_key=True)
    season_id: int = Field(foreign_key="season.id", index=True, ondelete="CASCADE")
    week: int
    ladder_player_id: int = Field(foreign_key="ladder_player.id", ondelete="CASCADE")
    checked_in_at: datetime | None = utc_column(default=None)
    absence_notice_at: datetime | None = utc_column(default=None)
    late_notice_at: datetime | None = utc_column(default=None)
    no_show: bool = False


class LadderPremakeup(SQLModel, table=True):
    """LADDER-PMU-9: one player's premakeup registry on one machine for the season."""

    __tablename__ = "ladder_premakeup"
    __table_args__ = (sa.UniqueConstraint("ladder_player_id", "machine_id"),)

    id: int | None = Field(default=None, primary_key=True)
    ladder_player_id: int = Field(foreign_key="ladder_player.id", index=True, ondelete="CASCADE")
    machine_id: int = Field(foreign_key="machine.id", ondelete="CASCADE")
    s1: int | None = Field(default=None, sa_type=sa.BigInteger)
    s2: int | None = Field(default=None, sa_type=sa.BigInteger)
    s1_with: str | None = Field(default=None, max_length=200)  # who else played (LADDER-PMU-1)
    s2_with: str | None = Field(default=None, max_length=200)
    declared_with: str | None = Field(default=None, max_length=200)  # a declared game not yet recorded
    order: list[str] | None = json_column(default=None)  # e.g. ["S2", "AVG", "S1"] (LADDER-PMU-3)
    used: list[str] = json_column(default_factory=list)
    locked: bool = False  # LADDER-PMU-4


class LadderResult(SQLModel, table=True):
    """A closed night's result for one player (LADDER-BONUS-4, LADDER-NORM-2): finalized, never recomputed."""

    __tablename__ = "ladder_result"
    __table_args__ = (sa.UniqueConstraint("night_id", "ladder_player_id"),)

    id: int | None = Field(default=None, primary_key=True)
    night_id: int = Field(foreign_key="ladder_night.id", index=True, ondelete="CASCADE")
    group_id: int = Field(foreign_key="ladder_group.id", ondelete="CASCADE")
    ladder_player_id: int = Field(foreign_key="ladder_player.id", index=True, ondelete="CASCADE")
    finish: int  # 1 = group winner (LADDER-BONUS-1)
    game_points: int
    bonus: int
    tns: str  # exact fraction "p/q" (LADDER-NORM-2)
    presence: NightPresence = enum_column(NightPresence, 16)
    games: list[dict[str, Any]] = json_column(default_factory=list)  # per slot: kind, placement, official, points


class LedgerKind(StrEnum):
    DUES = "dues"  # paid in by the player
    PAYOUT = "payout"  # paid out to the player from the weekly pot
    FORFEIT = "forfeit"  # what the player had paid, lost on the 3rd No-Show


class LadderLedger(SQLModel, table=True):
    """COMMON-MONEY-1 / LADDER-PAY-*: money in integer cents, always a positive amount; `kind` says which way."""

    __tablename__ = "ladder_ledger"

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True, ondelete="CASCADE")
    season_id: int = Field(foreign_key="season.id", index=True, ondelete="CASCADE")
    night_id: int | None = Field(default=None, foreign_key="ladder_night.id", ondelete="SET NULL")
    ladder_player_id: int = Field(foreign_key="ladder_player.id", ondelete="CASCADE")
    kind: LedgerKind = enum_column(LedgerKind, 16)
    cents: int
    at: datetime = utc_column()


class LadderGamePhoto(SQLModel, table=True):
    """A photo of the machine's display, sent with a group game's scores from its board's form (one per game;
    a fix may replace it, taking the scores back removes it)."""

    __tablename__ = "ladder_game_photo"
    __table_args__ = (sa.UniqueConstraint("group_id", "slot"),)

    id: int | None = Field(default=None, primary_key=True)
    group_id: int = Field(foreign_key="ladder_group.id", index=True, ondelete="CASCADE")
    slot: int  # 0-based index into the group's slots, as `ladder_score.slot`
    url: str = Field(max_length=PHOTO_URL_LENGTH)
    filename: str = Field(max_length=PHOTO_FILENAME_LENGTH)
    content_type: str = Field(max_length=PHOTO_TYPE_LENGTH)
    uploaded_by: int = snowflake()
    uploaded_at: datetime = utc_column()
