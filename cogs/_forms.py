"""The score form every format's board opens: one field per player, labelled with the player's name, and an
optional photo of the machine's display (Discord's file upload) where the form has room for it. A form only
collects what was typed and sent; whoever opens it says what to do with it."""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Protocol

import discord

from bot import errors
from bot.interactions import Reply
from bot.rules.photos import FIELD as PHOTO_LABEL
from bot.rules.photos import Photo, check_photo
from bot.rules.refusals import Refusal
from bot.rules.scores import format_score
from cogs._shared import answer_component

LABEL_LENGTH = 45  # Discord's limit for a label's text
TITLE_LENGTH = 45  # Discord's limit for a modal's title
SCORE_LENGTH = 20  # room for "12,345,678,900" typed with spaces or dots
RETRY_SECONDS = 15 * 60  # as long as Discord lets the refused form's interaction be answered
MODAL_COMPONENTS = 5  # Discord's limit: a form's players take the first four, the photo the fifth
PHOTO_KEY = "photo"

ScoresSubmitted = Callable[[discord.Interaction, dict[str, str], Photo | None], Coroutine[Any, Any, None]]
Store = Callable[[discord.Interaction, dict[str, str], Photo | None], Coroutine[Any, Any, Reply]]


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
    pre-filled with what was `typed` in a refused attempt, or with the stored score when its entrant fixes it.
    Below them, an optional photo of the display (one image), when the seats leave one of the form's five places
    free: a five-player group's form has none, and its scores go without a photo. `kept`: the photo sent with a
    refused attempt, kept unless another is attached (a file upload cannot be pre-filled)."""

    def __init__(
        self,
        title: str,
        seats: Sequence[Seat],
        submitted: ScoresSubmitted,
        typed: dict[str, str],
        kept: Photo | None = None,
    ) -> None:
        super().__init__(title=title[:TITLE_LENGTH])
        self.submitted = submitted
        self.kept = kept
        self.fields: dict[str, discord.ui.TextInput[Any]] = {}
        self.photo: discord.ui.FileUpload[Any] | None = None
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
        if len(self.fields) < MODAL_COMPONENTS:
            self.photo = discord.ui.FileUpload(custom_id=PHOTO_KEY, required=False, min_values=0, max_values=1)
            hint = "Optional: one image (it replaces one sent before)"
            if kept:
                hint = f"Kept: {kept.filename[:60]} (attach another to replace it)"
            self.add_item(discord.ui.Label(text=f"📷 {PHOTO_LABEL}", description=hint, component=self.photo))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        values = {key: score.value for key, score in self.fields.items()}
        await self.submitted(interaction, values, _photo(self.photo) or self.kept)


def _photo(upload: discord.ui.FileUpload[Any] | None) -> Photo | None:
    """The file attached, as the rules see it (Discord's upload takes any file; the service checks it)."""
    if upload is None or not upload.values:
        return None
    file = upload.values[0]
    return Photo(file.url, file.filename, file.content_type or "")


class RetryForm(discord.ui.View):
    """Under a refused form: the same form again, filled with what was typed."""

    def __init__(self, form: ScoreForm) -> None:
        super().__init__(timeout=RETRY_SECONDS)
        self.form = form

    @discord.ui.button(label="Fix and send again", style=discord.ButtonStyle.primary)
    async def again(self, interaction: discord.Interaction, _button: discord.ui.Button[RetryForm]) -> None:
        await interaction.response.send_modal(self.form)


def score_form(
    title: str, seats: Sequence[Seat], store: Store, typed: dict[str, str], kept: Photo | None = None
) -> ScoreForm:
    """The form, and what its submission does: `store` the scores and reply, or refuse privately and offer the
    form again with what was typed (and the photo sent, if it was one), so a typo in one field costs one field."""

    async def submitted(form: discord.Interaction, values: dict[str, str], photo: Photo | None) -> None:
        async def work() -> Reply:
            try:
                return await store(form, values, photo)
            except Refusal as refusal:
                again = score_form(title, seats, store, values, _usable(photo))
                return Reply(errors.describe(refusal), view=RetryForm(again))

        await answer_component(form, work())

    return ScoreForm(title, seats, submitted, typed, kept)


def _usable(photo: Photo | None) -> Photo | None:
    """The photo to keep for the form offered again: not one refused itself."""
    try:
        return check_photo(photo) if photo else None
    except Refusal:
        return None
