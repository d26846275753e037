"""The team match's buttons and menus: on the living board, the actions due now per game (Enter scores, Confirm,
Dispute, Edit) and Sign; under a game's echo, Confirm, Dispute, Edit and Undo; Accept under a proposed agreement.
Persistent: their custom ids carry the ids they act on, so they still answer after a restart (registered by the
match cog's `cog_load`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, ClassVar, Self

import discord

from bot import errors
from bot.client import LeagueBot
from bot.interactions import Reply
from bot.render.admin import precedent_lines
from bot.render.team.scoreboard import scoreboard_embed, scores_echo
from bot.render.team.scouting import scout_embed
from bot.rules.photos import Photo
from bot.rules.team.model import Side
from bot.services.team import next_steps
from bot.services.team.disputes import Opened
from bot.services.team.match_access import GameRef
from bot.services.team.match_facts import MatchContext
from bot.services.team.next_steps import StepKind
from bot.services.team.scoreboard import BoardGame, GameState, Scoreboard
from cogs._buttons import BUTTONS_PER_ROW, MAX_OPTIONS, IdButton
from cogs._forms import score_form
from cogs._shared import actor_from, answer_component, bot_of
from cogs.team.modals import DisputeForm, score_title

SEATS_PER_SIDE = (1, 2)  # Doubles: two players a side; Singles: one (TEAM-LINEUP-8)


class GameButton(IdButton, template=r"(?!)", label="", style=discord.ButtonStyle.secondary):
    """A button acting on one game: its `action` names the handler, shared with the board's menu of games."""

    action: ClassVar[str]

    def __init_subclass__(cls, *, action: str, label: str, style: discord.ButtonStyle) -> None:
        super().__init_subclass__(template=f"score:{action}:{{m}}:{{r}}:{{g}}", label=label, style=style)
        cls.action = action

    async def callback(self, interaction: discord.Interaction) -> None:
        await GAME_ACTIONS[self.action](interaction, GameRef(*self.ids))


class EnterScores(GameButton, action="enter", label="Enter scores", style=discord.ButtonStyle.primary):
    pass


class ConfirmGame(GameButton, action="confirm", label="Confirm", style=discord.ButtonStyle.success):
    pass


class DisputeGame(GameButton, action="dispute", label="Dispute", style=discord.ButtonStyle.danger):
    pass


class EditScores(GameButton, action="edit", label="Edit", style=discord.ButtonStyle.secondary):
    pass


class UndoScores(GameButton, action="undo", label="Undo", style=discord.ButtonStyle.secondary):
    pass


class GamePicker(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"board:(?P<action>enter|confirm|dispute|edit):(?P<m>\d+)"
):
    """The board's menu of games for one action, when more games need it than a row of buttons holds."""

    def __init__(self, action: str, match_id: int, games: Sequence[tuple[GameRef, str]] = ()) -> None:
        options = [
            discord.SelectOption(label=label[:100], value=f"{g.round_index}:{g.game_number}") for g, label in games
        ]
        menu: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"board:{action}:{match_id}",
            placeholder=f"{GAME_BUTTONS[action].label}: pick the game",
            # Rebuilt from its custom id to answer a pick, it needs no options: Discord sent the one picked.
            options=options[:MAX_OPTIONS] or [discord.SelectOption(label="—", value="0:0")],
        )
        super().__init__(menu)
        self.action, self.match_id = action, match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(match["action"], int(match["m"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        round_index, game_number = (int(n) for n in self.item.values[0].split(":"))
        await GAME_ACTIONS[self.action](interaction, GameRef(self.match_id, round_index, game_number))


async def _open_score_form(interaction: discord.Interaction, game: GameRef, *, correcting: bool) -> None:
    """Enter scores (or their replay, TEAM-AMB-4) or Edit them: a form with one field per player. The form
    must be the first answer to the press, so the read that builds it is the only work before it."""
    try:
        sheet = await bot_of(interaction).services.match_night.score_sheet(
            actor_from(interaction), game, correcting=correcting
        )
    except Exception as error:
        await errors.report(interaction, error)
        return
    game = sheet.game

    async def store(form: discord.Interaction, values: dict[str, str], photo: Photo | None) -> Reply:
        by_side = {side: [values.get(f"{side.value}{n}", "") for n in SEATS_PER_SIDE] for side in Side}
        bot, actor = bot_of(form), actor_from(form)
        service = bot.services.match_night
        if correcting:
            board = await service.correct_scores(actor, game, by_side, photo)
        else:
            board = await service.enter_scores(actor, None, game, by_side, photo)
        await publish_scoreboard(bot, form, board)
        confirming = next_steps.step_for(board, StepKind.CONFIRM, game)
        # Pinged once, when the scores are entered; a fix tells the same person without a second ping.
        mentions = confirming.users if confirming and not correcting else ()
        echo = scores_echo(board, game, fixed=correcting)
        return Reply(echo, ephemeral=False, view=ScoreView(game), mentions=mentions)

    title = score_title(sheet, correcting=correcting)
    await interaction.response.send_modal(score_form(title, sheet.seats, store, {}))


async def _enter(interaction: discord.Interaction, game: GameRef) -> None:
    await _open_score_form(interaction, game, correcting=False)


async def _edit(interaction: discord.Interaction, game: GameRef) -> None:
    await _open_score_form(interaction, game, correcting=True)


async def _undo(interaction: discord.Interaction, game: GameRef) -> None:
    async def work() -> Reply:
        bot = bot_of(interaction)
        board = await bot.services.match_night.undo_scores(actor_from(interaction), game)
        await publish_scoreboard(bot, interaction, board)
        where = f"Round {game.round_index} game {game.game_number}"
        return Reply(f"↩️ {where}: the scores entered are taken back. {next_steps.next_line(board)}", ephemeral=False)

    await answer_component(interaction, work())


async def _confirm(interaction: discord.Interaction, game: GameRef) -> None:
    async def work() -> Reply:
        bot = bot_of(interaction)
        board = await bot.services.match_night.confirm_game(actor_from(interaction), game)
        await publish_scoreboard(bot, interaction, board)
        who = interaction.user.display_name
        text = f"✅ Round {game.round_index} game {game.game_number} confirmed by {who}. {next_steps.next_line(board)}"
        return Reply(
            text,
            ephemeral=False,
            mentions=next_steps.pings(board, StepKind.TIEBREAK, StepKind.SIGN, actor=interaction.user.id),
        )

    await answer_component(interaction, work())


async def _dispute(interaction: discord.Interaction, game: GameRef) -> None:
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


GameAction = Callable[[discord.Interaction, GameRef], Coroutine[Any, Any, None]]
GAME_ACTIONS: dict[str, GameAction] = {
    "enter": _enter,
    "confirm": _confirm,
    "dispute": _dispute,
    "edit": _edit,
    "undo": _undo,
}
GAME_BUTTONS: dict[str, type[GameButton]] = {
    button.action: button for button in (EnterScores, ConfirmGame, DisputeGame, EditScores, UndoScores)
}


class AcceptAgreement(IdButton, template="match:agree:{a}", label="Accept", style=discord.ButtonStyle.success):
    async def callback(self, interaction: discord.Interaction) -> None:
        (agreement_id,) = self.ids

        async def work() -> Reply:
            accepted = await bot_of(interaction).services.disputes.accept_agreement(
                actor_from(interaction), agreement_id
            )
            return Reply(f"🤝 Agreed by both captains, for this match: {accepted.terms}", ephemeral=False)

        await answer_component(interaction, work())


class SignMatch(IdButton, template="match:sign:{m}", label="Sign scoresheet", style=discord.ButtonStyle.primary):
    async def callback(self, interaction: discord.Interaction) -> None:
        (match_id,) = self.ids

        async def work() -> Reply:
            bot = bot_of(interaction)
            board = await bot.services.match_night.sign(actor_from(interaction), match_id)
            await publish_scoreboard(bot, interaction, board)
            return Reply(
                f"🖊️ {interaction.user.display_name} signed the scoresheet. {next_steps.next_line(board)}",
                ephemeral=False,
            )

        await answer_component(interaction, work())


class ScoutMatch(IdButton, template="match:scout:{m}", label="Scout", style=discord.ButtonStyle.secondary):
    """`/match scout` from the board: the other team's most-picked machines, for the member alone."""

    async def callback(self, interaction: discord.Interaction) -> None:
        (match_id,) = self.ids

        async def work() -> Reply:
            report = await bot_of(interaction).services.scouting.scout(actor_from(interaction), None, match_id)
            return Reply(embeds=[scout_embed(report)])

        await answer_component(interaction, work())


PERSISTENT_BUTTONS = (*GAME_BUTTONS.values(), GamePicker, SignMatch, ScoutMatch, AcceptAgreement)


class ScoreView(discord.ui.View):
    """Under a game's echo: the other side confirms or disputes; the side that entered it fixes or undoes it."""

    def __init__(self, game: GameRef) -> None:
        super().__init__(timeout=None)
        for button in (ConfirmGame, DisputeGame, EditScores, UndoScores):
            self.add_item(button(*game))


def board_view(board: Scoreboard) -> discord.ui.View:
    """The actions due now under the living scoreboard, one row per action: a button per game naming its
    players, or a menu of the games when more than a row holds; Sign on the last row (TEAM-MATCH-4)."""
    view = discord.ui.View(timeout=None)
    match_id = board.context.match.id or 0
    due = {
        "enter": [g for g in board.games if g.state in (GameState.SCORES_DUE, GameState.REPLAY_DUE)],
        "confirm": [g for g in board.games if g.state is GameState.CONFIRMATION_DUE],
    }
    due |= {"dispute": due["confirm"], "edit": due["confirm"]}
    rows = [(action, games) for action, games in due.items() if games and not board.result.final]
    for row, (action, games) in enumerate(rows):
        labelled = [(game.ref, _label(board, action, game)) for game in games]
        if len(games) > BUTTONS_PER_ROW:
            view.add_item(GamePicker(action, match_id, labelled))
            continue
        for ref, label in labelled:
            view.add_item(GAME_BUTTONS[action](*ref, label=label, row=row))
    view.add_item(SignMatch(match_id, disabled=board.result.final, row=len(rows)))  # says why when too early
    if not board.result.final:
        view.add_item(ScoutMatch(match_id, row=len(rows)))
    return view


def _label(board: Scoreboard, action: str, game: BoardGame) -> str:
    """ "Enter R1 G2 · A1/A2 v H1/H2": the game and who plays it, for a thumb to find."""
    where = f"R{game.ref.round_index} G{game.ref.game_number}"
    if action != "enter":
        return f"{GAME_BUTTONS[action].label} {where}"
    verb = "Replay" if game.state is GameState.REPLAY_DUE else "Enter"
    sides = [" / ".join(board.names.get(p, "?") for p in game.players[side]) or "—" for side in (Side.AWAY, Side.HOME)]
    return f"{verb} {where} · {sides[0]} v {sides[1]}"


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
    embed, view = scoreboard_embed(board), board_view(board)
    match_night = bot.services.match_night
    # A board built before this process posted the match's first one does not know that message yet.
    where = bot.scoreboards.posted_at(match_id) or (match.scoreboard_channel_id, match.scoreboard_message_id)
    unposted = not (where[0] and where[1])
    if unposted and isinstance(channel, discord.abc.Messageable):
        channel_id = getattr(channel, "id", 0)
        if not await match_night.claim_scoreboard(match_id, channel_id):  # another process is posting it
            where = await match_night.scoreboard_posted_elsewhere(match_id) or (None, None)
    channel_id, message_id = where
    if channel_id and message_id:
        try:
            await bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(embed=embed, view=view)
            return
        except discord.NotFound:
            pass  # deleted by someone: post a fresh one
    if not isinstance(channel, discord.abc.Messageable):
        return
    try:
        message = await channel.send(embed=embed, view=view)
    except discord.HTTPException:
        await match_night.release_scoreboard(match_id)
        raise
    bot.scoreboards.posted(match_id, message.channel.id, message.id)
    await match_night.scoreboard_posted(match_id, message.channel.id, message.id)
