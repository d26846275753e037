"""Standings embeds: one monospace table per conference, narrow enough for a phone. Pure: data in, Embed out."""

from __future__ import annotations

from fractions import Fraction

import discord

from bot.render.setup import LEAGUE_COLOUR
from bot.render.words import and_list
from bot.rules.team.standings import StandingRow, TieStep
from bot.services.team.standings import ConferenceTable, StandingsView

FIELD_MAX = 1024
NAME_WIDTH = 13
HEADER = f"{'#':<3} {'Team':<{NAME_WIDTH}} {'W-L':>5} {'Pct':>5} {'MP':>3} Tie"
STEP_CODES = {
    TieStep.RECORD: "",
    TieStep.MATCH_POINTS: "MP",
    TieStep.HEAD_TO_HEAD: "H2H",
    TieStep.HEAD_TO_HEAD_POINTS: "H2H-MP",
    TieStep.AWAY_PCT: "Away",
    TieStep.TIEBREAKER_MATCH: "TBM",
}
LEGEND = (
    "Tie: the step that split teams level on record (TEAM-STAND-1): MP match points, H2H head-to-head, "
    "H2H-MP head-to-head match points, Away away win %, TBM tie-breaker match; = still level."
)


def standings_embed(view: StandingsView) -> discord.Embed:
    embed = discord.Embed(
        title=f"🏆 {view.league.name} standings, {view.season.name}",
        description=(
            f"{view.final_matches} of {view.regular_matches} regular-season matches final. "
            "Only confirmed results count."
        ),
        colour=LEAGUE_COLOUR,
    )
    for table in view.tables:
        for number, block in enumerate(table_blocks(table)):
            embed.add_field(name=table.name if number == 0 else f"{table.name} (cont.)", value=block, inline=False)
    if ties := tie_notes(view):
        embed.add_field(name="⚖️ Tie-breaker match (TEAM-STAND-2)", value="\n".join(ties)[:FIELD_MAX], inline=False)
    embed.set_footer(text=LEGEND)
    return embed


def table_blocks(table: ConferenceTable) -> list[str]:
    """The conference's table as code blocks that each fit an embed field."""
    if not table.rows:
        return ["No teams yet."]
    blocks: list[list[str]] = [[HEADER]]
    for row in table.rows:
        line = table_line(row, table.teams[row.team].name)
        if len(_code(blocks[-1] + [line])) > FIELD_MAX:
            blocks.append([HEADER])
        blocks[-1].append(line)
    return [_code(lines) for lines in blocks]


def table_line(row: StandingRow, name: str) -> str:
    rank = f"{row.rank}{'=' if row.tied_with else ''}"
    short = name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "…"
    record = f"{row.wins}-{row.losses}"
    tie = "=" if row.decided_by is None else STEP_CODES[row.decided_by]
    return f"{rank:<3} {short:<{NAME_WIDTH}} {record:>5} {win_pct(row):>5} {row.match_points:>3} {tie}".rstrip()


def win_pct(row: StandingRow) -> str:
    """Baseball style: .667, 1.000; a dash before the first result."""
    if not row.played:
        return "—"
    text = f"{float(row.win_pct):.3f}"
    return text[1:] if row.win_pct < Fraction(1) else text


def tie_notes(view: StandingsView) -> list[str]:
    notes = []
    for table in view.tables:
        for group in table.level_after_every_step:
            names = and_list(sorted(table.teams[team].name for team in group))
            on = table.tiebreaker_dates.get(group)
            scheduled = table.scheduled_tiebreakers.get(group)
            if scheduled is not None:
                venue = f" at {scheduled.venue.name}" if scheduled.venue else ""
                then = f"Their tie-breaker match is on {scheduled.match.play_on:%a %Y-%m-%d}{venue}."
            elif view.season_complete:
                then = (
                    f"A tie-breaker match is due on {on:%a %Y-%m-%d}" if on else "A tie-breaker match is due"
                ) + "; a commissioner schedules it with `/schedule tiebreaker`."
            else:
                then = "If the season ends like this, a tie-breaker match decides it."
            notes.append(f"{table.name}: {names} are level after every tie-break step. {then}")
    return notes


def _code(lines: list[str]) -> str:
    return "```\n" + "\n".join(lines) + "\n```"
