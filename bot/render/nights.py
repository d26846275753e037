"""A ladder or field season's planned nights (`/schedule nights`, `/schedule show`). Pure: data in, Embed out."""

from __future__ import annotations

import discord

from bot.render.posts import clock_time
from bot.render.setup import LEAGUE_COLOUR
from bot.services.nights import NightSchedule, night_start


def planned_nights_embed(schedule: NightSchedule) -> discord.Embed:
    """`/schedule show` of a ladder or field league."""
    return nights_embed(schedule, scheduled=False)


def nights_embed(schedule: NightSchedule, *, scheduled: bool) -> discord.Embed:
    """Each night on its date and local start time in the league's zone; after scheduling, the next steps."""
    league, zone = schedule.league, schedule.zone
    lines = [
        f"Week {night.week} · {night.play_on:%a %Y-%m-%d} · {clock_time(night_start(night, zone).time())}"
        for night in schedule.nights
    ]
    if not lines:
        lines.append("Not scheduled yet: a commissioner dates the season's nights with `/schedule nights`.")
    if schedule.skipped:
        lines += [f"Skipped: {skip.play_on:%a %Y-%m-%d} ({skip.skipped_because})" for skip in schedule.skipped]
    if scheduled:
        lines.append(
            "\nNight-day reminders go to the announcements channel (`/posts channels`, `/posts upcoming`); "
            "members add the nights to their calendars with `/schedule ics`."
        )
    title = f"📅 {league.name} season {schedule.season.number}: {len(schedule.nights)} nights"
    return discord.Embed(
        title=title + (" scheduled" if scheduled else ""),
        description="\n".join(lines) + f"\nTimes are {league.timezone} time.",
        colour=LEAGUE_COLOUR,
    )
