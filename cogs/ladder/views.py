"""A ladder group's living board: its four buttons; what they do is the same on every group board
(cogs/_group_boards.py). Their custom ids carry the group's id and the game's number."""

from __future__ import annotations

import discord

from cogs._group_boards import BoardKind, GameActionButton

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


LADDER_BOARD = BoardKind(
    "ladder", lambda bot: bot.services.ladder_boards, EnterScores, ConfirmScores, EditScores, UndoScores
)
