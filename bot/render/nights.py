"""A ladder or field season's planned nights (`/schedule nights`, `/schedule show`). Pure: data in, Embed out."""

from __future__ import annotations

import discord

from bot.render.posts import FIELD_MAX, Outgoing, clock_time
from bot.render.setup import LEAGUE_COLOUR
from bot.rules.posts import RollCallAnswer
from bot.services.nights import NightDay, NightSchedule, night_start

ROLL_CALL_LINES = ((RollCallAnswer.IN, "✅ In"), (RollCallAnswer.MAYBE, "❔ Maybe"), (RollCallAnswer.OUT, "❌ Out"))


def with_roll_call(embed: discord.Embed, day: NightDay) -> Outgoing:
    """A night-day post with its roll call, where the format has one: who is in, maybe, out and yet to answer,
    under the In / Maybe / Out buttons (edited as players answer)."""
    if day.night_id is None:
        return Outgoing(embeds=[embed])
    lines = [f"{mark} ({len(day.answers[answer])}): {', '.join(day.answers[answer]) or '—'}" for answer, mark in
             ROLL_CALL_LINES]  # fmt: skip
    lines.append(f"… No answer: {', '.join(day.unanswered) or '—'}")
    embed.add_field(name="🙋 Roll call: are you coming?", value="\n".join(lines)[:FIELD_MAX], inline=False)
    return Outgoing(embeds=[embed], night_roll_call=day.night_id)


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
