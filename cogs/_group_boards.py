"""What the ladder's and the field's group boards share: persistent game buttons and the menu of games that
replaces a row of them when more games need an action than a row holds, the score form that comes back with
what was typed when refused, and posting or editing a living board.

A format's views name their actions ("ladder-enter", "field-confirm"…) in `ACTIONS`; a button's custom id
carries the board's ids and then the game's, which its action receives."""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, ClassVar, Self

import discord

from bot import errors
from bot.interactions import Reply
from bot.rules.refusals import Refusal
from cogs._buttons import BUTTONS_PER_ROW, MAX_OPTIONS, IdButton
from cogs._forms import RetryForm, ScoreForm, Seat
from cogs._shared import answer_component

GameAction = Callable[[discord.Interaction, tuple[int, ...]], Coroutine[Any, Any, None]]
ACTIONS: dict[str, GameAction] = {}  # filled by each format's views module
Store = Callable[[discord.Interaction, dict[str, str]], Coroutine[Any, Any, Reply]]


class GameActionButton(IdButton, template=r"(?!)", label="", style=discord.ButtonStyle.secondary):
    """A button for one action on one game of a group board; its custom id is the action and the ids."""

    action: ClassVar[str]

    def __init_subclass__(cls, *, action: str, ids: str, label: str, style: discord.ButtonStyle) -> None:
        super().__init_subclass__(template=f"{action}:{ids}", label=label, style=style)
        cls.action = action

    async def callback(self, interaction: discord.Interaction) -> None:
        await ACTIONS[self.action](interaction, self.ids)


class GamePicker(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"pick:(?P<action>[a-z-]+):(?P<ids>\d+(?::\d+)*)"
):
    """The board's menu of games for one action; the game picked completes the board's ids."""

    def __init__(self, action: str, board_ids: Sequence[int], games: Sequence[tuple[int, str]] = ()) -> None:
        options = [discord.SelectOption(label=label[:100], value=str(game)) for game, label in games]
        menu: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"pick:{action}:{':'.join(str(n) for n in board_ids)}",
            placeholder="Pick the game",
            # Rebuilt from its custom id to answer a pick, it needs no options: Discord sent the one picked.
            options=options[:MAX_OPTIONS] or [discord.SelectOption(label="—", value="0")],
        )
        super().__init__(menu)
        self.action, self.board_ids = action, tuple(board_ids)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(match["action"], [int(n) for n in match["ids"].split(":")])

    async def callback(self, interaction: discord.Interaction) -> None:
        await ACTIONS[self.action](interaction, (*self.board_ids, int(self.item.values[0])))


Row = tuple[type[GameActionButton], Sequence[tuple[int, str]]]  # an action, and its games with their labels


def board_view(board_ids: Sequence[int], rows: Sequence[Row]) -> discord.ui.View:
    """One row per action due: a button per game, or the menu of the games when more than a row holds."""
    view = discord.ui.View(timeout=None)
    for row, (button, games) in enumerate(r for r in rows if r[1]):
        if len(games) > BUTTONS_PER_ROW:
            view.add_item(GamePicker(button.action, board_ids, games))
            continue
        for game, label in games:
            view.add_item(button(*board_ids, game, label=label, row=row))
    return view


def game_view(ids: Sequence[int], *buttons: type[GameActionButton]) -> discord.ui.View:
    """Under a game's echo: its actions (Confirm, Edit, Undo)."""
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button(*ids))
    return view


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


async def send_living_board(
    client: discord.Client,
    channel: object,
    where: tuple[int | None, int | None],
    embed: discord.Embed,
    view: discord.ui.View,
) -> tuple[int, int] | None:
    """Edit the board where it is, or post it in `channel` (also when it was deleted); where it was posted, if
    it is new."""
    channel_id, message_id = where
    if channel_id and message_id:
        try:
            await (
                client.get_partial_messageable(channel_id).get_partial_message(message_id).edit(embed=embed, view=view)
            )
            return None
        except discord.NotFound:
            pass  # deleted by someone: post a fresh one
    if not isinstance(channel, discord.abc.Messageable):
        return None
    message = await channel.send(embed=embed, view=view)
    return message.channel.id, message.id
