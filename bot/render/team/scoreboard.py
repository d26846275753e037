"""The living scoreboard of a team match, and score echoes. Pure: data in, text/Embed out."""

from __future__ import annotations

import discord

from bot.render.setup import LEAGUE_COLOUR
from bot.rules.scores import format_score
from bot.rules.team import lineup
from bot.rules.team.model import MatchOutcome, Side
from bot.services.team import match_facts
from bot.services.team.scoreboard import Scoreboard
from storage.matches import GameScore

FINAL_COLOUR = discord.Colour.green()
DISPUTED_COLOUR = discord.Colour.orange()
# Discord allows 25 fields and 6,000 characters per embed: the rounds take four, disputes at most four more.
DISPUTES_SHOWN = 3


def scoreboard_embed(board: Scoreboard) -> discord.Embed:
    context, result = board.context, board.result
    home, away = context.teams[Side.HOME].name, context.teams[Side.AWAY].name
    points = f"**{away} {result.points[Side.AWAY]} – {result.points[Side.HOME]} {home}**"
    colour = FINAL_COLOUR if result.final else DISPUTED_COLOUR if board.open_challenges else LEAGUE_COLOUR
    embed = discord.Embed(
        title=f"Week {context.match.week}: {away} at {home}",
        description=f"{context.match.play_on:%a %Y-%m-%d} · {points}\n{_state(board)}",
        colour=colour,
    )
    for plan in lineup.round_plan(context.options):
        lines = _round_lines(board, plan)
        if lines:
            embed.add_field(name=f"Round {plan.index} · {plan.kind.value}", value="\n".join(lines), inline=False)
    shown = board.open_challenges[:DISPUTES_SHOWN]
    for challenge in shown:
        photo = f"\n[Photo of the scoresheet]({challenge.photo_url})" if challenge.photo_url else ""
        embed.add_field(name=f"⚠️ Dispute #{challenge.id}", value=challenge.reason[:300] + photo, inline=False)
    if hidden := board.open_challenges[DISPUTES_SHOWN:]:
        numbers = ", ".join(f"#{c.id}" for c in hidden[:40])
        embed.add_field(name=f"⚠️ {len(hidden)} more open disputes", value=numbers, inline=False)
    return embed


def _state(board: Scoreboard) -> str:
    result = board.result
    if result.final and result.outcome:
        winner = next(side for side, outcome in result.outcome.items() if outcome is MatchOutcome.WIN)
        return f"✅ Final: {board.context.teams[winner].name} win."
    if board.open_challenges:
        return "⚠️ Disputed: waiting for the commissioner's ruling."
    unconfirmed = sorted({(s.round_index, s.game_number) for s in board.scores if s.confirmed_at is None})
    waiting = [f"confirm round {r} game {g}" for r, g in unconfirmed] + list(result.missing)
    return "Still to do: " + "; ".join(waiting[:6]) + ("…" if len(waiting) > 6 else "") if waiting else "In progress."


def _round_lines(board: Scoreboard, plan: lineup.RoundPlan) -> list[str]:
    declared = match_facts.effective_lineups(board.night, plan.index)
    if not declared:
        return []
    machines = {m.machine_id: m.name for m in board.night.machines}
    if len(declared) < 2:
        # TEAM-LINEUP-2: the second team sees the first team's lineup before it declares.
        side, declared_lineup = next(iter(declared.items()))
        shown = [
            f"{n}. {machines.get(g.machine or 0, '—')}: {_side_text(board, side, g.players, plan.index, n)}"
            for n, g in enumerate(declared_lineup.games, start=1)
        ]
        waiting = board.context.teams[side.other].name
        return [f"{board.context.teams[side].name} declared; {waiting} declares next.", *shown]
    lines = []
    for number, first_entry in enumerate(declared[plan.first_declarer].games, start=1):
        machine = machines.get(first_entry.machine or 0, "—")
        sides = [
            _side_text(board, side, declared[side].games[number - 1].players, plan.index, number)
            for side in (Side.AWAY, Side.HOME)
        ]
        tick = " ✅" if _confirmed(board.scores, plan.index, number) else ""
        lines.append(f"{number}. {machine}: {sides[0]} vs {sides[1]}{tick}")
    return lines


def _side_text(board: Scoreboard, side: Side, players: tuple[int, ...], round_index: int, game: int) -> str:
    if not players:
        return "(forfeit)"
    scores = {
        s.player_id: s.score
        for s in board.scores
        if (s.round_index, s.game_number, s.side) == (round_index, game, side)
    }
    return " + ".join(
        f"{board.names.get(p, '?')}" + (f" {format_score(scores[p])}" if p in scores else "") for p in players
    )


def _confirmed(scores: list[GameScore], round_index: int, game: int) -> bool:
    rows = [s for s in scores if (s.round_index, s.game_number) == (round_index, game)]
    return bool(rows) and all(s.confirmed_at is not None for s in rows)


def scores_echo(names: dict[int, str], rows: list[GameScore]) -> str:
    """COMMON-SCORE-1: echo what was entered, with thousands separators, for the submitter to check."""
    parts = [f"{names.get(r.player_id, '?')} {format_score(r.score)}" for r in rows]
    first = rows[0]
    return (
        f"📝 Round {first.round_index} game {first.game_number}: "
        + ", ".join(parts)
        + ". The opposing captain confirms below."
    )
