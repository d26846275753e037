"""The field format's registration (`bot.formats`): Lafayette style, every machine ranks the whole field."""

from __future__ import annotations

from datetime import time

from bot.clock import Clock
from bot.formats import Format, NightRollCall, Posts, StandingsReaders, without_conferences
from bot.render.field import posts
from bot.render.field.replies import standings_embed
from bot.render.nights import planned_nights_embed
from bot.rules.discipline import COMMON_LEDGER
from bot.rules.field import notices as field_notices
from bot.rules.field.finals import check_finals_date
from bot.rules.field.options import WHAT_IFS, FieldOptions
from bot.rules.field.posts import MEET_NIGHT
from bot.services.field import exports, seasons
from bot.services.field import help as guide
from bot.services.field import options as field_options
from bot.services.field import posts as post_content
from bot.services.field.standings import FieldStandingsService
from bot.services.nights import NightScheduleService, nights_calendar
from storage.db import Database

# FIELD-CFG-1: the SLO sets the start time; `/schedule nights start:` gives it, this is the default
MEET_START = time(19, 0)


def _standings(db: Database, clock: Clock) -> StandingsReaders:
    return StandingsReaders(without_conferences(FieldStandingsService(db, clock).table), seasons.season_progress)


FORMAT = Format(
    name="field",
    choice="field — Lafayette style: every machine ranks the field",
    options=FieldOptions,
    zone_required=True,
    teams=False,
    ledger=COMMON_LEDGER,
    notices=field_notices.NOTICES,
    tables=("storage.field",),
    standings=_standings,
    what_ifs=WHAT_IFS,
    standings_embed=standings_embed,
    standings_files=exports.standings_files,
    schedule=lambda db, clock: NightScheduleService(db, clock).show,
    schedule_embed=planned_nights_embed,
    calendar_file=nights_calendar("field meet"),
    last_played=field_options.last_played,
    carry_season=seasons.carry_season,
    posts=Posts(calendar=post_content.calendar, content=post_content.content, renderers=posts.RENDERERS),
    guide=guide.GUIDE,
    night_start=lambda league: MEET_START,
    check_postseason_date=check_finals_date,
    night_roll_call=NightRollCall(
        MEET_NIGHT.name,
        post_content.night_players,
        post_content.roll_call_answered,
        "ask a commissioner to register you with `/player register`",
    ),
)
