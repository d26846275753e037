"""The living scoreboard of a team match, and score echoes. Pure: data in, text/Embed out."""

from __future__ import annotations

from dataclasses import replace

import discord

from bot.render.setup import LEAGUE_COLOUR
from bot.rules.photos import photo_link
from bot.rules.scores import format_score
from bot.rules.team import lineup, scoring
from bot.rules.team.model import MatchOutcome, ScoreStatus, Side
from bot.services.team import match_facts, next_steps
from bot.services.team.match_access import GameRef
from bot.services.team.next_steps import StepKind
from bot.services.team.scoreboard import BoardGame, GameState, Scoreboard

FINAL_COLOUR = discord.Colour.green()
DISPUTED_COLOUR = discord.Colour.orange()
# Discord allows 25 fields and 6,000 characters per embed: the rounds take four, disputes at most four more.
DISPUTES_SHOWN = 3
FIELD_LENGTH = 1024  # Discord's limit on an embed field's value
EMBED_LENGTH = 6000  # and on an embed's text in all
STATE_MARKS = {
    GameState.SCORES_DUE: "",
    GameState.REPLAY_DUE: " 🔁",
    GameState.CONFIRMATION_DUE: " ⏳",
    GameState.DONE: " ✅",
}
IN_PROGRESS_MARK = " ▶️ playing"


def scoreboard_embed(board: Scoreboard) -> discord.Embed:
    """The living board. Games' photos are links beside them, or below the round when they do not fit beside
    it; when even then the embed would pass Discord's 6,000 characters (Discord's signed attachment URLs are a
    few hundred each), the games are only marked 📷 and the echoes keep the links."""
    embed = _embed(board, links=True)
    return embed if len(embed) <= EMBED_LENGTH else _embed(board, links=False)


def _embed(board: Scoreboard, *, links: bool) -> discord.Embed:
    context, result = board.context, board.result
    home, away = context.teams[Side.HOME].name, context.teams[Side.AWAY].name
    points = f"**{away} {result.points[Side.AWAY]} – {result.points[Side.HOME]} {home}**"
    colour = FINAL_COLOUR if result.final else DISPUTED_COLOUR if board.open_challenges else LEAGUE_COLOUR
    lines = [
        f"{context.match.play_on:%a %Y-%m-%d} · {points}",
        _state(board),
        next_steps.next_line(board),
        "" if result.final else _extra_balls_line(board),
    ]
    embed = discord.Embed(
        title=f"Week {context.match.week}: {away} at {home}",
        description="\n".join(line for line in lines if line),
        colour=colour,
    )
    for plan in lineup.round_plan(context.options):
        round_lines = _round_lines(board, plan, links=links)
        if round_lines:
            name, value = f"Round {plan.index} · {plan.kind.value}", "\n".join(round_lines)
            if len(value) <= FIELD_LENGTH or not links:
                embed.add_field(name=name, value=value[:FIELD_LENGTH], inline=False)
                continue
            # The photos' links do not fit beside the games: they go below them, in a field of their own.
            value = "\n".join(_round_lines(board, plan, links=False))
            embed.add_field(name=name, value=value[:FIELD_LENGTH], inline=False)
            for value in _photo_fields(board, plan):
                embed.add_field(name=f"Round {plan.index} · photos", value=value, inline=False)
    if board.excused:
        names = [
            f"{context.teams[side].name}: {', '.join(board.names.get(p, '?') for p in players)}"
            for side, players in board.excused.items()
        ]
        value = "; ".join(names) + ". Present starters with no slot left to play; no penalty."
        embed.add_field(name="Excused (TEAM-AMB-12)", value=value[:1024], inline=False)
    if tiebreaker := board.facts.tiebreaker:
        embed.add_field(name="Tie-breaker", value=_tiebreaker_line(board, tiebreaker), inline=False)
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
    return ""


def _round_lines(board: Scoreboard, plan: lineup.RoundPlan, *, links: bool = True) -> list[str]:
    declared = match_facts.effective_lineups(board.night, plan.index)
    if not declared:
        return []
    if len(declared) < 2:
        # TEAM-LINEUP-2: the second team sees the first team's lineup before it declares.
        machines = {m.machine_id: m.name for m in board.night.machines}
        side, declared_lineup = next(iter(declared.items()))
        shown = [
            f"{n}. {machines.get(g.machine or 0, '—')}: {_players_text(board, g.players, {})}"
            for n, g in enumerate(declared_lineup.games, start=1)
        ]
        return [f"{board.context.teams[side].name} declared; {board.context.teams[side.other].name}'s turn.", *shown]
    games = [game for game in board.games if game.ref.round_index == plan.index]
    return [_game_line(board, game, links=links) for game in games]


def _photo_fields(board: Scoreboard, plan: lineup.RoundPlan) -> list[str]:
    """The round's photos, a line each ("2. [📷 photo](…)"), in as many fields as they need."""
    fields: list[list[str]] = [[]]
    for game in board.games:
        if game.ref.round_index == plan.index and game.photo is not None:
            line = f"{game.ref.game_number}. {photo_link(game.photo)}"
            if fields[-1] and sum(len(kept) + 1 for kept in fields[-1]) + len(line) > FIELD_LENGTH:
                fields.append([])
            fields[-1].append(line[:FIELD_LENGTH])
    return ["\n".join(lines) for lines in fields if lines]


def _game_line(board: Scoreboard, game: BoardGame, *, links: bool = True) -> str:
    """ "2. Godzilla: A1 9,000,000 + A2 6,900,000 vs H1 … → Flipper Kings +2 ✅", with what is still due."""
    standing = {row.player_id: row for row in game.scores}  # oldest first: a replay's row comes last
    scores = {player: row.score for player, row in standing.items()}
    dq = {player for player, row in standing.items() if row.status is ScoreStatus.DQ}  # e.g. TEAM-AMB-20
    sides = [_players_text(board, game.players[side], scores, dq) for side in (Side.AWAY, Side.HOME)]
    line = f"{game.ref.game_number}. {game.machine}: {sides[0]} vs {sides[1]}"
    if any(row.status is ScoreStatus.REPLAY_REPLACES for row in standing.values()):
        line += " (replay)"
    if game.result is not None:
        line += _result_text(board, game.result)
    line += "".join(_penalty_tags(board, game))
    if game.state in (GameState.SCORES_DUE, GameState.REPLAY_DUE) and game.order:
        line += f" · {order_text(board, game.order)}"
    line += IN_PROGRESS_MARK if game.in_progress else STATE_MARKS[game.state]
    if game.photo is not None:
        line += f" · {photo_link(game.photo)}" if links else " · 📷"
    return line


def order_text(board: Scoreboard, order: tuple[tuple[lineup.Seat, ...], ...]) -> str:
    """TEAM-LINEUP-10 (displayed, not enforced): the second declarer plays first, then the teams alternate. On a
    machine for fewer players (TEAM-MACH-9) the game is played as several, one after another."""
    games = [", ".join(board.names.get(seat.player_id, "?") for seat in part) for part in order]
    if len(games) == 1:
        return f"play order {games[0]}"
    return f"played as {len(games)} games: " + "; then ".join(games)


def _extra_balls_line(board: Scoreboard) -> str:
    """TEAM-PEN-3: at most one extra ball per player per game on 3-ball machines, none on 5-ball ones, none when
    both captains opted out before the match started."""
    if not board.night.machines:
        return ""
    opted_out = board.extra_balls_off == frozenset(Side)
    allowed = {
        m.name: scoring.extra_balls_per_player(m.balls_per_game, tiebreaker=False, opted_out=opted_out)
        for m in board.night.machines
        if m.machine_id not in board.night.removed
    }
    if opted_out and not any(allowed.values()):
        return "Extra balls: none this match (both captains opted out)."
    with_one = [name for name, balls in allowed.items() if balls]
    without = [name for name, balls in allowed.items() if not balls]
    parts = [f"1 per player per game on {', '.join(with_one)}"] if with_one else []
    parts += [f"none on {', '.join(without)}"] if without else []
    asked = [board.context.teams[side].name for side in Side if side in board.extra_balls_off]
    waiting = f" {asked[0]} asked to opt out; the other captain may agree (`/match extraballs`)." if asked else ""
    return f"Extra balls: {'; '.join(parts)}.{waiting}" if parts else ""


def _players_text(
    board: Scoreboard, players: tuple[int, ...], scores: dict[int, int], dq: set[int] | None = None
) -> str:
    if not players:
        return "(forfeit)"
    return " + ".join(
        board.names.get(p, "?") + (" DQ" if dq and p in dq else f" {format_score(scores[p])}" if p in scores else "")
        for p in players
    )


def _result_text(board: Scoreboard, result: scoring.GameResult) -> str:
    """The game's winner and points (TEAM-GAME-1/4), or the replay a tie needs (TEAM-AMB-4)."""
    if result.needs_replay:
        return " · tied: replay, same machine, same players"
    if result.winner is None:
        return " · no result: the commissioner is told"
    return f" → {board.context.teams[result.winner].name} +{result.points[result.winner]}"


def _penalty_tags(board: Scoreboard, game: BoardGame) -> list[str]:
    """TEAM-PEN-*: tags for the penalties, shown where they change who wins the game."""
    played = board.facts.rounds[game.ref.round_index - 1][game.ref.game_number - 1]
    if not game.penalties or not played.is_entered or game.result is None:
        return []
    without = scoring.game_result(replace(played, penalties=()), board.context.options)
    if without.winner == game.result.winner and without.needs_replay == game.result.needs_replay:
        return []
    return [f" 🚩 {board.names.get(p.player, '?')}: {p.offence.value.replace('_', ' ')}" for p in game.penalties]


def _tiebreaker_line(board: Scoreboard, scores: scoring.TiebreakerScores) -> str:
    """TEAM-TB-3/4: one score per team (AWAY is Player 1); the higher wins the match and adds no points."""
    teams = board.context.teams
    line = f"{teams[Side.AWAY].name} {format_score(scores.away)} – {format_score(scores.home)} {teams[Side.HOME].name}"
    winner = scoring.tiebreaker_winner(scores)
    return line + (f": {teams[winner].name} win the match (no match points)" if winner else ": level, replay it")


def scores_echo(board: Scoreboard, game: GameRef, *, fixed: bool = False) -> str:
    """COMMON-SCORE-1: the scores exactly as stored, with thousands separators, and who confirms them."""
    played = board.game(game)
    pending = [row for row in played.scores if row.confirmed_at is None]
    parts = ", ".join(f"{board.names.get(r.player_id, '?')} {format_score(r.score)}" for r in pending)
    replay = " replay" if any(r.status is ScoreStatus.REPLAY_REPLACES for r in pending) else ""
    verb = "fixed" if fixed else "entered"
    where = f"Round {game.round_index} game {game.game_number}{replay}"
    confirming = next_steps.step_for(board, StepKind.CONFIRM, game)
    ask = f" {confirming.text[0].upper()}{confirming.text[1:]} with **Confirm**" if confirming else ""
    photo = f" {photo_link(played.photo)}" if played.photo else ""
    return (
        f"📝 {where} {verb}: {parts}.{photo}{ask}, or **Dispute**; until then the captain who entered it can "
        "**Edit** or **Undo** it."
    )
