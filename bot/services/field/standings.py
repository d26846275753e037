"""The field league's season table (FIELD-STAND-1/3): weekly totals, the lowest weeks dropped."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules.field import standings as standings_rules
from bot.rules.field.options import FieldOptions
from bot.rules.field.standings import SeasonRow
from bot.rules.refusals import NotFound
from bot.services.actor import Actor
from bot.services.field.facts import FieldContext, load_context, load_season
from bot.services.league_options import versions_key
from bot.services.reuse import ReusedPerLeague
from storage.db import Database
from storage.field import NightState
from storage.models import League, Season


@dataclass(frozen=True)
class FieldStandingsView:
    league: League
    season: Season
    options: FieldOptions
    rows: list[SeasonRow]
    names: dict[int, str]
    weeks_held: int
    weeks_final: int  # closed nights; an open night's points may still change
    through_week: int | None = None  # the table as it stood after this week (None: as it stands)

    @property
    def regular_season_winner(self) -> tuple[str, ...]:
        """FIELD-STAND-3: once every regular week is final, rank 1 is the regular-season winner (a title kept
        apart from the Playoffs Winner); nobody before."""
        if self.weeks_final < self.options.regular_weeks:
            return ()
        return tuple(self.names.get(int(p), "?") for p in standings_rules.regular_season_winner(self.rows))


@dataclass(frozen=True)
class SeasonTable:
    """What the season's facts make of the standings: computed once per change, shared by every reader."""

    options: FieldOptions  # those the weeks are counted under (`SeasonFacts.table_options`)
    rows: list[SeasonRow]
    names: dict[int, str]
    weeks_held: int
    weeks_final: int


class FieldStandingsService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self._reused: ReusedPerLeague[SeasonTable] = ReusedPerLeague(db)

    async def table(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        season: int | None = None,
        what_if: Mapping[str, Any] | None = None,
        through_week: int | None = None,
    ) -> FieldStandingsView:
        """Any member may read the standings; `season`: an earlier season's number; `what_if`: options to compute
        them under instead, as if the league had always had them (computed for the caller, never stored nor
        reused); `through_week`: the table as it stood after that week."""
        async with self.db.reading() as session:
            context = await load_context(session, actor, league_name, self.clock.now(), season=season)
            if what_if or through_week is not None:
                table = await compute_season_table(
                    session, context.what_if(what_if) if what_if else context, through_week=through_week
                )
            else:
                table = await self._season_table(session, context)
        return FieldStandingsView(
            context.league,
            context.season,
            table.options,
            table.rows,
            table.names,
            table.weeks_held,
            table.weeks_final,
            through_week,
        )

    async def _season_table(self, session: AsyncSession, context: FieldContext) -> SeasonTable:
        """`compute_season_table`, reused (`bot/services/reuse.py`) for the same season and options; the table
        does not depend on the time."""
        key = (context.season.id, versions_key(context.league))
        league_id = context.league.id or 0
        return await self._reused.get(session, league_id, key, lambda: compute_season_table(session, context))


async def compute_season_table(
    session: AsyncSession, context: FieldContext, *, through_week: int | None = None
) -> SeasonTable:
    season = await load_season(session, context)
    if through_week is not None:
        if not any(facts.night.week == through_week for facts in season.nights):
            held = ", ".join(str(facts.night.week) for facts in season.nights) or "none yet"
            raise NotFound(f"No night for week {through_week} in {context.season.name} (weeks held: {held}).")
        season = season.through(through_week)
    results = []
    for night in season.nights:
        results.append(season.night_result(night))
        await asyncio.sleep(0)  # ranking a night is CPU work: let other members' commands in between
    return SeasonTable(
        season.table_options(),
        season.season_table(results),
        season.names,
        len(season.nights),
        sum(1 for f in season.nights if f.night.state is NightState.CLOSED),
    )
