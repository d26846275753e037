"""A group's living board on a ladder or field night (an embed edited in place) and the replies to its buttons."""

from __future__ import annotations

import discord

from bot.rules.photos import photo_link
from bot.rules.scores import format_score
from bot.services.group_boards import BoardGame, Entered, GameState, GroupBoard

STATE_MARKS = {
    GameState.SCORES_DUE: "⏳ awaits scores",
    GameState.CONFIRMATION_DUE: "🔎 awaits a confirmation",
    GameState.CONFIRMED: "✅ confirmed",
}


def board_embed(board: GroupBoard) -> discord.Embed:
    """Each game: who plays it in which order (LADDER-ORDER-1/2), its scores and where it stands."""
    embed = discord.Embed(title=board.title, description=next_line(board))
    if not board.games:
        embed.description = "The group's games are not chosen yet."
    for game in board.games:
        embed.add_field(name=game.name, value=_game_text(game, suggested=board.any_order), inline=False)
    return embed


def next_line(board: GroupBoard) -> str:
    """ "Next: …": the game to play next (or, in any order, those left) and the games awaiting a confirmation."""
    due = []
    if waiting_scores := board.awaiting_scores:
        if board.any_order:
            names = ", ".join(g.name for g in waiting_scores)
            due.append(f"play {names} in any order, each followed by **Enter scores**")
        else:
            playing = waiting_scores[0]
            order = f" ({', '.join(playing.order)})" if playing.order else ""
            due.append(f"play {playing.name}{order}, then **Enter scores**")
    waiting = [g.name for g in board.games if g.state is GameState.CONFIRMATION_DUE]
    if waiting:
        due.append(f"another player of the group confirms {', '.join(waiting)}")
    if any(game.tie for game in board.games):
        due.append(f"a one-ball playoff for the tie (`{board.playoff_command}`)")
    return f"**Next:** {'; '.join(due)}." if due else "All games confirmed."


def entered_echo(entered: Entered, *, fixed: bool) -> str:
    """COMMON-SCORE-1: the game's scores exactly as stored, with thousands separators, and who confirms them
    (as mentions: the reply pings them only when the game's last score comes in)."""
    board, game = entered.board, entered.board.game(entered.game)
    scores = ", ".join(f"{seat.label} {_score(seat.score)}" for seat in game.seats)
    verb = "fixed" if fixed else "entered"
    who = " or ".join(f"<@{user}>" for user in entered.asked) or "Another player of the group"
    ask = (
        f" {who} confirms with **Confirm**; until then whoever entered them can **Edit** or **Undo** them."
        if game.state is GameState.CONFIRMATION_DUE
        else ""
    )
    photo = f" {photo_link(game.photo)}" if game.photo else ""
    return f"📝 {game.name} {verb}: {scores}.{photo}{ask} {next_line(board)}"


def confirmed_text(who: str, board: GroupBoard, game: int) -> str:
    return f"✅ {who} confirmed {board.game(game).name}. {next_line(board)}"


def undone_text(board: GroupBoard, game: int) -> str:
    return f"↩️ {board.game(game).name}: the scores were taken back; **Enter scores** again. {next_line(board)}"


def _game_text(game: BoardGame, *, suggested: bool = False) -> str:
    """`suggested`: the order is the group's choice, the board's only a suggestion (FIELD-GROUP-3)."""
    label = "Suggested order" if suggested else "Order"
    lines = [f"{label}: {', '.join(game.order)}"] if game.order else []
    lines.append(" · ".join(f"{seat.label} {_score(seat.score)}" for seat in game.seats) or "—")
    lines.append(STATE_MARKS[game.state] + (f" · {photo_link(game.photo)}" if game.photo else ""))
    return "\n".join(lines)


def _score(score: int | None) -> str:
    return "—" if score is None else format_score(score)
