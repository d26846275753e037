"""Playoff brackets as text, one embed field per conference. Pure: data in, Embed out."""

from __future__ import annotations

import discord

from bot.render.setup import LEAGUE_COLOUR
from bot.rules.brackets import Bye, Entrant, MatchState, Source, WinnerOf
from bot.rules.team.model import Side
from bot.rules.team.playoffs import VenueRanking
from bot.services.team.playoffs import ConferenceBracket, NextRoundView, PlayoffsView, WaitingMatch
from storage.matches import MatchState as ScheduleState

FIELD_MAX = 1024
ROUND_NAMES = {0: "Final", 1: "Semifinals", 2: "Quarterfinals"}  # by the rounds still to come after it
STATE_TAGS = {ScheduleState.SCHEDULED: "", ScheduleState.RESCHEDULED: " · rescheduled", ScheduleState.MOVED: " · moved"}
CRITERIA = (  # TEAM-PO-4, in priority order: what failing each means
    "a team's home",
    "played there in these playoffs",
    "home-venue models",
    "models played in earlier rounds",
)
CRITERIA_NOTE = (
    "Ranked by TEAM-PO-4: c1 neither team's home · c2 neither played there in these playoffs · c3 no model from "
    "either home this season · c4 no model either played in earlier rounds. Excluded (TEAM-PO-5): models found at "
    "only one team's home."
)


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
    return f"{head}{home} vs {away} · {line.match.play_on:%a %m-%d}{venue}{STATE_TAGS[line.match.state]}"


def _team(bracket: ConferenceBracket, team_id: int) -> str:
    return f"({bracket.seed_of(team_id)}) {bracket.teams[team_id].name}"


def _slot(bracket: ConferenceBracket, entrant: Entrant, source: Source) -> str:
    """A bracket line: its seed's team once known, else where it comes from."""
    if isinstance(entrant, int):
        return _team(bracket, bracket.playoff.seeds[entrant - 1])
    return f"winner of {source.match}" if isinstance(source, WinnerOf) else "TBD"


def next_round_embed(view: NextRoundView) -> discord.Embed:
    """TEAM-PO-4: the ranked neutral venues for each waiting match, or the match just scheduled at one."""
    created, chosen = view.created, view.chosen
    if created is None or chosen is None:
        embed = discord.Embed(title="🏆 Next playoff matches: choose a neutral venue", colour=LEAGUE_COLOUR)
        embed.description = f"{CRITERIA_NOTE}\nSchedule one with `/playoffs next venue:`" + (
            " and `fixture:`." if len(view.waiting) > 1 else "."
        )
        for waiting in view.waiting:
            name = f"{waiting.label} · from {waiting.earliest:%a %m-%d}"
            embed.add_field(name=name[:256], value=_clip(ranking_lines(waiting)), inline=False)
        return embed
    waiting, match = view.waiting[0], created.match
    venue = created.venue.name if created.venue else "?"
    embed = discord.Embed(title="🏆 Playoff match scheduled", colour=LEAGUE_COLOUR)
    embed.description = (
        f"{waiting.key}: ({waiting.seeds[0]}) **{waiting.home.name}** (HOME) v ({waiting.seeds[1]}) "
        f"{waiting.away.name}, **{match.play_on:%a %Y-%m-%d}** at **{venue}**, rank {chosen.rank} of "
        f"{len(waiting.ranking)} by TEAM-PO-4 ({criteria_text(chosen)})."
    )
    embed.add_field(
        name=f"Out of play at {venue} (TEAM-PO-5)",
        value=_clip([excluded_text(chosen, none="none: every machine there is in play")]),
        inline=False,
    )
    embed.add_field(name="Ranking", value=_clip(ranking_lines(waiting)), inline=False)
    return embed


def ranking_lines(waiting: WaitingMatch) -> list[str]:
    return [
        f"{r.rank}. **{r.venue.name}** · {criteria_text(r)} · excluded: {excluded_text(r)}" for r in waiting.ranking
    ]


def venue_choice(ranking: VenueRanking) -> str:
    """An autocomplete label: at most 100 characters."""
    return f"{ranking.rank}. {ranking.venue.name} · {criteria_text(ranking)}"[:100]


def criteria_text(ranking: VenueRanking) -> str:
    met = (
        ranking.c1_neither_home,
        ranking.c2_not_played_in_playoffs,
        ranking.c3_no_home_models,
        ranking.c4_no_played_models,
    )
    failed = [f"c{n} ({why})" for n, (ok, why) in enumerate(zip(met, CRITERIA, strict=True), start=1) if not ok]
    return "meets c1–c4" if not failed else "fails " + ", ".join(failed)


def excluded_text(ranking: VenueRanking, *, none: str = "none") -> str:
    excluded = [f"{e.machine.name} (home model of {e.home_team_name})" for e in ranking.excluded]
    return ", ".join(excluded) or none


def _clip(lines: list[str]) -> str:
    """Join lines within an embed field, noting how many were left out."""
    kept = list(lines)
    text = "\n".join(kept)
    while len(text) > FIELD_MAX and kept:
        kept.pop()
        text = "\n".join([*kept, f"… and {len(lines) - len(kept)} more"])
    return text or "none"
