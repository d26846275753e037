"""`/standings` for every format: the league's own table, whichever format it plays.

Team leagues get their conference tables (TEAM-STAND-1), ladder leagues their TLP standings (LADDER-STAND-1/2),
field leagues their season table (FIELD-STAND-1); each format's service computes its own.
"""

from __future__ import annotations

from bot.clock import Clock
from bot.rules.refusals import InvalidInput
from bot.services.actor import Actor
from bot.services.field.standings import FieldStandingsService, FieldStandingsView
from bot.services.ladder.standings import LadderStandings, LadderStandingsService
from bot.services.lookup import find_league
from bot.services.team.standings import StandingsService, StandingsView
from storage.db import Database
from storage.models import LeagueFormat

AnyStandings = StandingsView | LadderStandings | FieldStandingsView


class LeagueStandingsService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.team = StandingsService(db, clock)
        self.ladder = LadderStandingsService(db, clock)
        self.field = FieldStandingsService(db, clock)

    async def view(self, actor: Actor, league_name: str | None, *, conference: str | None) -> AnyStandings:
        """The league's standings in its format's own shape; `conference` only narrows a team league."""
        async with self.db.reading() as session:
            league = await find_league(session, actor.guild_id, league_name)
        if league.format is LeagueFormat.TEAM:
            return await self.team.table(actor, league.name, conference=conference)
        if conference is not None and conference.strip():
            raise InvalidInput(
                f"{league.name} is a {league.format.value} league: conferences are only for team leagues. "
                "Leave `conference` out."
            )
        if league.format is LeagueFormat.LADDER:
            return await self.ladder.standings(actor, league.name)
        return await self.field.table(actor, league.name)
