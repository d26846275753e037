"""The team format's registration (`bot.formats`): Pinball NYC style, teams that play doubles and singles."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.clock import Clock
from bot.formats import Format, Posts, StandingsReaders
from bot.render import posts as render
from bot.render.team.schedule import schedule_embed
from bot.render.team.standings import standings_embed
from bot.rules import posts as rules
from bot.rules.discipline import LedgerRules
from bot.rules.team import notices as team_notices
from bot.rules.team import posts as team_posts
from bot.rules.team.options import WHAT_IFS, TeamOptions
from bot.services import post_content
from bot.services.team import exports, schedule, seasons
from bot.services.team import help as guide
from bot.services.team.schedule import ScheduleService
from bot.services.team.standings import StandingsService
from storage.db import Database


def _slam_tilt_flag(options: Mapping[str, Any]) -> int | None:
    return TeamOptions.model_validate(options).slam_tilt_flag


def _standings(db: Database, clock: Clock) -> StandingsReaders:
    service = StandingsService(db, clock)
    return StandingsReaders(service.table, seasons.TeamSeasons(service).progress)


FORMAT = Format(
    name="team",
    choice="team — Pinball NYC style: teams, doubles and singles",
    options=TeamOptions,
    zone_required=False,
    teams=True,
    ledger=LedgerRules(
        warn_player="TEAM-DISC-1",
        warn_team="TEAM-DISC-4",
        suspend="TEAM-DISC-1",
        expel="TEAM-DISC-2",
        permanence="TEAM-DISC-2",
        second_warning_suspends=True,
        slam_tilt_flag=_slam_tilt_flag,
    ),
    notices=team_notices.NOTICES,
    tables=("storage.matches",),
    standings=_standings,
    what_ifs=WHAT_IFS,
    standings_embed=standings_embed,
    standings_files=exports.standings_files,
    calendar_file=exports.calendar_file,
    schedule=lambda db, clock: ScheduleService(db, clock).show,
    schedule_embed=schedule_embed,
    last_played=schedule.last_played,
    carry_season=seasons.carry_season,
    posts=Posts(
        calendar=post_content.team_calendar,
        content=post_content.team_content,
        renderers={
            team_posts.ROSTER_CUTOFF.name: render.roster_cutoff,
            team_posts.ROLL_CALL.name: render.roll_call,
            team_posts.SHORT_WARNING.name: render.short_warning,
            team_posts.MATCH_NIGHT.name: render.match_night,
            team_posts.MISSING_SCORES.name: render.missing_scores,
            team_posts.DISPUTE_REMINDER.name: render.dispute_reminder,
            team_posts.DISPUTE_CLOSED.name: render.dispute_closed,
            rules.WEEKLY_STANDINGS.name: render.weekly_standings,
            rules.BRACKET.name: render.bracket,
        },
    ),
    guide=guide.GUIDE,
)
