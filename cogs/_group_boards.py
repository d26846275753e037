"""The ladder's and the field's group boards: Enter scores per game awaiting them and Confirm per game awaiting
a confirmation on the living board (a menu of the games instead of a row of buttons when more need it than a row
holds); under a game's echo, Confirm, Edit and Undo. A format names its `BoardKind`: its four buttons and its
board service; the handlers (with the score form of cogs/_forms.py) and posting or editing the board are the
same for both.

Persistent: a button's custom id is its action ("ladder-enter", "field-confirm"…), the board's ids and the
game's; `ACTIONS` maps each action to its handler (filled by `BoardKind.register`, from the format's cog)."""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self

import discord

from bot import errors
from bot.client import LeagueBot
from bot.interactions import Reply
from bot.render.group_boards import board_embed, confirmed_text, entered_echo, undone_text
from bot.rules.photos import Photo
from bot.services.actor import Actor
from bot.services.group_boards import Entered, GameState, GroupBoard, ScoreSheet
from cogs._buttons import BUTTONS_PER_ROW, MAX_OPTIONS, IdButton
from cogs._forms import score_form
from cogs._shared import actor_from, answer_component, bot_of

GameAction = Callable[[discord.Interaction, tuple[int, ...]], Coroutine[Any, Any, None]]
ACTIONS: dict[str, GameAction] = {}  # filled by `BoardKind.register`


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


class BoardService(Protocol):
    """What a format's group board service answers; `ids` are the board's, `game` the game's."""

    async def board(self, ids: tuple[int, ...]) -> GroupBoard: ...

    async def score_sheet(self, actor: Actor, ids: tuple[int, ...], game: int, *, correcting: bool) -> ScoreSheet: ...

    async def enter(
        self,
        actor: Actor,
        ids: tuple[int, ...],
        game: int,
        typed: dict[str, str],
        *,
        correcting: bool,
        photo: Photo | None = None,
    ) -> Entered: ...

    async def confirm(self, actor: Actor, ids: tuple[int, ...], game: int) -> GroupBoard: ...

    async def undo(self, actor: Actor, ids: tuple[int, ...], game: int) -> GroupBoard: ...

    async def board_posted(self, ids: tuple[int, ...], channel_id: int, message_id: int) -> None: ...


@dataclass(frozen=True)
class BoardKind:
    name: str  # "ladder": the publisher's key and the actions' prefix
    service: Callable[[LeagueBot], BoardService]
    enter: type[GameActionButton]
    confirm: type[GameActionButton]
    edit: type[GameActionButton]
    undo: type[GameActionButton]

    @property
    def buttons(self) -> tuple[type[GameActionButton], ...]:
        return (self.enter, self.confirm, self.edit, self.undo)

    def register(self, bot: LeagueBot) -> None:
        """The buttons answer after a restart: registered with the bot, their actions with their handlers."""
        ACTIONS.update(
            {
                self.enter.action: lambda i, ids: self._open_form(i, ids, correcting=False),
                self.edit.action: lambda i, ids: self._open_form(i, ids, correcting=True),
                self.confirm.action: self._confirm,
                self.undo.action: self._undo,
            }
        )
        bot.add_dynamic_items(*self.buttons, GamePicker)

    def view(self, board: GroupBoard) -> discord.ui.View:
        """Enter scores for the games awaiting them ("Enter Game 2 · Black Knight"), then Confirm for those
        awaiting it."""
        enter = [(g.game, f"Enter {g.name}") for g in board.games if g.state is GameState.SCORES_DUE]
        confirm = [(g.game, f"Confirm {g.name}") for g in board.games if g.state is GameState.CONFIRMATION_DUE]
        return board_view(board.ids, [(self.enter, enter), (self.confirm, confirm)])

    def publish(
        self,
        bot: LeagueBot,
        channel: object,
        ids: tuple[int, ...],
        board: GroupBoard | None = None,
        *,
        build: Callable[[], Coroutine[Any, Any, GroupBoard]] | None = None,
    ) -> None:
        """Hand the group's board to the publisher, which edits it (or posts it here, the first time) once the
        command has replied; given no board, the publisher builds it when it sends it (with `build` if given,
        else by reading it)."""
        key = f"{self.name} board {':'.join(str(n) for n in ids)}"
        read = build or (lambda: self.service(bot).board(ids))

        async def send() -> None:
            built = board or await read()
            where = bot.scoreboards.posted_at(key) or built.where
            posted = await send_living_board(bot, channel, where, board_embed(built), self.view(built))
            if posted is not None:
                bot.scoreboards.posted(key, *posted)
                await self.service(bot).board_posted(ids, *posted)

        bot.scoreboards.submit(key, send)

    async def _open_form(self, interaction: discord.Interaction, ids: tuple[int, ...], *, correcting: bool) -> None:
        """The form must be the first answer to the press: the read that builds it is the only work before it."""
        *board_ids, game = ids
        service = self.service(bot_of(interaction))
        try:
            sheet = await service.score_sheet(actor_from(interaction), tuple(board_ids), game, correcting=correcting)
        except Exception as error:
            await errors.report(interaction, error)
            return

        async def store(form: discord.Interaction, values: dict[str, str], photo: Photo | None) -> Reply:
            actor = actor_from(form)
            entered = await service.enter(actor, tuple(board_ids), game, values, correcting=correcting, photo=photo)
            self.publish(bot_of(form), form.channel, tuple(board_ids), entered.board)
            view = game_view(ids, self.confirm, self.edit, self.undo)
            mentions = entered.asked if entered.ping else ()
            return Reply(entered_echo(entered, fixed=correcting), ephemeral=False, view=view, mentions=mentions)

        await interaction.response.send_modal(score_form(sheet.title, sheet.seats, store, {}))

    async def _confirm(self, interaction: discord.Interaction, ids: tuple[int, ...]) -> None:
        *board_ids, game = ids

        async def work() -> Reply:
            bot = bot_of(interaction)
            board = await self.service(bot).confirm(actor_from(interaction), tuple(board_ids), game)
            self.publish(bot, interaction.channel, tuple(board_ids), board)
            return Reply(confirmed_text(interaction.user.display_name, board, game), ephemeral=False)

        await answer_component(interaction, work())

    async def _undo(self, interaction: discord.Interaction, ids: tuple[int, ...]) -> None:
        *board_ids, game = ids

        async def work() -> Reply:
            bot = bot_of(interaction)
            board = await self.service(bot).undo(actor_from(interaction), tuple(board_ids), game)
            self.publish(bot, interaction.channel, tuple(board_ids), board)
            return Reply(undone_text(board, game), ephemeral=False)

        await answer_component(interaction, work())
