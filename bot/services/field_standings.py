"""The field league's season table (FIELD-STAND-1/3): weekly totals, the lowest weeks dropped."""

from __future__ import annotations

from dataclasses import dataclass

from bot.clock import Clock
from bot.rules.field.options import FieldOptions
from bot.rules.field.standings import SeasonRow
from bot.services.actor import Actor
from bot.services.field_facts import load_context, load_season
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


class FieldStandingsService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def table(self, actor: Actor, league_name: str | None) -> FieldStandingsView:
        """Any member may read the standings."""
        async with self.db.reading() as session:
            context = await load_context(session, actor, league_name)
            season = await load_season(session, context)
        return FieldStandingsView(
            context.league,
            context.season,
            context.options,
            season.season_table(),
            season.names,
            len(season.nights),
            sum(1 for f in season.nights if f.night.state is NightState.CLOSED),
        )
