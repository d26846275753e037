"""A field group's living board: its four buttons; what they do is the same on every group board
(cogs/_group_boards.py). Their custom ids carry the night's id, the group's number and the machine's id."""

from __future__ import annotations

import discord

from cogs._group_boards import BoardKind, GameActionButton

IDS = "{night}:{group}:{machine}"


class EnterScores(
    GameActionButton, action="field-enter", ids=IDS, label="Enter scores", style=discord.ButtonStyle.primary
):
    pass


class ConfirmScores(
    GameActionButton, action="field-confirm", ids=IDS, label="Confirm", style=discord.ButtonStyle.success
):
    pass


class EditScores(GameActionButton, action="field-edit", ids=IDS, label="Edit", style=discord.ButtonStyle.secondary):
    pass


class UndoScores(GameActionButton, action="field-undo", ids=IDS, label="Undo", style=discord.ButtonStyle.secondary):
    pass


FIELD_BOARD = BoardKind(
    "field", lambda bot: bot.services.field_boards, EnterScores, ConfirmScores, EditScores, UndoScores
)
