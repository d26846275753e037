"""The team match's forms. A form only collects the text; whoever opens it says what to do with it."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import discord

from bot.rules.scores import format_score
from bot.services.team.match_night import ScoreSheet

LABEL_LENGTH = 45  # Discord's limit for a label's text
SCORE_LENGTH = 20  # room for "12,345,678,900" typed with spaces or dots

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


ScoresSubmitted = Callable[[discord.Interaction, dict[str, str]], Coroutine[Any, Any, None]]


class ScoreForm(discord.ui.Modal):
    """A game's scores: one field per player, labelled with side, position and name ("Home 1 · Alice") as a
    Label wrapping a text input; pre-filled with what was `typed` in a refused attempt, or with the stored scores
    when their captain fixes them."""

    def __init__(
        self, sheet: ScoreSheet, submitted: ScoresSubmitted, *, correcting: bool, typed: dict[str, str]
    ) -> None:
        game = sheet.game
        what = "fix" if correcting else "replay (tied)" if sheet.replay else "scores"
        super().__init__(title=f"Round {game.round_index} game {game.game_number} {what}")
        self.submitted = submitted
        self.fields: dict[str, discord.ui.TextInput[Any]] = {}
        for seat in sheet.seats:
            stored = format_score(seat.score) if seat.score is not None else None
            score: discord.ui.TextInput[Any] = discord.ui.TextInput(
                custom_id=seat.key,
                placeholder="e.g. 12,345,670",
                default=typed.get(seat.key) or stored,
                max_length=SCORE_LENGTH,
            )
            self.add_item(discord.ui.Label(text=seat.label[:LABEL_LENGTH], component=score))
            self.fields[seat.key] = score

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await self.submitted(interaction, {key: score.value for key, score in self.fields.items()})
