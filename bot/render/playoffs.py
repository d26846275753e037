"""Playoff brackets as text, one embed field per conference. Pure: data in, Embed out."""

from __future__ import annotations

import discord

from bot.render.setup import LEAGUE_COLOUR
from bot.rules.brackets import Bye, Entrant, MatchState, Source, WinnerOf
from bot.rules.team.model import Side
from bot.services.playoffs import ConferenceBracket, PlayoffsView

FIELD_MAX = 1024
ROUND_NAMES = {0: "Final", 1: "Semifinals", 2: "Quarterfinals"}  # by the rounds still to come after it


def playoffs_embed(view: PlayoffsView, *, headline: str | None = None) -> discord.Embed:
    embed = discord.Embed(title=f"🏆 {view.league.name} playoffs, {view.season.name}", colour=LEAGUE_COLOUR)
    if not view.brackets:
        embed.description = (
            "Not seeded yet. Once every regular-season result is final, a commissioner runs `/playoffs seed`."
        )
        return embed
    embed.description = headline or "Single elimination per conference; the higher seed is HOME (TEAM-PO-1)."
    for bracket in view.brackets:
        embed.add_field(name=bracket.conference, value=bracket_text(bracket)[:FIELD_MAX], inline=False)
    return embed


def bracket_text(bracket: ConferenceBracket) -> str:
    seeds = " · ".join(f"{n} {bracket.teams[team].name}" for n, team in enumerate(bracket.playoff.seeds, start=1))
    lines = [f"Seeds: {seeds}"]
    states = bracket.progress.state.matches
    last_round = max(state.match.round for state in states)
    for round_number in range(1, last_round + 1):
        lines.append(f"**{ROUND_NAMES.get(last_round - round_number, f'Round {round_number}')}**")
        lines += [match_text(bracket, state) for state in states if state.match.round == round_number]
    if bracket.progress.champion is not None:
        lines.append(f"🏆 Champion: **{bracket.teams[bracket.progress.champion].name}**")
    return "\n".join(lines)


def match_text(bracket: ConferenceBracket, state: MatchState) -> str:
    """One bracket match: a bye, a result, a scheduled match, or who will meet once known."""
    head = f"{state.match.id} · "
    top, bottom = _slot(bracket, state.top, state.match.top), _slot(bracket, state.bottom, state.match.bottom)
    if isinstance(state.top, Bye) or isinstance(state.bottom, Bye):
        return f"{head}{bottom if isinstance(state.top, Bye) else top} · bye"
    line = bracket.matches.get(state.match.id)
    if line is None:
        return f"{head}{top} vs {bottom}" + (" · to be scheduled" if state.ready else "")
    home, away = _team(bracket, line.match.home_team_id), _team(bracket, line.match.away_team_id)
    if isinstance(state.winner, int) and line.result is not None:
        won = Side.HOME if bracket.playoff.seeds[state.winner - 1] == line.match.home_team_id else Side.AWAY
        winner, loser = (home, away) if won is Side.HOME else (away, home)
        return f"{head}**{winner}** beat {loser} {line.result.points[won]}–{line.result.points[won.other]}"
    venue = f" at {line.venue.name}" if line.venue else ""
    return f"{head}{home} vs {away} · {line.match.play_on:%a %m-%d}{venue}"


def _team(bracket: ConferenceBracket, team_id: int) -> str:
    return f"({bracket.seed_of(team_id)}) {bracket.teams[team_id].name}"


def _slot(bracket: ConferenceBracket, entrant: Entrant, source: Source) -> str:
    """A bracket line: its seed's team once known, else where it comes from."""
    if isinstance(entrant, int):
        return _team(bracket, bracket.playoff.seeds[entrant - 1])
    return f"winner of {source.match}" if isinstance(source, WinnerOf) else "TBD"
