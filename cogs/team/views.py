"""The team match's buttons: Confirm and Dispute under a game's scores, Sign under the living scoreboard, Accept
under a proposed agreement. Persistent: their custom ids carry the ids they act on, so they still answer after
a restart (registered by the match cog's `cog_load`)."""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self

import discord

from bot.client import LeagueBot
from bot.interactions import Reply
from bot.render.admin import precedent_lines
from bot.render.team.scoreboard import scoreboard_embed
from bot.services.team.disputes import Opened
from bot.services.team.match_access import GameRef
from bot.services.team.match_facts import MatchContext
from bot.services.team.scoreboard import Scoreboard
from cogs._shared import actor_from, answer_component, bot_of
from cogs.team.modals import DisputeForm

_ID_FIELD = re.compile(r"\{(\w+)\}")


class MatchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """A persistent button whose custom id carries numbers. A subclass gives its `template`, the custom id with
    `{name}` for each number (e.g. "match:sign:{match}"), its `label` and `style`; it is built from those numbers,
    in the template's order. The base itself is never registered: its own template matches nothing."""

    id_format: ClassVar[str]
    id_fields: ClassVar[tuple[str, ...]]
    label: ClassVar[str]
    style: ClassVar[discord.ButtonStyle]

    def __init_subclass__(cls, *, template: str, label: str, style: discord.ButtonStyle) -> None:
        # The literal parts are letters and colons: nothing in them needs escaping.
        super().__init_subclass__(template=_ID_FIELD.sub(lambda field: rf"(?P<{field[1]}>\d+)", template))
        cls.id_format, cls.id_fields = template, tuple(_ID_FIELD.findall(template))
        cls.label, cls.style = label, style

    def __init__(self, *ids: int, disabled: bool = False) -> None:
        custom_id = self.id_format.format(**dict(zip(self.id_fields, ids, strict=True)))
        super().__init__(discord.ui.Button(label=self.label, style=self.style, custom_id=custom_id, disabled=disabled))
        self.ids = ids

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(*(int(match[name]) for name in cls.id_fields))


class ConfirmGame(
    MatchButton, template="score:confirm:{m}:{r}:{g}", label="Confirm", style=discord.ButtonStyle.success
):
    async def callback(self, interaction: discord.Interaction) -> None:
        game = GameRef(*self.ids)

        async def work() -> Reply:
            bot = bot_of(interaction)
            match = await bot.services.match_night.confirm_game(actor_from(interaction), game)
            await publish_scoreboard(bot, interaction, match)
            who = interaction.user.display_name
            return Reply(f"✅ Round {game.round_index} game {game.game_number} confirmed by {who}.", ephemeral=False)

        await answer_component(interaction, work())


class DisputeGame(MatchButton, template="score:dispute:{m}:{r}:{g}", label="Dispute", style=discord.ButtonStyle.danger):
    async def callback(self, interaction: discord.Interaction) -> None:
        game = GameRef(*self.ids)

        async def open_dispute(submitted: discord.Interaction, reason: str) -> None:
            async def work() -> Reply:
                bot = bot_of(submitted)
                opened = await bot.services.disputes.open(
                    actor_from(submitted), None, game.match_id, [[game.round_index, game.game_number]], reason
                )
                await publish_scoreboard(bot, submitted, opened.board)
                return Reply(disputed(submitted.user.display_name, opened), ephemeral=False)

            await answer_component(submitted, work())

        await interaction.response.send_modal(DisputeForm(open_dispute))


class AcceptAgreement(MatchButton, template="match:agree:{a}", label="Accept", style=discord.ButtonStyle.success):
    async def callback(self, interaction: discord.Interaction) -> None:
        (agreement_id,) = self.ids

        async def work() -> Reply:
            accepted = await bot_of(interaction).services.disputes.accept_agreement(
                actor_from(interaction), agreement_id
            )
            return Reply(f"🤝 Agreed by both captains, for this match: {accepted.terms}", ephemeral=False)

        await answer_component(interaction, work())


class SignMatch(MatchButton, template="match:sign:{m}", label="Sign scoresheet", style=discord.ButtonStyle.primary):
    async def callback(self, interaction: discord.Interaction) -> None:
        (match_id,) = self.ids

        async def work() -> Reply:
            bot = bot_of(interaction)
            board = await bot.services.match_night.sign(actor_from(interaction), match_id)
            await publish_scoreboard(bot, interaction, board)
            return Reply(f"🖊️ {interaction.user.display_name} signed the scoresheet.", ephemeral=False)

        await answer_component(interaction, work())


PERSISTENT_BUTTONS = (ConfirmGame, DisputeGame, SignMatch, AcceptAgreement)


class SignView(discord.ui.View):
    def __init__(self, match_id: int, *, done: bool) -> None:
        super().__init__(timeout=None)
        self.add_item(SignMatch(match_id, disabled=done))


class ScoreView(discord.ui.View):
    def __init__(self, game: GameRef) -> None:
        super().__init__(timeout=None)
        self.add_item(ConfirmGame(*game))
        self.add_item(DisputeGame(*game))


def agreement_view(agreement_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AcceptAgreement(agreement_id))
    return view


def disputed(who: str, opened: Opened) -> str:
    """TEAM-DISP-1's reply, with similar earlier rulings (COMMON-RULING-1) for the commissioner and captains."""
    text = (
        f"⚠️ {who} disputed this match (dispute #{opened.challenge.id}); a commissioner will rule. File the full "
        "report, with a photo of the scoresheet if you can, within 24 hours (`/match dispute`)."
    )
    precedents = precedent_lines(opened.precedents)
    return f"{text}\n{precedents}" if precedents else text


async def publish_scoreboard(
    bot: LeagueBot, interaction: discord.Interaction, board: Scoreboard | MatchContext
) -> None:
    """Hand the match's board to the publisher, which edits the living scoreboard (or posts it where play
    began: one message per match) once the command has replied; see bot/scoreboard_publisher.py. Given the
    match rather than a board, the publisher builds the board when it sends it: one build for any number of
    changes made meanwhile, none of it on the command's path."""
    channel = interaction.channel
    if isinstance(board, Scoreboard):
        built = board
        bot.scoreboards.submit(built.context.match.id or 0, lambda: _send_scoreboard(bot, channel, built))
        return
    context = board

    async def build_and_send() -> None:
        await _send_scoreboard(bot, channel, await bot.services.match_night.current_board(context))

    bot.scoreboards.submit(context.match.id or 0, build_and_send)


async def _send_scoreboard(bot: LeagueBot, channel: object, board: Scoreboard) -> None:
    match = board.context.match
    match_id = match.id or 0
    embed, view = scoreboard_embed(board), SignView(match_id, done=board.result.final)
    # A board built before this process posted the match's first one does not know that message yet.
    channel_id, message_id = bot.scoreboards.posted_at(match_id) or (
        match.scoreboard_channel_id,
        match.scoreboard_message_id,
    )
    if channel_id and message_id:
        try:
            await bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(embed=embed, view=view)
            return
        except discord.NotFound:
            pass  # deleted by someone: post a fresh one
    if not isinstance(channel, discord.abc.Messageable):
        return
    message = await channel.send(embed=embed, view=view)
    bot.scoreboards.posted(match_id, message.channel.id, message.id)
    await bot.services.match_night.scoreboard_posted(match_id, message.channel.id, message.id)
