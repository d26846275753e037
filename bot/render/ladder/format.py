"""The ladder format's registration (`bot.formats`): Jersey PA style, groups of players that move up and down."""

from __future__ import annotations

from datetime import time

from bot.clock import Clock
from bot.formats import Format, NightRollCall, Posts, StandingsReaders, without_conferences
from bot.render.ladder import posts
from bot.render.ladder.replies import standings_embed
from bot.render.nights import planned_nights_embed
from bot.rules.discipline import COMMON_LEDGER
from bot.rules.ladder import notices as ladder_notices
from bot.rules.ladder.options import WHAT_IFS, LadderOptions
from bot.rules.ladder.posts import LEAGUE_NIGHT
from bot.services.ladder import exports, players, seasons
from bot.services.ladder import help as guide
from bot.services.ladder import options as ladder_options
from bot.services.ladder import posts as post_content
from bot.services.ladder.standings import LadderStandingsService
from bot.services.nights import NightScheduleService, nights_calendar
from storage.db import Database
from storage.models import League


def _night_start(league: League) -> time:
    """LADDER-CFG-1: a night starts with check-in (19:15 by default)."""
    return LadderOptions.model_validate(league.options).check_in


def _standings(db: Database, clock: Clock) -> StandingsReaders:
    return StandingsReaders(without_conferences(LadderStandingsService(db, clock).standings), seasons.season_progress)


FORMAT = Format(
    name="ladder",
    choice="ladder — Jersey PA style: groups that move up and down",
    options=LadderOptions,
    zone_required=False,
    teams=False,
    ledger=COMMON_LEDGER,
    notices=ladder_notices.NOTICES,
    tables=("storage.ladder",),
    standings=_standings,
    what_ifs=WHAT_IFS,
    standings_embed=standings_embed,
    standings_files=exports.standings_files,
    schedule=lambda db, clock: NightScheduleService(db, clock).show,
    schedule_embed=planned_nights_embed,
    calendar_file=nights_calendar("ladder night"),
    last_played=ladder_options.last_played,
    carry_season=seasons.carry_season,
    posts=Posts(calendar=post_content.calendar, content=post_content.content, renderers=posts.RENDERERS),
    guide=guide.GUIDE,
    night_start=_night_start,
    night_roll_call=NightRollCall(
        LEAGUE_NIGHT.name, players.night_players, players.roll_call_answered, "join with `/ladder join skill:<1-10>`"
    ),
)
