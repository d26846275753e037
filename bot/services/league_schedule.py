"""`/schedule show` for every format: the team's matches (TEAM-SCHED-1), the ladder's and the field's planned
nights (COMMON-SEASON-1); each format's registration (`bot.formats`) reads and shows its own."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot import formats
from bot.clock import Clock
from bot.services.actor import Actor
from bot.services.lookup import find_league
from storage.db import Database


@dataclass(frozen=True)
class LeagueSchedule:
    """A league's schedule in its format's own shape (`view`), with the format that shows it."""

    format: formats.Format
    view: Any


class LeagueScheduleService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.readers = {fmt.name: fmt.schedule(db, clock) for fmt in formats.registered()}

    async def show(
        self, actor: Actor, league_name: str | None, *, team_name: str | None, week: int | None
    ) -> LeagueSchedule:
        async with self.db.reading() as session:
            league = await find_league(session, actor.guild_id, league_name)
        fmt = formats.of(league)
        return LeagueSchedule(fmt, await self.readers[fmt.name](actor, league.name, team_name=team_name, week=week))
