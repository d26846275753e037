"""The team match's forms (its score form is the common one, `cogs/_forms.py`). A form only collects the text;
whoever opens it says what to do with it."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import discord

from bot.services.team.match_night import ScoreSheet

Submitted = Callable[[discord.Interaction, str], Coroutine[Any, Any, None]]


class DisputeForm(discord.ui.Modal, title="Dispute this match"):
    reason: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="What is wrong?",
        custom_id="reason",
        style=discord.TextStyle.paragraph,
        max_length=1000,
        placeholder="e.g. Game 2: the away score was 1,230,000, not 12,300,000 (photo of the sheet to follow)",
    )

    def __init__(self, submitted: Submitted) -> None:
        super().__init__()
        self.submitted = submitted

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await self.submitted(interaction, self.reason.value)


def score_title(sheet: ScoreSheet, *, correcting: bool) -> str:
    game = sheet.game
    what = "fix" if correcting else "replay (tied)" if sheet.replay else "scores"
    return f"Round {game.round_index} game {game.game_number} {what}"
