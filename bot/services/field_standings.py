"""The field league's season table (FIELD-STAND-1/3): weekly totals, the lowest weeks dropped."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from sqlalchemy import func
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules.field.options import FieldOptions
from bot.rules.field.standings import SeasonRow
from bot.services.actor import Actor
from bot.services.field_facts import FieldContext, load_context, load_season
from storage.db import Database
from storage.field import NightState
from storage.models import AuditEntry, League, Season


@dataclass(frozen=True)
class FieldStandingsView:
    league: League
    season: Season
    options: FieldOptions
    rows: list[SeasonRow]
    names: dict[int, str]
    weeks_held: int
    weeks_final: int  # closed nights; an open night's points may still change


@dataclass(frozen=True)
class SeasonTable:
    """What the season's facts make of the standings: computed once per change, shared by every reader."""

    rows: list[SeasonRow]
    names: dict[int, str]
    weeks_held: int
    weeks_final: int


class FieldStandingsService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        # league id → (season id, options, version, table): recomputed only once something may have changed
        self._recent: dict[int, tuple[int | None, FieldOptions, tuple[int, int], SeasonTable]] = {}
        self._computing: dict[int, asyncio.Lock] = {}

    async def table(self, actor: Actor, league_name: str | None) -> FieldStandingsView:
        """Any member may read the standings."""
        async with self.db.reading() as session:
            context = await load_context(session, actor, league_name)
            table = await self._season_table(session, context)
        return FieldStandingsView(
            context.league,
            context.season,
            context.options,
            table.rows,
            table.names,
            table.weeks_held,
            table.weeks_final,
        )

    async def _season_table(self, session: AsyncSession, context: FieldContext) -> SeasonTable:
        """`season_table`, reused while nothing could have changed it: no write committed through this process's
        database and no audited change anywhere (every field write is audited, so another process's is seen),
        for the same season and options. The table does not depend on the time. The version is read before the
        facts, so a change racing the read makes the next call recompute; a call waiting for another's
        computation takes its table when that computation began after the call did."""
        last_change = (await session.exec(select(func.max(AuditEntry.id)))).one() or 0
        version = (self.db.commits, last_change)
        league_id = context.league.id or 0
        async with self._computing.setdefault(league_id, asyncio.Lock()):  # many asking at once: one computes
            recent = self._recent.get(league_id)
            if (
                recent is not None
                and recent[:2] == (context.season.id, context.options)
                and recent[2][0] >= version[0]
                and recent[2][1] >= version[1]
            ):
                return recent[3]
            season = await load_season(session, context)
            results = []
            for night in season.nights:
                results.append(season.night_result(night))
                await asyncio.sleep(0)  # ranking a night is CPU work: let other members' commands in between
            table = SeasonTable(
                season.season_table(results),
                season.names,
                len(season.nights),
                sum(1 for f in season.nights if f.night.state is NightState.CLOSED),
            )
            self._recent[league_id] = (context.season.id, context.options, version, table)
            return table
