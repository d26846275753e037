"""Tables for the facts every league format shares.

Every row belongs to one guild's league (`league_id`), and every query filters by it. Standings and
other derived results are never stored here: the rules engine computes them from these facts.
Names that must be unique per league also keep a case-folded `name_key`, so "Flipper Kings" and
"flipper kings" cannot both exist.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel

from bot.rules.setup import MachineStatus

SQLModel.metadata.naming_convention = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator[datetime]):
    """Stores UTC and always returns an aware datetime (SQLite would otherwise hand back naive ones)."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class StrEnumType(TypeDecorator[StrEnum]):
    """Stores an enum's value as plain text and gives the enum member back."""

    impl = sa.String
    cache_ok = True

    def __init__(self, enum: type[StrEnum], length: int) -> None:
        super().__init__(length)
        self.enum = enum
        self.length = length

    def process_bind_param(self, value: StrEnum | str | None, dialect: sa.Dialect) -> str | None:
        return None if value is None else self.enum(value).value

    def process_result_value(self, value: str | None, dialect: sa.Dialect) -> StrEnum | None:
        return None if value is None else self.enum(value)


def enum_column(enum: type[StrEnum], length: int, **kwargs: Any) -> Any:
    return Field(sa_type=StrEnumType(enum, length), **kwargs)


def snowflake(**kwargs: Any) -> Any:
    """A Discord id column: 64-bit."""
    return Field(sa_type=sa.BigInteger, **kwargs)


def utc_column(**kwargs: Any) -> Any:
    return Field(sa_type=UTCDateTime, **kwargs)


def json_column(**kwargs: Any) -> Any:
    return Field(sa_type=sa.JSON, **kwargs)


class LeagueFormat(StrEnum):
    TEAM = "team"
    LADDER = "ladder"
    FIELD = "field"


class PlayerStatus(StrEnum):
    ACTIVE = "active"
    DROPPED = "dropped"
    SUSPENDED = "suspended"
    EXPELLED = "expelled"


class RosterRole(StrEnum):
    CAPTAIN = "captain"
    STARTER = "starter"
    RESERVE = "reserve"


class RosterEnd(StrEnum):
    """Why a roster entry stopped applying: a drop bars return this season (TEAM-ROSTER-8); a role change does not."""

    DROPPED = "dropped"
    ROLE_CHANGED = "role_changed"


class League(SQLModel, table=True):
    """COMMON-LEAGUE-1. `options` holds the format's validated configuration (defaults = the rule sheet);
    COMMON-LEAGUE-2: `option_history` the versions it replaced, oldest first, each `{"until": date, "options"}`
    (see `bot/rules/option_versions.py`)."""

    __tablename__ = "league"

    __table_args__ = (sa.UniqueConstraint("guild_id", "name_key"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = snowflake(index=True)
    name: str = Field(max_length=100)
    name_key: str = Field(max_length=100)
    format: LeagueFormat = enum_column(LeagueFormat, 16)
    timezone: str = Field(max_length=64)
    options: dict[str, Any] = json_column(default_factory=dict)
    option_history: list[dict[str, Any]] = json_column(default_factory=list)
    commissioner_role_id: int | None = snowflake(default=None)
    extra_commissioner_role_ids: list[int] = json_column(default_factory=list)  # COMMON-ROLE-1: more official roles
    created_at: datetime = utc_column()
    created_by: int = snowflake()


class Season(SQLModel, table=True):
    """COMMON-SEASON-1: numbered from 1 within a league. Its stage (planned … complete) is not stored: it is
    derived from the matches and nights played (`bot.rules.seasons`)."""

    __tablename__ = "season"

    __table_args__ = (sa.UniqueConstraint("league_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True, ondelete="CASCADE")
    number: int
    name: str = Field(max_length=100)
    starts_on: date | None = None
    ends_on: date | None = None
    postseason_on: date | None = None  # COMMON-SEASON-2: the playoffs' or finals' first day, set by a commissioner


class Venue(SQLModel, table=True):
    """COMMON-VENUE-1."""

    __tablename__ = "venue"

    __table_args__ = (sa.UniqueConstraint("league_id", "name_key"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True, ondelete="CASCADE")
    name: str = Field(max_length=100)
    name_key: str = Field(max_length=100)
    address: str | None = Field(default=None, max_length=200)
    regular_league_venue: bool = True


class Machine(SQLModel, table=True):
    """COMMON-MACH-1/2: one physical machine at a venue. A venue may hold two of the same model."""

    __tablename__ = "machine"

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True, ondelete="CASCADE")
    venue_id: int = Field(foreign_key="venue.id", index=True, ondelete="CASCADE")
    model_name: str = Field(max_length=100)
    variant: str | None = Field(default=None, max_length=40)
    family: str = Field(max_length=100, index=True)
    max_players: int = 4
    balls_per_game: int = 3
    status: MachineStatus = enum_column(MachineStatus, 32, default=MachineStatus.WORKING)
    status_changed_at: datetime = utc_column()
    installed_at: datetime = utc_column()
    removed_at: datetime | None = utc_column(default=None)

    @property
    def title(self) -> str:
        return f"{self.model_name} ({self.variant})" if self.variant else self.model_name


class Conference(SQLModel, table=True):
    """TEAM-CFG-1: standings, playoffs and high scores are kept per conference."""

    __tablename__ = "conference"
    __table_args__ = (sa.UniqueConstraint("league_id", "name_key"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True, ondelete="CASCADE")
    name: str = Field(max_length=40)
    name_key: str = Field(max_length=40)


class Team(SQLModel, table=True):
    __tablename__ = "team"
    __table_args__ = (sa.UniqueConstraint("league_id", "name_key"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True, ondelete="CASCADE")
    name: str = Field(max_length=60)
    name_key: str = Field(max_length=60)
    home_venue_id: int | None = Field(default=None, foreign_key="venue.id", ondelete="SET NULL")
    conference_id: int | None = Field(default=None, foreign_key="conference.id", ondelete="SET NULL")
    match_weekday: int | None = None  # date.weekday(), 0 = Monday (TEAM-MULTI-1 compares evenings)


class Player(SQLModel, table=True):
    """COMMON-PLAYER-1: a Discord member registered in one league."""

    __tablename__ = "player"

    __table_args__ = (
        sa.UniqueConstraint("league_id", "discord_user_id"),
        sa.UniqueConstraint("league_id", "ifpa_number"),
    )

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True, ondelete="CASCADE")
    discord_user_id: int = snowflake()
    display_name: str = Field(max_length=100)
    ifpa_number: int | None = None
    ifpa_rank: int | None = None
    status: PlayerStatus = enum_column(PlayerStatus, 16, default=PlayerStatus.ACTIVE)
    registered_at: datetime = utc_column()
    adult_attested_at: datetime | None = utc_column(default=None)  # TEAM-ROSTER-11: recorded, not checked


class RosterEntry(SQLModel, table=True):
    """A player's place and role on a team from `starts_on` until the day before `ends_on`.

    A role change closes one entry and opens the next, so the roster on any date can be read back
    (TEAM-ROSTER-4). `starts_on` is empty while a team's first roster is still being put together
    (TEAM-ROSTER-9); submitting the roster dates every entry.
    """

    __tablename__ = "roster_entry"

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True, ondelete="CASCADE")
    season_id: int = Field(foreign_key="season.id", index=True, ondelete="CASCADE")
    team_id: int = Field(foreign_key="team.id", index=True, ondelete="CASCADE")
    player_id: int = Field(foreign_key="player.id", index=True, ondelete="CASCADE")
    role: RosterRole = enum_column(RosterRole, 16)
    starts_on: date | None = None
    ends_on: date | None = None
    end_reason: RosterEnd | None = enum_column(RosterEnd, 16, default=None)
    ifpa_rank: int | None = None  # the rank the TEAM-ROSTER-5 check used when this entry began

    def applies_on(self, day: date) -> bool:
        return roster_entry_applies(self.starts_on, self.ends_on, day)


def roster_entry_applies(starts_on: date | None, ends_on: date | None, day: date) -> bool:
    """Whether a roster entry running from `starts_on` until `ends_on` (exclusive) is in force on `day`."""
    return starts_on is not None and starts_on <= day and (ends_on is None or day < ends_on)


class AuditEntry(SQLModel, table=True):
    """Who changed what, when, through which command; `before`/`after` are plain JSON snapshots."""

    __tablename__ = "audit_entry"

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = snowflake(index=True)
    league_id: int | None = Field(default=None, foreign_key="league.id", index=True, ondelete="CASCADE")
    actor_id: int = snowflake()
    command: str = Field(max_length=100)
    action: str = Field(max_length=40)
    entity: str = Field(max_length=40)
    entity_id: int | None = None
    before: dict[str, Any] | None = json_column(default=None)
    after: dict[str, Any] | None = json_column(default=None)
    reason: str | None = Field(default=None, max_length=500)
    at: datetime = utc_column(index=True)


class BotState(SQLModel, table=True):
    """Small facts the bot keeps about itself, e.g. the hash of the commands last synced to Discord."""

    __tablename__ = "bot_state"

    key: str = Field(primary_key=True, max_length=200)
    value: str = Field(max_length=200)


def remember(key: str, value: str, *, sqlite: bool) -> Any:
    """An upsert of one BotState fact, safe when several processes write the same key at once (`session.merge`
    reads, then inserts, and the second process to insert fails on the primary key)."""
    insert = sqlite_insert if sqlite else postgresql_insert
    statement = insert(BotState).values(key=key, value=value)
    return statement.on_conflict_do_update(index_elements=["key"], set_={"value": statement.excluded.value})
