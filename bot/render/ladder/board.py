"""A ladder group's living board (an embed edited in place) and the replies to its buttons."""

from __future__ import annotations

import discord

from bot.rules.scores import format_score
from bot.services.ladder.board import BoardGame, Entered, GameState, GroupBoard

STATE_MARKS = {GameState.SCORES_DUE: "⏳ awaits scores", GameState.CONFIRMATION_DUE: "🔎 awaits a confirmation"}


def board_embed(board: GroupBoard) -> discord.Embed:
    """Each game in play order: its machine, who plays it in which order (LADDER-ORDER-1/2) and its scores."""
    embed = discord.Embed(title=f"Week {board.week} · group {board.number}", description=next_line(board))
    if not board.games:
        embed.description = "The group's games are not set yet: pick them with `/ladder games pick`."
    for game in board.games:
        embed.add_field(name=f"Game {game.number} · {game.machine}", value=_game_text(game), inline=False)
    return embed


def next_line(board: GroupBoard) -> str:
    """ "Next: …": the next game to play and the games awaiting a confirmation; empty once all are confirmed."""
    due = []
    if (playing := board.next_game) is not None:
        order = f" ({', '.join(playing.order)})" if playing.order else ""
        due.append(f"play game {playing.number} on {playing.machine}{order}, then **Enter scores**")
    waiting = [g.number for g in board.games if g.state is GameState.CONFIRMATION_DUE]
    if waiting:
        games = ", ".join(str(n) for n in waiting)
        due.append(f"another player of the group confirms game{'s' if len(waiting) > 1 else ''} {games}")
    if any(game.tie for game in board.games):
        due.append("a one-ball playoff for the tied game (`/ladder tiebreak`)")
    return f"**Next:** {'; '.join(due)}." if due else "All games confirmed."


def entered_echo(entered: Entered, *, fixed: bool) -> str:
    """COMMON-SCORE-1: the game's scores exactly as stored, with thousands separators, and who confirms them
    (as mentions: the reply pings them only when the game's last score comes in)."""
    board, number = entered.board, entered.game
    game = board.game(number)
    scores = ", ".join(f"{seat.label} {_score(seat.score)}" for seat in game.seats)
    verb = "fixed" if fixed else "entered"
    who = " or ".join(f"<@{user}>" for user in entered.asked) or "Another player of the group"
    ask = (
        f" {who} confirms with **Confirm**; until then whoever entered them can **Edit** or **Undo** them."
        if game.state is GameState.CONFIRMATION_DUE
        else ""
    )
    return f"📝 Game {number} ({game.machine}) {verb}: {scores}.{ask} {next_line(board)}"


def confirmed_text(who: str, board: GroupBoard, number: int) -> str:
    return f"✅ {who} confirmed game {number}. {next_line(board)}"


def undone_text(board: GroupBoard, number: int) -> str:
    return f"↩️ Game {number}'s scores were taken back: **Enter scores** again. {next_line(board)}"


def _game_text(game: BoardGame) -> str:
    lines = [f"Order: {', '.join(game.order)}"] if game.order else []
    lines.append(" · ".join(f"{seat.label} {_score(seat.score)}" for seat in game.seats))
    lines.append("✅ confirmed" if game.state is GameState.CONFIRMED else STATE_MARKS[game.state])
    return "\n".join(lines)


def _score(score: int | None) -> str:
    return "—" if score is None else format_score(score)
