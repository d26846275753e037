"""Files people take out of the league: its events ahead as a calendar, the standings as CSV, results for the IFPA.

Reads only; any member may ask. The file formats are `bot.exchange.calendar` and `bot.exchange.reports`; what
each format exports is its registration's (`bot.formats`: `calendar_file`, `standings_files`).
"""

from __future__ import annotations

from sqlmodel import col, select

from bot import formats
from bot.clock import Clock
from bot.exchange.files import ExportFile, StandingsExport
from bot.exchange.reports import Finisher, ifpa_results_csv
from bot.services.actor import Actor
from bot.services.league_standings import LeagueTable
from bot.services.lookup import find_league
from storage.db import Database
from storage.models import Player


class ExportService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def calendar(
        self, actor: Actor, league_name: str | None, *, team_name: str | None, member_id: int | None
    ) -> ExportFile:
        """The season's events ahead as iCalendar: one team's, one player's, both, or the whole league's."""
        async with self.db.reading() as session:
            league = await find_league(session, actor.guild_id, league_name)
            return await formats.of(league).calendar_file(
                session, league, now=self.clock.now(), team_name=team_name, member_id=member_id
            )

    async def standings_files(self, actor: Actor, table: LeagueTable) -> StandingsExport:
        """`/standings export`: the table as CSV, and IFPA results where the format has them."""
        return await table.format.standings_files(self.db, self.clock, actor, table.view)


async def results_file(db: Database, league_name: str, bands: list[list[int]]) -> ExportFile:
    """An IFPA results file from bands of player ids, with each player's name and IFPA number."""
    ids = {player for band in bands for player in band}
    async with db.reading() as session:
        players = {p.id: p for p in (await session.exec(select(Player).where(col(Player.id).in_(ids)))).all()}
    finishers = [[Finisher(players[p].display_name, players[p].ifpa_number) for p in band] for band in bands]
    return ExportFile(f"{slug(league_name)}-ifpa.csv", ifpa_results_csv(finishers), len(ids))


def slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in text.casefold()).strip("-") or "league"
