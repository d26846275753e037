"""The score form every format's board opens: one field per player, labelled with the player's name. A form
only collects the text; whoever opens it says what to do with it."""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Protocol

import discord

from bot import errors
from bot.interactions import Reply
from bot.rules.refusals import Refusal
from bot.rules.scores import format_score
from cogs._shared import answer_component

LABEL_LENGTH = 45  # Discord's limit for a label's text
TITLE_LENGTH = 45  # Discord's limit for a modal's title
SCORE_LENGTH = 20  # room for "12,345,678,900" typed with spaces or dots
RETRY_SECONDS = 15 * 60  # as long as Discord lets the refused form's interaction be answered

ScoresSubmitted = Callable[[discord.Interaction, dict[str, str]], Coroutine[Any, Any, None]]
Store = Callable[[discord.Interaction, dict[str, str]], Coroutine[Any, Any, Reply]]


class Seat(Protocol):
    """One player's field: its key in the submitted values, its label, and the stored score (when fixing)."""

    @property
    def key(self) -> str: ...

    @property
    def label(self) -> str: ...

    @property
    def score(self) -> int | None: ...


class ScoreForm(discord.ui.Modal):
    """A game's scores: one field per seat, its label (e.g. "Home 1 · Alice") as a Label wrapping a text input;
    pre-filled with what was `typed` in a refused attempt, or with the stored score when its entrant fixes it."""

    def __init__(self, title: str, seats: Sequence[Seat], submitted: ScoresSubmitted, typed: dict[str, str]) -> None:
        super().__init__(title=title[:TITLE_LENGTH])
        self.submitted = submitted
        self.fields: dict[str, discord.ui.TextInput[Any]] = {}
        for seat in seats:
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


class RetryForm(discord.ui.View):
    """Under a refused form: the same form again, filled with what was typed."""

    def __init__(self, form: ScoreForm) -> None:
        super().__init__(timeout=RETRY_SECONDS)
        self.form = form

    @discord.ui.button(label="Fix and send again", style=discord.ButtonStyle.primary)
    async def again(self, interaction: discord.Interaction, _button: discord.ui.Button[RetryForm]) -> None:
        await interaction.response.send_modal(self.form)


def score_form(title: str, seats: Sequence[Seat], store: Store, typed: dict[str, str]) -> ScoreForm:
    """The form, and what its submission does: `store` the scores and reply, or refuse privately and offer the
    form again with what was typed, so a typo in one field costs one field."""

    async def submitted(form: discord.Interaction, values: dict[str, str]) -> None:
        async def work() -> Reply:
            try:
                return await store(form, values)
            except Refusal as refusal:
                return Reply(errors.describe(refusal), view=RetryForm(score_form(title, seats, store, values)))

        await answer_component(form, work())

    return ScoreForm(title, seats, submitted, typed)
