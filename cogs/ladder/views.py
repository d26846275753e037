"""A ladder group's living board: Enter scores per game awaiting them, Confirm per game awaiting a confirmation;
under a game's echo, Confirm, Edit and Undo. Persistent (their custom ids carry the group's and the game's
numbers), registered by the ladder cog's `cog_load`."""

from __future__ import annotations

import discord

from bot import errors
from bot.client import LeagueBot
from bot.interactions import Reply
from bot.render.ladder.board import board_embed, confirmed_text, entered_echo, undone_text
from bot.services.ladder.board import GameState, GroupBoard
from cogs._group_boards import (
    ACTIONS,
    GameActionButton,
    board_view,
    game_view,
    score_form,
    send_living_board,
)
from cogs._shared import actor_from, answer_component, bot_of

IDS = "{group}:{game}"


class EnterScores(
    GameActionButton, action="ladder-enter", ids=IDS, label="Enter scores", style=discord.ButtonStyle.primary
):
    pass


class ConfirmScores(
    GameActionButton, action="ladder-confirm", ids=IDS, label="Confirm", style=discord.ButtonStyle.success
):
    pass


class EditScores(GameActionButton, action="ladder-edit", ids=IDS, label="Edit", style=discord.ButtonStyle.secondary):
    pass


class UndoScores(GameActionButton, action="ladder-undo", ids=IDS, label="Undo", style=discord.ButtonStyle.secondary):
    pass


PERSISTENT_BUTTONS = (EnterScores, ConfirmScores, EditScores, UndoScores)


async def _open_form(interaction: discord.Interaction, ids: tuple[int, ...], *, correcting: bool) -> None:
    """The form must be the first answer to the press: the read that builds it is the only work before it."""
    group_id, game = ids
    try:
        sheet = await bot_of(interaction).services.ladder_boards.score_sheet(
            actor_from(interaction), group_id, game, correcting=correcting
        )
    except Exception as error:
        await errors.report(interaction, error)
        return

    async def store(form: discord.Interaction, values: dict[str, str]) -> Reply:
        bot = bot_of(form)
        entered = await bot.services.ladder_boards.enter(
            actor_from(form), group_id, game, values, correcting=correcting
        )
        publish_group_board(bot, form.channel, group_id, entered.board)
        view = game_view(ids, ConfirmScores, EditScores, UndoScores)
        mentions = entered.asked if entered.ping else ()
        return Reply(entered_echo(entered, fixed=correcting), ephemeral=False, view=view, mentions=mentions)

    await interaction.response.send_modal(score_form(sheet.title, sheet.seats, store, {}))


async def _enter(interaction: discord.Interaction, ids: tuple[int, ...]) -> None:
    await _open_form(interaction, ids, correcting=False)


async def _edit(interaction: discord.Interaction, ids: tuple[int, ...]) -> None:
    await _open_form(interaction, ids, correcting=True)


async def _confirm(interaction: discord.Interaction, ids: tuple[int, ...]) -> None:
    group_id, game = ids

    async def work() -> Reply:
        bot = bot_of(interaction)
        board = await bot.services.ladder_boards.confirm(actor_from(interaction), group_id, game)
        publish_group_board(bot, interaction.channel, group_id, board)
        return Reply(confirmed_text(interaction.user.display_name, board, game), ephemeral=False)

    await answer_component(interaction, work())


async def _undo(interaction: discord.Interaction, ids: tuple[int, ...]) -> None:
    group_id, game = ids

    async def work() -> Reply:
        bot = bot_of(interaction)
        board = await bot.services.ladder_boards.undo(actor_from(interaction), group_id, game)
        publish_group_board(bot, interaction.channel, group_id, board)
        return Reply(undone_text(board, game), ephemeral=False)

    await answer_component(interaction, work())


ACTIONS.update({"ladder-enter": _enter, "ladder-edit": _edit, "ladder-confirm": _confirm, "ladder-undo": _undo})


def group_board_view(board: GroupBoard) -> discord.ui.View:
    """Enter scores for the games awaiting them ("Enter 2 · Black Knight"), then Confirm for those awaiting it."""
    enter = [(g.number, f"Enter {g.number} · {g.machine}") for g in board.games if g.state is GameState.SCORES_DUE]
    confirm = [(g.number, f"Confirm {g.number}") for g in board.games if g.state is GameState.CONFIRMATION_DUE]
    return board_view((board.group_id,), [(EnterScores, enter), (ConfirmScores, confirm)])


def publish_group_board(bot: LeagueBot, channel: object, group_id: int, board: GroupBoard | None = None) -> None:
    """Hand the group's board to the publisher, which edits it (or posts it here, the first time) once the
    command has replied; given no board, the publisher reads it when it sends it."""
    key = f"ladder group {group_id}"

    async def send() -> None:
        built = board or await bot.services.ladder_boards.board(group_id)
        where = bot.scoreboards.posted_at(key) or built.where
        posted = await send_living_board(bot, channel, where, board_embed(built), group_board_view(built))
        if posted is not None:
            bot.scoreboards.posted(key, *posted)
            await bot.services.ladder_boards.board_posted(group_id, *posted)

    bot.scoreboards.submit(key, send)
