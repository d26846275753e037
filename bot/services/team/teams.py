"""Teams of a league, with their conference and match evening in the team format (TEAM-CFG-1)."""

from __future__ import annotations

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules import setup as rules
from bot.rules.refusals import RuleViolation
from bot.services import audit
from bot.services.actor import Actor
from bot.services.lookup import find_league, find_venue, insert_unique
from bot.services.permissions import require_commissioner
from storage.db import Database
from storage.models import Conference, League, LeagueFormat, Team

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
CONFERENCE_NAME_MAX = 40


class TeamService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def create(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        name: str,
        home_venue: str | None,
        evening: int | None = None,
        conference: str | None = None,
    ) -> Team:
        clean = rules.clean_name(name, option="name", max_length=rules.TEAM_NAME_MAX)
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "create teams")
            if league.format is LeagueFormat.TEAM and evening is None:
                raise RuleViolation(
                    "TEAM-CFG-1", "A team in a team league needs its match evening: add `evening:` (e.g. Tuesday)."
                )
            venue_id = (await find_venue(session, league, home_venue)).id if home_venue else None
            conference_id = (await self._conference(session, actor, league, conference)).id if conference else None
            team = await insert_unique(
                session,
                Team(
                    league_id=league.id or 0,
                    name=clean.display,
                    name_key=clean.key,
                    home_venue_id=venue_id,
                    match_weekday=evening,
                    conference_id=conference_id,
                ),
                f"{league.name} already has a team named {clean.display!r}. Team names must differ "
                "(ignoring capitals).",
            )
            audit.created(session, actor, team, at=now)
        return team

    async def _conference(self, session: AsyncSession, actor: Actor, league: League, name: str) -> Conference:
        """The named conference, created the first time a team is put in it."""
        clean = rules.clean_name(name, option="conference", max_length=CONFERENCE_NAME_MAX)
        query = select(Conference).where(Conference.league_id == league.id, Conference.name_key == clean.key)
        existing = (await session.exec(query)).first()
        if existing is not None:
            return existing
        conference = Conference(league_id=league.id or 0, name=clean.display, name_key=clean.key)
        session.add(conference)
        await session.flush()
        audit.created(session, actor, conference, at=self.clock.now())
        return conference
