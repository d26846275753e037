"""Schedule embeds. Pure: data in, Embed out."""

from __future__ import annotations

import discord

from bot.render.setup import LEAGUE_COLOUR
from bot.rules.team.model import MatchOutcome, Side
from bot.rules.team.scoring import Flag, MatchResult
from bot.services.team.schedule import GeneratedSeason, MatchChange, ScheduledLine, ScheduleView
from bot.services.team.standings import ScheduledTiebreaker
from storage.matches import MatchKind, MatchState

DESCRIPTION_MAX = 4000  # Discord allows 4096; leaves room for the "more" note
FIELD_MAX = 1024
KIND_TAGS = {MatchKind.REGULAR: "", MatchKind.PLAYOFF: " 🏆", MatchKind.TIEBREAKER_MATCH: " ⚖️ tie-breaker match"}
STATE_TAGS = {MatchState.SCHEDULED: "", MatchState.RESCHEDULED: " · rescheduled", MatchState.MOVED: " · moved"}


def generated_embed(season: GeneratedSeason) -> discord.Embed:
    lines = season.lines
    first, last = lines[0].match.play_on, lines[-1].match.play_on
    embed = discord.Embed(
        title=f"📅 {season.season.name} schedule generated",
        description=(
            f"{len(lines)} matches over {season.weeks} weeks, {first:%a %Y-%m-%d} to {last:%a %Y-%m-%d}. "
            "Every team plays at most once a week, at the HOME team's venue.\n"
            "See a team's matches with `/schedule show team:`, a week's with `/schedule show week:`."
        ),
        colour=LEAGUE_COLOUR,
    )
    balance = [
        f"{b.team.name}: {b.home} home · {b.away} away" + (f" · {b.byes} bye{'s' * (b.byes > 1)}" if b.byes else "")
        for b in season.balance
    ]
    embed.add_field(name="Teams", value=_clip(balance, FIELD_MAX), inline=False)
    week_one = [match_line(line) for line in lines if line.match.week == 1]
    embed.add_field(name="Week 1", value=_clip(week_one, FIELD_MAX), inline=False)
    return embed


def tiebreaker_scheduled_embed(scheduled: ScheduledTiebreaker) -> discord.Embed:
    """The tie-breaker match `/schedule tiebreaker` stored: when, where, who is HOME and why (TEAM-STAND-2,
    TEAM-AMB-19)."""
    line = scheduled.line
    when = (
        "the regular match night of the week after the regular season (a bye week comes before the playoffs)"
        if scheduled.bye_week
        else "two nights after the later of the two teams' last regular-season match (no bye week before the playoffs)"
    )
    toss = "the bot tossed the coin" if scheduled.tossed_by_bot else "as recorded"
    return discord.Embed(
        title="⚖️ Tie-breaker match scheduled",
        description=(
            f"{match_line(line)}\n"
            f"On {line.match.play_on:%a %Y-%m-%d}: {when} (TEAM-STAND-2).\n"
            f"A full match under the regular rules at a neutral venue. {line.home.name} is HOME: "
            f"{scheduled.toss_winner.name} won the coin toss ({toss}, TEAM-AMB-19). "
            "Its result decides step 6 of the standings only, never the record."
        ),
        colour=LEAGUE_COLOUR,
    )


def schedule_embed(view: ScheduleView) -> discord.Embed:
    subject = view.team.name if view.team else f"week {view.week}" if view.week else "all weeks"
    embed = discord.Embed(title=f"📅 {view.season.name} schedule: {subject}", colour=LEAGUE_COLOUR)
    embed.set_author(name=view.season_shown)
    if not view.lines:
        embed.description = (
            "No matches here yet. A commissioner creates the season with `/schedule generate`."
            if not view.weeks
            else "No matches for this team."
        )
        return embed
    text: list[str] = []
    week = None
    for line in view.lines:
        if line.match.week != week:
            week = line.match.week
            text.append(f"**Week {week}**")
        text.append(match_line(line))
    embed.description = _clip(text, DESCRIPTION_MAX)
    embed.set_footer(text=f"Weeks 1–{view.weeks}. Narrow it with week: or team:.")
    return embed


def rescheduled_embed(change: MatchChange) -> discord.Embed:
    """TEAM-VENUE-3: reported to the league."""
    line, match = change.line, change.line.match
    venue = f" at {line.venue.name}" if line.venue else ""
    embed = discord.Embed(
        title="📅 Match rescheduled",
        description=(
            f"**{line.away.name} at {line.home.name}** moves from {change.date_before:%a %Y-%m-%d} "
            f"(week {change.week_before}) to **{match.play_on:%a %Y-%m-%d}** (week {match.week}){venue}."
        ),
        colour=LEAGUE_COLOUR,
    )
    embed.add_field(name="Reason", value=change.reason, inline=False)
    return embed


def moved_embed(change: MatchChange) -> discord.Embed:
    """TEAM-VENUE-2: reported to the league, with the reason (TEAM-VENUE-1)."""
    line, match = change.line, change.line.match
    was = change.venue_before.name if change.venue_before else "no venue"
    now = line.venue.name if line.venue else "no venue"
    embed = discord.Embed(
        title="📍 Match moved",
        description=(
            f"**{line.away.name} at {line.home.name}** on {match.play_on:%a %Y-%m-%d} moves from {was} to **{now}**, "
            f"chosen by {line.home.name} as HOME."
        ),
        colour=LEAGUE_COLOUR,
    )
    embed.add_field(name="Reason", value=change.reason, inline=False)
    embed.set_footer(
        text="A match moves only when no machine works or the venue is unavailable; moving otherwise forfeits "
        "HOME (TEAM-VENUE-1)."
    )
    return embed


def match_line(line: ScheduledLine) -> str:
    """`Tue 03-02 · Away at Home · Venue`, with the score (winner in bold) once there is one."""
    match = line.match
    venue = f" · {line.venue.name}" if line.venue else ""
    head = f"{match.play_on:%a %m-%d} · "
    tag = KIND_TAGS[match.kind] + STATE_TAGS[match.state]
    result = line.result
    if result is None or _nothing_yet(result):
        pending = " · no result yet" if result is not None else ""
        return f"{head}{line.away.name} at {line.home.name}{venue}{tag}{pending}"
    away, home = (_named(line, side, result) for side in (Side.AWAY, Side.HOME))
    score = f"{result.points[Side.AWAY]}–{result.points[Side.HOME]}"
    return f"{head}{away} {score} {home}{venue}{tag} · {status(result)}"


def status(result: MatchResult) -> str:
    if Flag.DOUBLE_FORFEIT in result.flags:
        return "double forfeit, both lose"
    if result.final:
        return "forfeit, final" if result.available_points is None else "final"
    if result.outcome is not None:
        return f"waiting for {result.missing[0]}" if result.missing else "waiting"
    return "in progress"


def _named(line: ScheduledLine, side: Side, result: MatchResult) -> str:
    team = line.home if side is Side.HOME else line.away
    won = result.outcome is not None and result.outcome[side] is MatchOutcome.WIN
    return f"**{team.name}**" if won else team.name


def _nothing_yet(result: MatchResult) -> bool:
    return result.outcome is None and not any(result.points.values())


def _clip(lines: list[str], limit: int) -> str:
    """Join lines, dropping the tail with a note when they would pass `limit` characters."""
    kept = list(lines)
    text = "\n".join(kept)
    while len(text) > limit:
        kept.pop()
        text = "\n".join([*kept, f"… and {len(lines) - len(kept)} more: narrow it with `week:` or `team:`."])
    return text or "none"
