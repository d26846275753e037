"""The commissioner's view of scheduled posts: settings and the upcoming list. Pure: data in, Embed out."""

from __future__ import annotations

import discord

from bot.render.posts import clock_time, when
from bot.render.setup import LEAGUE_COLOUR
from bot.rules import posts as rules
from bot.services.posts import Posting, UpcomingView

FIELD_MAX = 1024
MAX_LINES = 30


def _channel(channel_id: int | None) -> str:
    return f"<#{channel_id}>" if channel_id else "not set"


def settings_embed(posting: Posting) -> discord.Embed:
    settings = posting.settings()
    state = "⏸️ paused" if settings.paused else "▶️ running"
    embed = discord.Embed(
        title=f"📬 Scheduled posts of {posting.league.name}: {state}",
        description=(
            f"Times are {posting.league.timezone} time. A post the bot could not send on time (say, it was "
            f"restarting) still goes out up to {posting.row.grace_minutes} minutes late, never twice."
        ),
        colour=LEAGUE_COLOUR,
    )
    embed.add_field(
        name="Channels",
        value="\n".join(f"{c.value}: {_channel(posting.channel_id(c))}" for c in rules.Channel),
        inline=False,
    )
    lines = []
    for kind in posting.kinds():
        timing = settings.timing(kind)
        lines.append(f"{'✅' if timing.enabled else '⛔'} `{kind.name}` {timing_text(timing)} → {kind.channel.value}")
    embed.add_field(name="Kinds", value="\n".join(lines)[:FIELD_MAX] or "none for this format yet", inline=False)
    return embed


def timing_text(timing: rules.Timing) -> str:
    if timing.at is None:
        return f"{timing.hours} h after the event" if timing.hours else "as soon as it happens"
    day = {0: "on the day", -1: "the day before", 1: "the day after"}.get(
        timing.days, f"{abs(timing.days)} days {'before' if timing.days < 0 else 'after'}"
    )
    return f"{clock_time(timing.at)} {day}"


def upcoming_embed(view: UpcomingView) -> discord.Embed:
    posting = view.posting
    embed = discord.Embed(title=f"📬 Upcoming posts of {posting.league.name}", colour=LEAGUE_COLOUR)
    if posting.row.paused:
        embed.description = "⏸️ Paused: none of these go out until `/posts resume`."
    lines = []
    for item in view.posts[:MAX_LINES]:
        kind = rules.REGISTRY[item.post.kind]
        where = _channel(item.channel_id)
        done = " · ✅ sent" if item.claimed else ""
        lines.append(f"{when(item.post.local)} · {kind.title} `{item.post.period}` → {where}{done}")
    if len(view.posts) > MAX_LINES:
        lines.append(f"… and {len(view.posts) - MAX_LINES} more")
    embed.add_field(name="Next eight days", value="\n".join(lines)[:FIELD_MAX] or "Nothing due.", inline=False)
    return embed
