"""Team-format match facts: the schedule, who came, declared lineups, scores, penalties, confirmations.

Results are computed from these rows by `bot.rules.team.scoring.match_result`, so a correction anywhere
recomputes everything after it; final ones are kept as derived copies (`storage/results.py`), valid only
while the match's `facts_version` stays the same. Unique keys settle races between captains: one
lineup per (match, round, side), one score per (game, player, status), one confirmation per side.
"""

from __future__ import annotations

from datetime import date, datetime
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from bot.rules.photos import FILENAME_LENGTH as PHOTO_FILENAME_LENGTH
from bot.rules.photos import TYPE_LENGTH as PHOTO_TYPE_LENGTH
from bot.rules.photos import URL_LENGTH as PHOTO_URL_LENGTH
from bot.rules.team.model import ScoreStatus, Side
from bot.rules.team.scoring import Offence, Walkout
from storage.models import enum_column, json_column, snowflake, utc_column


class MatchKind(StrEnum):
    REGULAR = "regular"
    PLAYOFF = "playoff"
    TIEBREAKER_MATCH = "tiebreaker_match"  # TEAM-STAND-1 step 6 (TEAM-AMB-19)


class MatchState(StrEnum):
    """Scheduling states a person sets (TEAM-CFG-3); play progress is derived from the facts."""

    SCHEDULED = "scheduled"
    RESCHEDULED = "rescheduled"
    MOVED = "moved"


class Match(SQLModel, table=True):
    __tablename__ = "match"

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True, ondelete="CASCADE")
    season_id: int = Field(foreign_key="season.id", index=True, ondelete="CASCADE")
    week: int
    play_on: date = Field(index=True)
    home_team_id: int = Field(foreign_key="team.id", index=True, ondelete="CASCADE")
    away_team_id: int = Field(foreign_key="team.id", index=True, ondelete="CASCADE")
    venue_id: int | None = Field(default=None, foreign_key="venue.id", ondelete="SET NULL")
    kind: MatchKind = enum_column(MatchKind, 24, default=MatchKind.REGULAR)
    state: MatchState = enum_column(MatchState, 16, default=MatchState.SCHEDULED)
    bracket_match: str | None = Field(default=None, max_length=16)  # playoffs: the bracket's match id
    extension_agreed: bool | None = None  # TEAM-SCHED-3: both captains agreed to wait until 20:30
    played_out_evening: bool = False  # TEAM-FORF-1: the attending team played the evening with 4+
    venue_forfeit: Side | None = enum_column(Side, 8, default=None)  # TEAM-VENUE-1/4: the side that forfeits
    scoreboard_channel_id: int | None = snowflake(default=None)  # the one living scoreboard message
    scoreboard_message_id: int | None = snowflake(default=None)
    # Bumped in SQL whenever a row the result is computed from changes (storage/results.py); never set by hand.
    facts_version: int = 0


class MatchVisit(SQLModel, table=True):
    """TEAM-SCHED-2: a player checked in (and maybe out) for their side."""

    __tablename__ = "match_visit"

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True, ondelete="CASCADE")
    side: Side = enum_column(Side, 8)
    player_id: int = Field(foreign_key="player.id", ondelete="CASCADE")
    arrived_at: datetime = utc_column()
    left_at: datetime | None = utc_column(default=None)


class MatchLineup(SQLModel, table=True):
    """One side's declared lineup for one round; locked once stored (TEAM-LINEUP-4)."""

    __tablename__ = "match_lineup"
    __table_args__ = (sa.UniqueConstraint("match_id", "round_index", "side"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True, ondelete="CASCADE")
    round_index: int
    side: Side = enum_column(Side, 8)
    declared_at: datetime = utc_column()
    declared_by: int | None = Field(default=None, foreign_key="player.id", ondelete="SET NULL")
    by_official: bool = False
    write_in: int | None = Field(default=None, foreign_key="player.id", ondelete="SET NULL")  # TEAM-SHORT-4
    games: list[dict[str, Any]] = json_column(default_factory=list)  # [{"players": [ids], "machine": id|null}]


class LineupReplacement(SQLModel, table=True):
    """TEAM-MACH-5: after a machine fails mid-game, one side's new entry for that game (players, and the new
    machine from the team that picked the failed one). The game is replayed; its earlier scores become VOID."""

    __tablename__ = "lineup_replacement"

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True, ondelete="CASCADE")
    round_index: int
    game_number: int
    side: Side = enum_column(Side, 8)
    players: list[int] = json_column(default_factory=list)
    machine_id: int | None = Field(default=None, foreign_key="machine.id", ondelete="SET NULL")
    declared_at: datetime = utc_column()
    declared_by: int | None = Field(default=None, foreign_key="player.id", ondelete="SET NULL")
    by_official: bool = False


class GameScore(SQLModel, table=True):
    """One player's score in one game of a match (TEAM-GAME-*); a replay is another row (COMMON-SCORE-2)."""

    __tablename__ = "game_score"
    __table_args__ = (
        # One live score per player and status; a replayed game's VOID rows may pile up (TEAM-MACH-5).
        sa.Index(
            "uq_game_score_live",
            "match_id", "round_index", "game_number", "player_id", "status",
            unique=True,
            sqlite_where=sa.text("status <> 'void'"),
            postgresql_where=sa.text("status <> 'void'"),
        ),
    )  # fmt: skip

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True, ondelete="CASCADE")
    round_index: int
    game_number: int
    side: Side = enum_column(Side, 8)
    player_id: int = Field(foreign_key="player.id", ondelete="CASCADE")
    score: int = Field(sa_type=sa.BigInteger)
    status: ScoreStatus = enum_column(ScoreStatus, 24, default=ScoreStatus.NORMAL)
    entered_by: int = snowflake()
    entered_for: Side | None = enum_column(Side, 8, default=None)  # the entering captain's side; None = official
    entered_at: datetime = utc_column()
    confirmed_by: int | None = snowflake(default=None)  # the opposing captain (or an official)
    confirmed_at: datetime | None = utc_column(default=None)


class GamePenalty(SQLModel, table=True):
    """TEAM-PEN-*: an offence in one game and the player it concerns."""

    __tablename__ = "game_penalty"
    __table_args__ = (
        sa.UniqueConstraint(
            "match_id", "round_index", "game_number", "offence", "player_id", name="uq_game_penalty_once"
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True, ondelete="CASCADE")
    round_index: int
    game_number: int
    offence: Offence = enum_column(Offence, 32)
    player_id: int = Field(foreign_key="player.id", ondelete="CASCADE")
    recorded_by: int = snowflake()
    recorded_at: datetime = utc_column()


class MachineOut(StrEnum):
    REMOVED = "removed"  # TEAM-MACH-3: an annoying failure, both captains agreed
    ELIMINATED = "eliminated"  # TEAM-MACH-4: a major failure


class MatchMachineOut(SQLModel, table=True):
    """A machine taken out of one match; it never comes back in that match (TEAM-MACH-3/4)."""

    __tablename__ = "match_machine_out"
    __table_args__ = (sa.UniqueConstraint("match_id", "machine_id"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True, ondelete="CASCADE")
    machine_id: int = Field(foreign_key="machine.id", ondelete="CASCADE")
    kind: MachineOut = enum_column(MachineOut, 16)
    reason: str = Field(max_length=500)
    recorded_by: int = snowflake()
    recorded_at: datetime = utc_column()


class MatchConfirmation(SQLModel, table=True):
    """TEAM-MATCH-4: a captain "signs the scoresheet" for their side."""

    __tablename__ = "match_confirmation"
    __table_args__ = (sa.UniqueConstraint("match_id", "side"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True, ondelete="CASCADE")
    side: Side = enum_column(Side, 8)
    confirmed_by: int = snowflake()
    confirmed_at: datetime = utc_column()


class MatchGameStart(SQLModel, table=True):
    """TEAM-MACH-2: a game of a match was started (at most 2 in progress at once); it is in progress until its
    scores are entered. A machine-failure replay (TEAM-MACH-5) starts again, so its row is removed then."""

    __tablename__ = "match_game_start"
    __table_args__ = (sa.UniqueConstraint("match_id", "round_index", "game_number"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True, ondelete="CASCADE")
    round_index: int
    game_number: int
    started_at: datetime = utc_column()
    started_by: int = snowflake()


class ExtraBallOptOut(SQLModel, table=True):
    """TEAM-PEN-3: one captain agrees to play the match without extra balls; both must, before round 1."""

    __tablename__ = "extra_ball_opt_out"
    __table_args__ = (sa.UniqueConstraint("match_id", "side"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True, ondelete="CASCADE")
    side: Side = enum_column(Side, 8)
    agreed_by: int = snowflake()
    agreed_at: datetime = utc_column()


class MatchChallenge(SQLModel, table=True):
    """TEAM-DISP-1: a captain challenges games; the match cannot be final while it is open."""

    __tablename__ = "match_challenge"

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True, ondelete="CASCADE")
    side: Side = enum_column(Side, 8)
    games: list[list[int]] = json_column(default_factory=list)  # [[round_index, game_number], …]
    reason: str = Field(max_length=1000)
    raised_by: int = snowflake()
    raised_at: datetime = utc_column()
    ruling: str | None = Field(default=None, max_length=1000)
    ruled_by: int | None = snowflake(default=None)
    ruled_at: datetime | None = utc_column(default=None)
    kind: str = Field(default="score", max_length=24)  # COMMON-RULING-1 tags: kind, rule, the games' machines
    rule_id: str | None = Field(default=None, max_length=40)
    photo_url: str | None = Field(default=None, max_length=500)  # COMMON-DISPUTE-1: the scoresheet photo


class TiebreakerSetup(SQLModel, table=True):
    """TEAM-TB-1/2: the tie-breaker's two decisions (format, machine), who made them, and both lineups."""

    __tablename__ = "tiebreaker_setup"

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", unique=True, ondelete="CASCADE")
    deferred_to_away: bool = False
    game_format: str | None = Field(default=None, max_length=16)
    format_by: Side | None = enum_column(Side, 8, default=None)
    machine_id: int | None = Field(default=None, foreign_key="machine.id", ondelete="SET NULL")
    machine_by: Side | None = enum_column(Side, 8, default=None)
    home_players: list[int] = json_column(default_factory=list)
    away_players: list[int] = json_column(default_factory=list)


class TiebreakerGame(SQLModel, table=True):
    """TEAM-TB-*: the tie-breaker game of a level match: one score per side, no match points."""

    __tablename__ = "tiebreaker_game"

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", unique=True, ondelete="CASCADE")
    home_score: int = Field(sa_type=sa.BigInteger)
    away_score: int = Field(sa_type=sa.BigInteger)
    entered_by: int = snowflake()
    entered_at: datetime = utc_column()


class MatchWalkout(SQLModel, table=True):
    """TEAM-FORF-4: a side that left a disputed match, or refused to go on."""

    __tablename__ = "match_walkout"
    __table_args__ = (sa.UniqueConstraint("match_id", "side"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True, ondelete="CASCADE")
    side: Side = enum_column(Side, 8)
    kind: Walkout = enum_column(Walkout, 16)
    recorded_by: int = snowflake()
    recorded_at: datetime = utc_column()


class GamePhoto(SQLModel, table=True):
    """A photo of the machine's display, sent with a game's scores from the board's form (one per game; a
    fix may replace it, taking the entry back removes it). `url` is the attachment's as Discord gave it."""

    __tablename__ = "game_photo"
    __table_args__ = (sa.UniqueConstraint("match_id", "round_index", "game_number"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True, ondelete="CASCADE")
    round_index: int
    game_number: int
    url: str = Field(max_length=PHOTO_URL_LENGTH)
    filename: str = Field(max_length=PHOTO_FILENAME_LENGTH)
    content_type: str = Field(max_length=PHOTO_TYPE_LENGTH)
    uploaded_by: int = snowflake()
    uploaded_at: datetime = utc_column()


class ForfeitEveningScore(SQLModel, table=True):
    """TEAM-FORF-2, TEAM-HS-3: one player's score in a game the attending team played on a forfeit evening. It
    counts for high scores, never for the match's points; `game_number` groups one game's scores."""

    __tablename__ = "forfeit_evening_score"
    __table_args__ = (sa.UniqueConstraint("match_id", "game_number", "player_id"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True, ondelete="CASCADE")
    game_number: int
    machine_id: int = Field(foreign_key="machine.id", ondelete="CASCADE")
    player_id: int = Field(foreign_key="player.id", ondelete="CASCADE")
    score: int = Field(sa_type=sa.BigInteger)
    entered_by: int = snowflake()
    entered_at: datetime = utc_column()
