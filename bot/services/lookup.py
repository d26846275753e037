"""Finding a guild's league and the things in it by the names people type. Every query filters by guild."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import TypeVar
from zoneinfo import ZoneInfo

from sqlalchemy.exc import IntegrityError
from sqlmodel import SQLModel, col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules.refusals import Conflict, InvalidInput, NotFound
from bot.rules.setup import known_league
from storage.models import League, Season, Team, Venue
from storage.prepared import param, prepared

Row = TypeVar("Row", bound=SQLModel)


async def find_league(session: AsyncSession, guild_id: int, name: str | None) -> League:
    """The named league, or the guild's only league when no name is given."""
    query = prepared(
        "guild leagues", lambda: select(League).where(League.guild_id == param("guild")).order_by(League.name)
    )
    leagues = (await session.exec(query, params={"guild": guild_id})).all()
    if not leagues or (name and name.strip()):  # the same refusals as the league: option's own check
        stored = known_league([league.name for league in leagues], name or "")
        return next(league for league in leagues if league.name == stored)
    if len(leagues) > 1:
        raise InvalidInput(f"This server runs several leagues ({_names(leagues)}); pick one with `league:`.")
    return leagues[0]


def league_today(league: League, now: datetime) -> date:
    return now.astimezone(ZoneInfo(league.timezone)).date()


async def league_names(session: AsyncSession, guild_id: int) -> list[str]:
    query = prepared(
        "league names", lambda: select(League.name).where(League.guild_id == param("guild")).order_by(League.name)
    )
    return list((await session.exec(query, params={"guild": guild_id})).all())


async def current_season(session: AsyncSession, league: League) -> Season:
    query = prepared(
        "current season",
        lambda: select(Season).where(Season.league_id == param("league")).order_by(col(Season.number).desc()).limit(1),
    )
    season = (await session.exec(query, params={"league": league.id})).first()
    if season is None:  # every league is created with its first season
        raise NotFound(f"{league.name} has no season yet.")
    return season


async def find_season(session: AsyncSession, league: League, number: int | None) -> Season:
    """Season `number` of the league (earlier seasons stay readable), or the current one when none is given."""
    if number is None:
        return await current_season(session, league)
    season = (await session.exec(select(Season).where(Season.league_id == league.id, Season.number == number))).first()
    if season is None:
        last = (await current_season(session, league)).number
        raise NotFound(f"{league.name} has no season {number}: pick `season:` from 1 to {last}.")
    return season


async def league_seasons(session: AsyncSession, league: League) -> list[Season]:
    """Every season of the league, the first one first."""
    query = select(Season).where(Season.league_id == league.id).order_by(col(Season.number))
    return list((await session.exec(query)).all())


async def find_venue(session: AsyncSession, league: League, name: str) -> Venue:
    key = name.strip().casefold()
    venue = (await session.exec(select(Venue).where(Venue.league_id == league.id, Venue.name_key == key))).first()
    if venue is None:
        known = (await session.exec(select(Venue.name).where(Venue.league_id == league.id))).all()
        listing = f"Venues: {', '.join(sorted(known))}." if known else "Add one with `/venue add`."
        raise NotFound(f"{league.name} has no venue named {name.strip()!r}. {listing}")
    return venue


async def find_team(session: AsyncSession, league: League, name: str) -> Team:
    key = name.strip().casefold()
    team = (await session.exec(select(Team).where(Team.league_id == league.id, Team.name_key == key))).first()
    if team is None:
        raise NotFound(f"{league.name} has no team named {name.strip()!r}. See `/league show` for its teams.")
    return team


async def insert_unique(session: AsyncSession, row: Row, conflict: str) -> Row:
    """Insert and flush; a unique-constraint clash (even one lost in a race) becomes a Conflict."""
    session.add(row)
    try:
        await session.flush()
    except IntegrityError:
        raise Conflict(conflict) from None
    return row


def _names(leagues: Sequence[League]) -> str:
    return ", ".join(league.name for league in leagues)
