"""The field format's exports: the season table as CSV, and IFPA results from the finals, then the league table
(FIELD-IFPA-1/2)."""

from __future__ import annotations

from bot.clock import Clock
from bot.exchange.files import ExportFile, StandingsExport
from bot.exchange.reports import FIELD_STANDINGS_COLUMNS, csv_file, field_bands, field_standings_rows
from bot.rules.refusals import NotFound
from bot.services.actor import Actor
from bot.services.exports import results_file, slug
from bot.services.field.finals import FieldFinalsService
from bot.services.field.standings import FieldStandingsView
from storage.db import Database


async def standings_files(db: Database, clock: Clock, actor: Actor, view: FieldStandingsView) -> StandingsExport:
    rows = field_standings_rows(view)
    table = ExportFile(f"{slug(view.league.name)}-standings.csv", csv_file(FIELD_STANDINGS_COLUMNS, rows), len(rows))
    try:
        finals = await FieldFinalsService(db, clock).show(actor, view.league.name, season_number=view.season.number)
    except NotFound:
        finals = None
    if finals is None or not finals.ifpa:
        waiting = "IFPA results come with the finals (FIELD-IFPA-1/2), once every bracket has its champion."
        return StandingsExport([table], waiting)
    return StandingsExport([table, await results_file(db, view.league.name, field_bands(finals.ifpa))])
