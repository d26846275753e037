"""`/standings` for every format: the league's own table, whichever format it plays.

Team leagues get their conference tables (TEAM-STAND-1), ladder leagues their TLP standings (LADDER-STAND-1/2),
field leagues their season table (FIELD-STAND-1); each format's registration (`bot.formats`) reads its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot import formats
from bot.clock import Clock
from bot.rules.refusals import InvalidInput
from bot.services.actor import Actor
from bot.services.lookup import find_league, find_season
from bot.services.seasons import SeasonShown, SeasonStages
from storage.db import Database


@dataclass(frozen=True)
class LeagueTable:
    """A league's standings in its format's own shape (`view`), with the format that shows and exports them."""

    format: formats.Format
    view: Any
    season: SeasonShown


class LeagueStandingsService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self.readers = {fmt.name: fmt.standings(db, clock) for fmt in formats.registered()}
        self.stages = SeasonStages({name: readers.progress for name, readers in self.readers.items()})

    async def view(
        self, actor: Actor, league_name: str | None, *, conference: str | None, season: int | None = None
    ) -> LeagueTable:
        """The league's standings; `conference` only narrows a league whose format has teams; `season` picks an
        earlier season by number."""
        async with self.db.reading() as session:
            league = await find_league(session, actor.guild_id, league_name)
            chosen = await find_season(session, league, season)
        fmt = formats.of(league)
        if not fmt.teams and conference is not None and conference.strip():
            raise InvalidInput(
                f"{league.name} is a {league.format.value} league: conferences are only for team leagues. "
                "Leave `conference` out."
            )
        view = await self.readers[fmt.name].table(actor, league.name, conference=conference, season=season)
        async with self.db.reading() as session:  # after the table: its results, just computed, are reused
            shown = await self.stages.shown(session, league, chosen, self.clock.now())
        return LeagueTable(fmt, view, shown)
