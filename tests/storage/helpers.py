"""Builders for valid rows, so each test only spells out the fields it is about."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import func
from sqlmodel import SQLModel, select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.db import Database
from storage.models import (
    AuditEntry,
    League,
    LeagueFormat,
    Machine,
    Player,
    RosterEntry,
    RosterRole,
    Season,
    Team,
    Venue,
)

WHEN = datetime(2026, 3, 14, 19, 30, 15, 123456, tzinfo=UTC)


def league(guild_id: int = 111, name: str = "Flipper Kings", **overrides: Any) -> League:
    values: dict[str, Any] = {
        "guild_id": guild_id,
        "name": name,
        "name_key": name.casefold(),
        "format": LeagueFormat.TEAM,
        "timezone": "Europe/Berlin",
        "created_at": WHEN,
        "created_by": 222,
    }
    values.update(overrides)
    return League(**values)


def season(league_id: int, number: int = 1, **overrides: Any) -> Season:
    return Season(**{"league_id": league_id, "number": number, "name": f"Season {number}", **overrides})


def venue(league_id: int, name: str = "Silverball Bar", **overrides: Any) -> Venue:
    return Venue(**{"league_id": league_id, "name": name, "name_key": name.casefold(), **overrides})


def machine(league_id: int, venue_id: int, model_name: str = "Medieval Madness", **overrides: Any) -> Machine:
    values: dict[str, Any] = {
        "league_id": league_id,
        "venue_id": venue_id,
        "model_name": model_name,
        "family": model_name,
        "status_changed_at": WHEN,
        "installed_at": WHEN,
    }
    values.update(overrides)
    return Machine(**values)


def team(league_id: int, name: str = "Tilt Warriors", **overrides: Any) -> Team:
    return Team(**{"league_id": league_id, "name": name, "name_key": name.casefold(), **overrides})


def player(league_id: int, discord_user_id: int = 333, **overrides: Any) -> Player:
    values: dict[str, Any] = {
        "league_id": league_id,
        "discord_user_id": discord_user_id,
        "display_name": f"player {discord_user_id}",
        "registered_at": WHEN,
    }
    values.update(overrides)
    return Player(**values)


def roster_entry(league_id: int, season_id: int, team_id: int, player_id: int, **overrides: Any) -> RosterEntry:
    values: dict[str, Any] = {
        "league_id": league_id,
        "season_id": season_id,
        "team_id": team_id,
        "player_id": player_id,
        "role": RosterRole.STARTER,
        "starts_on": date(2026, 1, 5),
    }
    values.update(overrides)
    return RosterEntry(**values)


def audit(guild_id: int = 111, **overrides: Any) -> AuditEntry:
    values: dict[str, Any] = {
        "guild_id": guild_id,
        "actor_id": 222,
        "command": "/league create",
        "action": "create",
        "entity": "league",
        "at": WHEN,
    }
    values.update(overrides)
    return AuditEntry(**values)


async def add(session: AsyncSession, row: Any) -> Any:
    """Add and flush one row so its generated id is known."""
    session.add(row)
    await session.flush()
    return row


async def insert(db: Database, row: Any) -> Any:
    """Store one row in its own committed transaction and return it with its id."""
    async with db.writing() as session:
        await add(session, row)
    return row


async def count(db: Database, model: type[SQLModel]) -> int:
    async with db.reading() as session:
        return (await session.exec(select(func.count()).select_from(model))).one()
