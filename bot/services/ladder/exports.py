"""The ladder format's exports: the standings as CSV, and IFPA results from the final standings (LADDER-STAND-2)."""

from __future__ import annotations

from bot.clock import Clock
from bot.exchange.files import ExportFile, StandingsExport
from bot.exchange.reports import LADDER_STANDINGS_COLUMNS, csv_file, ladder_bands, ladder_standings_rows
from bot.services.actor import Actor
from bot.services.exports import results_file, slug
from bot.services.ladder.standings import LadderStandings
from storage.db import Database


async def standings_files(db: Database, clock: Clock, actor: Actor, view: LadderStandings) -> StandingsExport:
    rows = ladder_standings_rows(view)
    table = ExportFile(f"{slug(view.league)}-standings.csv", csv_file(LADDER_STANDINGS_COLUMNS, rows), len(rows))
    if view.weeks_closed < view.regular_weeks:
        return StandingsExport(
            [table],
            f"IFPA results come with the final standings (LADDER-STAND-2), once all {view.regular_weeks} "
            f"regular weeks are closed ({view.weeks_closed} so far).",
        )
    return StandingsExport([table, await results_file(db, view.league, ladder_bands(view))])
