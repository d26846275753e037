"""The ladder format's scheduled posts as messages: the night-day reminder, next week's groups, the standings and
the playoff places. Pure: facts in, `Outgoing` out."""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.render import images
from bot.render.ladder.replies import group_title, playoffs_embed
from bot.render.ladder.replies import standings_embed as ladder_standings_embed
from bot.render.nights import with_roll_call
from bot.render.posts import Outgoing, Pictures, clock_time, facts_of, with_pictures
from bot.render.setup import LEAGUE_COLOUR
from bot.rules import posts as rules
from bot.rules.ladder.options import LadderOptions
from bot.rules.ladder.posts import LEAGUE_NIGHT, NEXT_GROUPS
from bot.rules.ladder.scoring import show
from bot.services.ladder.nights import GroupsView
from bot.services.ladder.standings import LadderStandings, Playoffs
from bot.services.nights import NightDay
from bot.services.post_content import PostContent

FIELD_MAX = 1024


def next_groups(view: GroupsView) -> discord.Embed:
    """LADDER-GROUP-3: next week's groups from the closed night's finish; LADDER-ORDER-1: in game 1 the
    worst-placed plays first and the best-ranked last."""
    embed = discord.Embed(
        title=f"🎯 {view.league}: groups for week {view.week}",
        description=(
            f"From week {view.week - 1}'s finish (LADDER-GROUP-3). Game 1: the worst-placed plays first, "
            "the best-ranked last (LADDER-ORDER-1); later games in reverse finishing order."
        ),
        colour=LEAGUE_COLOUR,
    )
    for group in view.groups:
        players = sorted(group.players, key=lambda player: player[1])
        lines = [f"#{rank} {name}" for name, rank, _ in players]
        lines.append("Game 1 order: " + ", ".join(name for name, _, _ in reversed(players)))
        embed.add_field(
            name=group_title(group.number, group.division), value="\n".join(lines)[:FIELD_MAX], inline=False
        )
    return embed


def league_night(day: NightDay, content: PostContent) -> discord.Embed:
    """Night day: the week and start, how to check in (LADDER-ATT-1) and the notice deadlines (LADDER-ATT-3/4)."""
    options = LadderOptions.model_validate(content.league.options)
    return discord.Embed(
        title=f"🎳 {day.league}: week {day.week} is tonight",
        description=(
            f"Check-in from **{clock_time(options.check_in)}** with `/ladder checkin`; groups start at "
            f"{clock_time(options.group_start)}. Coming late? `/ladder absent late:true` by "
            f"{clock_time(options.late_notice_deadline)} (LADDER-ATT-3). Can't come? `/ladder absent` by "
            f"{clock_time(options.absence_notice_deadline)} (LADDER-ATT-4)."
        ),
        colour=LEAGUE_COLOUR,
    )


def league_night_post(content: PostContent) -> Outgoing:
    day = facts_of(content, NightDay)
    return with_roll_call(league_night(day, content), day)


def ladder_standings(view: LadderStandings) -> tuple[discord.Embed, Pictures]:
    """LADDER-STAND-1: the standings embed, and the same rows as a table image."""
    embed = ladder_standings_embed(view)
    embed.title = f"🏆 {view.league} standings after week {view.weeks_closed}"
    rows = [
        (str(row.position), row.name + (" *" if row.qualifies else ""), str(row.tlp), show(row.ans), str(row.weeks))
        for row in view.rows
        if not row.dropped
    ]
    title = f"{view.league} - after week {view.weeks_closed}"
    picture = images.table(title, ("#", "Player", "TLP", "ANS", "Wk"), rows, widths=(0.8, 4.6, 1.2, 1.6, 0.8))
    embed.set_image(url="attachment://standings.png")
    return embed, {"standings.png": picture}


def playoff_places(view: Playoffs) -> tuple[discord.Embed, Pictures]:
    """LADDER-PO-1/2: when the regular season ends, each division's qualifiers in seed order and the alternates."""
    lines: list[str] = []
    for division in view.divisions:
        lines.append(f"# Division {division.division}" if division.division else "# League")
        lines.extend(f"{seed}. {name}" for seed, name in enumerate(division.qualifiers, start=1))
        lines.append("Alternates: " + (", ".join(division.alternates) or "none"))
    embed = playoffs_embed(view)
    embed.set_image(url="attachment://playoffs.png")
    return embed, {"playoffs.png": images.text_panel(f"{view.league} playoffs", lines)}


RENDERERS: dict[str, Callable[[PostContent], Outgoing]] = {
    LEAGUE_NIGHT.name: league_night_post,
    # LADDER-GROUP-3 / LADDER-ORDER-1: next week's groups and game 1's order, the day after a night closed
    NEXT_GROUPS.name: lambda content: Outgoing(embeds=[next_groups(facts_of(content, GroupsView))]),
    rules.WEEKLY_STANDINGS.name: lambda content: with_pictures(ladder_standings(facts_of(content, LadderStandings))),
    rules.BRACKET.name: lambda content: with_pictures(playoff_places(facts_of(content, Playoffs))),
}
