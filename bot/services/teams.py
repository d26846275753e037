"""Teams of a league."""

from __future__ import annotations

from bot.clock import Clock
from bot.rules import setup as rules
from bot.services import audit
from bot.services.actor import Actor
from bot.services.lookup import find_league, find_venue, insert_unique
from bot.services.permissions import require_commissioner
from storage.db import Database
from storage.models import Team


class TeamService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def create(self, actor: Actor, league_name: str | None, *, name: str, home_venue: str | None) -> Team:
        clean = rules.clean_name(name, option="name", max_length=rules.TEAM_NAME_MAX)
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "create teams")
            assert league.id is not None
            venue_id = (await find_venue(session, league, home_venue)).id if home_venue else None
            team = await insert_unique(
                session,
                Team(league_id=league.id, name=clean.display, name_key=clean.key, home_venue_id=venue_id),
                f"{league.name} already has a team named {clean.display!r}. Team names must differ "
                "(ignoring capitals).",
            )
            audit.created(session, actor, team, at=now)
        return team
