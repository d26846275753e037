"""The field format's scheduled posts as messages: the meet-day reminder, a night's results, the season table and
the finals bracket. Pure: facts in, `Outgoing` out (the finals bracket is edited in place as results arrive)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import discord

from bot.render import images
from bot.render.field.replies import finals_embed, night_embed
from bot.render.field.replies import standings_embed as field_standings_embed
from bot.render.nights import with_roll_call
from bot.render.posts import Outgoing, Pictures, clock_time, facts_of, with_pictures
from bot.render.setup import LEAGUE_COLOUR
from bot.rules import posts as rules
from bot.rules.brackets import Bye, MatchState, Part
from bot.rules.field.posts import MEET_NIGHT, NIGHT_RESULTS
from bot.services.field.finals import BracketView, FinalsView
from bot.services.field.nights import NightView
from bot.services.field.standings import FieldStandingsView
from bot.services.nights import NightDay
from bot.services.post_content import PostContent

FIELD_MAX = 1024
MACHINE_TOP = 8  # per machine in the embed, which Discord caps at 6,000 characters; the image has everyone
PART_TITLES = {Part.WINNERS: "Winners' bracket", Part.LOSERS: "Losers' bracket", Part.GRAND_FINAL: "Grand final"}


def meet_night(day: NightDay) -> discord.Embed:
    """Meet day: the week and start time, and how to check in (FIELD-ATT-1)."""
    return discord.Embed(
        title=f"🎳 {day.league}: week {day.week} is tonight",
        description=(
            f"League play starts at **{clock_time(day.starts.time())}**. Check in with `/field checkin` when you "
            "arrive; groups are made from who is checked in (FIELD-ATT-1)."
        ),
        colour=LEAGUE_COLOUR,
    )


def meet_night_post(content: PostContent) -> Outgoing:
    day = facts_of(content, NightDay)
    return with_roll_call(meet_night(day), day)


def night_results(view: NightView) -> tuple[discord.Embed, Pictures]:
    """A closed night: the night sheet (groups and totals), each machine's points (FIELD-SCORE-2), and the
    totals with every machine's points as a table image."""
    season, result, night = view.season, view.result, view.night
    embed = night_embed(view)
    embed.title = f"📋 Week {night.week} results, {night.play_on:%a %-d %b %Y}"
    for machine in night.machine_ids:
        scored = result.machines.get(machine)
        if scored is None:
            continue
        ranked = sorted(scored.points.values(), key=lambda p: (p.rank is None, p.rank or 0, -p.total))
        lines = [f"{p.rank or '-'}. {season.names.get(int(p.player), '?')} {p.total}" for p in ranked[:MACHINE_TOP]]
        more = f" · +{len(ranked) - MACHINE_TOP} more (see the image)" if len(ranked) > MACHINE_TOP else ""
        embed.add_field(
            name=season.machine_names.get(machine, f"#{machine}"), value=(" · ".join(lines) + more)[:FIELD_MAX]
        )
    names = [season.machine_names.get(m, f"#{m}") for m in night.machine_ids]
    embed.description = "Machines: " + ", ".join(f"M{n} {name}" for n, name in enumerate(names, start=1))
    header = ("#", "Player", *(f"M{n}" for n in range(1, len(names) + 1)), "Pts")
    rows = []
    for row in result.rows:
        per_machine = [
            result.machines[m].points.get(row.player) if m in result.machines else None for m in night.machine_ids
        ]
        name = season.names.get(int(row.player), "?") + (" (guest)" if row.guest else "")
        cells = [str(p.total) if p is not None else "-" for p in per_machine]
        rows.append((str(row.position), name, *cells, str(row.machine_points)))
    widths = (0.8, 3.6, *(1.2 for _ in night.machine_ids), 1.2)
    picture = images.table(f"Week {night.week} - {night.play_on:%d %b %Y}", header, rows, widths=widths)
    embed.set_image(url="attachment://results.png")
    return embed, {"results.png": picture}


def field_standings(view: FieldStandingsView) -> tuple[discord.Embed, Pictures]:
    """FIELD-STAND-1: the season table, and the same rows as an image."""
    embed = field_standings_embed(view)
    embed.title = f"🏆 {view.league.name} standings after week {view.weeks_final}"
    rows = [
        (
            str(row.rank),
            view.names.get(int(row.player), "?"),
            _points(row.total),
            _points(row.raw_total),
            str(row.weeks_played),
        )
        for row in view.rows
    ]
    title = f"{view.league.name} - after week {view.weeks_final}"
    picture = images.table(title, ("#", "Player", "Total", "Raw", "Wk"), rows, widths=(0.8, 4.4, 1.4, 1.4, 0.8))
    embed.set_image(url="attachment://standings.png")
    return embed, {"standings.png": picture}


def finals_bracket(view: FinalsView) -> tuple[discord.Embed, Pictures]:
    """FIELD-FIN-3/7: the finals embed, and each double-elimination bracket as an image, part by part."""
    pictures = {
        f"bracket-{number}.png": images.text_panel(f"{bracket.name} - double elimination", bracket_lines(bracket, view))
        for number, bracket in enumerate(view.brackets, start=1)
    }
    embed = finals_embed(view)
    if pictures:
        embed.set_image(url=f"attachment://{next(iter(pictures))}")
    return embed, pictures


def bracket_lines(bracket: BracketView, view: FinalsView) -> list[str]:
    """The matches worth drawing: byes (a seed walking through) and grand-final resets not needed are left out;
    a decided pairing says who beat whom and the games won, a pending one who is known so far."""
    lines: list[str] = []
    for part in Part:
        matches = [s for s in bracket.state.matches if s.match.part is part and not s.skipped and not _has_bye(s)]
        if matches:
            lines.append(f"# {PART_TITLES[part]}")
            lines.extend(_match_line(state, bracket, view) for state in matches)
    champion = bracket.state.champion
    if champion is not None:
        lines.append(f"# Champion: {_who(champion, bracket, view)}")
    return lines


def _match_line(state: MatchState, bracket: BracketView, view: FinalsView) -> str:
    games = bracket.games.get(state.match.id, [])
    top, bottom = _who(state.top, bracket, view), _who(state.bottom, bracket, view)
    wins = [sum(1 for game in games if game.winner == seed) for seed in (state.top, state.bottom)]
    if isinstance(state.winner, int):
        loser = bottom if state.winner == state.top else top
        high, low = max(wins), min(wins)
        return f"{state.match.id}: {_who(state.winner, bracket, view)} beat {loser}, {high}-{low}"
    return f"{state.match.id}: {top} v {bottom}" + (f" ({wins[0]}-{wins[1]})" if games else "")


def _who(entrant: object, bracket: BracketView, view: FinalsView) -> str:
    if isinstance(entrant, int):
        return f"({entrant}) {view.names.get(bracket.players[entrant], '?')}"
    return "?"


def _has_bye(state: MatchState) -> bool:
    return isinstance(state.top, Bye) or isinstance(state.bottom, Bye)


def _points(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else f"{float(value):.2f}"


RENDERERS: dict[str, Callable[[PostContent], Outgoing]] = {
    MEET_NIGHT.name: meet_night_post,
    # a closed night: points per machine and the night's totals (FIELD-SCORE-2)
    NIGHT_RESULTS.name: lambda content: with_pictures(night_results(facts_of(content, NightView))),
    rules.WEEKLY_STANDINGS.name: lambda content: with_pictures(field_standings(facts_of(content, FieldStandingsView))),
    rules.BRACKET.name: lambda content: with_pictures(finals_bracket(facts_of(content, FinalsView))),
}
