"""Match night for team leagues: /checkin, /lineup, /score, /tiebreak, /match. Their buttons are in views.py.

Every change refreshes the match's one living scoreboard message in the channel where play began, after the
command has replied (bot/scoreboard_publisher.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors
from bot.client import LeagueBot
from bot.interactions import Reply
from bot.render.team.scoreboard import order_text, scoreboard_embed, scores_echo
from bot.render.team.scouting import scout_embed
from bot.rules.disputes import DISPUTE_KINDS
from bot.rules.scores import format_score
from bot.rules.team.model import Side
from bot.services.actor import Actor
from bot.services.team import next_steps
from bot.services.team.match_access import GameRef
from bot.services.team.match_facts import MatchContext
from bot.services.team.next_steps import StepKind
from bot.services.team.scoreboard import Scoreboard
from cogs._shared import LEAGUE_OPTION, MAX_CHOICES, LeagueOption, actor_from, bot_of, replies
from cogs.team.views import PERSISTENT_BUTTONS, ScoreView, agreement_view, disputed, publish_scoreboard

MATCH_OPTION = "The match (type to search)"
OFFENCE_CHOICES = [
    app_commands.Choice(name="played out of turn", value="out_of_turn"),
    app_commands.Choice(name="death save / bang-back", value="death_save"),
    app_commands.Choice(name="extra-ball violation", value="extra_ball_violation"),
    app_commands.Choice(name="physical assist by a teammate", value="physical_assist"),
    app_commands.Choice(name="slam tilt", value="slam_tilt"),
    app_commands.Choice(name="tilt-through", value="tilt_through"),
]
MACHINE_OUT_CHOICES = [
    app_commands.Choice(name="annoying failure: remove it (TEAM-MACH-3)", value="removed"),
    app_commands.Choice(name="major failure: eliminate it (TEAM-MACH-4)", value="eliminated"),
]
TIEBREAK_FORMATS = [
    app_commands.Choice(name="shared game (3 players, one ball each)", value="shared_game"),
    app_commands.Choice(name="split flipper (2 players, one flipper each)", value="split_flipper"),
]
FAILURE_CHOICES = [
    app_commands.Choice(name="play on as if nothing happened", value="continue"),
    app_commands.Choice(name="replay solo right after the game (the replay counts)", value="replay_solo"),
]
SIDE_CHOICES = [app_commands.Choice(name="home", value="home"), app_commands.Choice(name="away", value="away")]
DISPUTE_KIND_CHOICES = [app_commands.Choice(name=kind, value=kind) for kind in DISPUTE_KINDS]
PICK_CHOICES = [
    app_commands.Choice(name="A: the scores as entered", value="A"),
    app_commands.Choice(name="B: the other reading", value="B"),
]
WALKOUT_CHOICES = [
    app_commands.Choice(name="left", value="left"),
    app_commands.Choice(name="refused to go on", value="refused"),
]


async def match_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    league = getattr(interaction.namespace, "league", None)
    choices = await bot_of(interaction).services.match_night.match_choices(interaction.guild_id or 0, league)
    return _filtered(choices, current)


async def player_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Present, eligible players of the captain's team, starters who still must play first (TEAM-LINEUP-9)."""
    choices = await _in_the_match(interaction, bot_of(interaction).services.match_night.player_choices)
    return _player_choices(choices, current)


async def missing_player_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The captain's rostered players who are not here: the ones a short team may write in (TEAM-SHORT-4)."""
    choices = await _in_the_match(interaction, bot_of(interaction).services.match_night.missing_choices)
    return _player_choices(choices, current)


async def machine_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    choices = await _in_the_match(interaction, bot_of(interaction).services.match_night.machine_choices)
    return _filtered(choices, current)


async def present_player_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The acting captain's players who are here: for replacement games and the tie-breaker."""
    choices = await _in_the_match(interaction, bot_of(interaction).services.match_night.present_choices)
    return _player_choices(choices, current)


async def _in_the_match(
    interaction: discord.Interaction, choices: Callable[[Actor, str | None, int], Awaitable[list[tuple[int, str]]]]
) -> list[tuple[int, str]]:
    """Choices for the member in the match already picked in the `match:` option; none before one is picked."""
    match_id = getattr(interaction.namespace, "match", None)
    if not isinstance(match_id, int):
        return []
    try:
        return await choices(actor_from(interaction), getattr(interaction.namespace, "league", None), match_id)
    except errors.Refusal:
        return []  # autocomplete cannot explain; the submission will


def _player_choices(choices: list[tuple[int, str]], current: str) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=name, value=str(player_id)) for player_id, name in _filtered_pairs(choices, current)
    ]


async def venue_machine_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    league = getattr(interaction.namespace, "league", None)
    return _filtered(
        await bot_of(interaction).services.venues.machine_choices(interaction.guild_id or 0, league), current
    )


def _filtered_pairs(choices: list[tuple[int, str]], current: str) -> list[tuple[int, str]]:
    typed = current.casefold().strip()
    return [(value, label) for value, label in choices if typed in label.casefold()][:MAX_CHOICES]


def _filtered(choices: list[tuple[int, str]], current: str) -> list[app_commands.Choice[int]]:
    return [app_commands.Choice(name=label[:100], value=value) for value, label in _filtered_pairs(choices, current)]


@app_commands.guild_only()
class MatchNightCommands(commands.Cog):
    def __init__(self, bot: LeagueBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*PERSISTENT_BUTTONS)

    async def _after(self, interaction: discord.Interaction, board: Scoreboard | MatchContext) -> None:
        await publish_scoreboard(self.bot, interaction, board)

    @app_commands.command(name="checkin", description="Check in for tonight's match (captains can check in teammates)")
    @app_commands.describe(
        match=MATCH_OPTION, member="A teammate to check in (captains); leave empty for yourself",
        leaving="Check out instead: the player leaves the match now", league=LEAGUE_OPTION,
    )  # fmt: skip
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=True)
    async def checkin(
        self,
        interaction: discord.Interaction,
        match: int,
        member: discord.Member | None = None,
        leaving: bool = False,
        league: LeagueOption = None,
    ) -> Reply:
        who = member.display_name if member else interaction.user.display_name
        if leaving:
            context, unfinished = await self.bot.services.match_night.check_out(
                actor_from(interaction), league, match, member.id if member else None
            )
            await self._after(interaction, context)
            games = ", ".join(f"round {g.round_index} game {g.game_number}" for g in unfinished)
            dq = (
                f" Written into {games}, not finished: that slot is DQ (TEAM-AMB-20); enter any score for them, "
                "it is stored as DQ."
                if unfinished
                else ""
            )
            return Reply(f"🔴 {who} is checked out (TEAM-SCHED-2).{dq}")
        context = await self.bot.services.match_night.check_in(
            actor_from(interaction), league, match, member.id if member else None
        )
        await self._after(interaction, context)
        return Reply(f"🟢 {who} is checked in.")

    @app_commands.command(name="lineup", description="Declare your team's lineup for its next round (captains)")
    @app_commands.describe(
        match=MATCH_OPTION,
        p1="Doubles: game 1, first player · Singles: game 1",
        p2="Doubles: game 1, second player · Singles: game 2",
        p3="Doubles: game 2, first player · Singles: game 3",
        p4="Doubles: game 2, second player · Singles: game 4",
        m1="Machine for game 1 (the team declaring first picks)",
        m2="Machine for game 2",
        m3="Machine for game 3 (Singles)",
        m4="Machine for game 4 (Singles)",
        write_in="Short team, round 1, one machine: a missing player for game 2, who plays if here when it starts",
        league=LEAGUE_OPTION,
    )
    @app_commands.autocomplete(
        match=match_autocomplete,
        m1=machine_autocomplete,
        m2=machine_autocomplete,
        m3=machine_autocomplete,
        m4=machine_autocomplete,
    )
    @app_commands.autocomplete(
        p1=player_autocomplete,
        p2=player_autocomplete,
        p3=player_autocomplete,
        p4=player_autocomplete,
        write_in=missing_player_autocomplete,
    )
    @replies(ephemeral=False)  # public: it pings the captain who declares next
    async def lineup(
        self, interaction: discord.Interaction, match: int,
        p1: str | None = None, p2: str | None = None, p3: str | None = None, p4: str | None = None,
        m1: int | None = None, m2: int | None = None, m3: int | None = None, m4: int | None = None,
        write_in: str | None = None, league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        board, round_index, side = await self.bot.services.match_night.declare(
            actor_from(interaction), league, match, [p1, p2, p3, p4], [m1, m2, m3, m4], write_in
        )
        await self._after(interaction, board)
        declared = f"📋 {board.context.teams[side].name} declared round {round_index}. It is locked now."
        if write_in:
            declared += f" {_written_in(board, side)} is written into game 2 and plays it if here when it starts."
        return _guided(interaction, declared, board, StepKind.DECLARE)

    @app_commands.command(name="score", description="Enter one game's scores, in lineup order (captains)")
    @app_commands.describe(
        match=MATCH_OPTION,
        round="Round 1–4",
        game="Game number in the round",
        home1="Home team's first player's score, e.g. 12,345,670",
        away1="Away team's first player's score",
        home2="Home team's second player's score (Doubles)",
        away2="Away team's second player's score (Doubles)",
        league=LEAGUE_OPTION,
    )
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=False)
    async def score(
        self, interaction: discord.Interaction, match: int,
        round: app_commands.Range[int, 1, 4], game: app_commands.Range[int, 1, 4],
        home1: str | None = None, away1: str | None = None, home2: str | None = None, away2: str | None = None,
        league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        game_ref = GameRef(match, round, game)
        board = await self.bot.services.match_night.enter_scores(
            actor_from(interaction), league, game_ref,
            {Side.HOME: [home1 or "", home2 or ""], Side.AWAY: [away1 or "", away2 or ""]},
        )  # fmt: skip
        await self._after(interaction, board)
        confirming = next_steps.step_for(board, StepKind.CONFIRM, game_ref)
        return Reply(
            scores_echo(board, game_ref), ephemeral=False, view=ScoreView(game_ref),
            mentions=confirming.users if confirming else (),
        )  # fmt: skip

    tiebreak_group = app_commands.Group(
        name="tiebreak", description="The tie-breaker game of a level match", guild_only=True
    )

    @tiebreak_group.command(name="defer", description="HOME hands the first tie-breaker decision to AWAY (captains)")
    @app_commands.describe(match=MATCH_OPTION, league=LEAGUE_OPTION)
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=False)
    async def tiebreak_defer(self, interaction: discord.Interaction, match: int, league: LeagueOption = None) -> Reply:
        board = await self.bot.services.tiebreaks.defer(actor_from(interaction), league, match)
        await self._after(interaction, board)
        deferred = "↪️ The first tie-breaker decision goes to the away team."
        return _guided(interaction, deferred, board, StepKind.TIEBREAK)

    @tiebreak_group.command(name="choose", description="Make one tie-breaker decision: the format or the machine")
    @app_commands.describe(
        match=MATCH_OPTION, format="Shared game (3 players, a ball each) or split flipper (2 players)",
        machine="The machine", league=LEAGUE_OPTION,
    )  # fmt: skip
    @app_commands.choices(format=TIEBREAK_FORMATS)
    @app_commands.autocomplete(match=match_autocomplete, machine=venue_machine_autocomplete)
    @replies(ephemeral=False)
    async def tiebreak_choose(
        self, interaction: discord.Interaction, match: int, format: app_commands.Choice[str] | None = None,
        machine: int | None = None, league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        board = await self.bot.services.tiebreaks.choose(
            actor_from(interaction), league, match, game_format=format.value if format else None, machine=machine
        )
        await self._after(interaction, board)
        return _guided(interaction, "🎲 Tie-breaker decision recorded.", board, StepKind.TIEBREAK)

    @tiebreak_group.command(name="declare", description="Name your tie-breaker players, in ball order (captains)")
    @app_commands.describe(
        match=MATCH_OPTION, p1="Ball 1 (or left flipper)", p2="Ball 2 (or right flipper)", p3="Ball 3 (shared game)",
        league=LEAGUE_OPTION,
    )  # fmt: skip
    @app_commands.autocomplete(match=match_autocomplete)
    @app_commands.autocomplete(
        p1=present_player_autocomplete, p2=present_player_autocomplete, p3=present_player_autocomplete
    )
    @replies(ephemeral=False)
    async def tiebreak_declare(
        self, interaction: discord.Interaction, match: int, p1: str, p2: str, p3: str | None = None,
        league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        board = await self.bot.services.tiebreaks.declare(actor_from(interaction), league, match, [p1, p2, p3 or ""])
        await self._after(interaction, board)
        return _guided(interaction, "📋 Tie-breaker players declared.", board, StepKind.TIEBREAK)

    @tiebreak_group.command(name="score", description="Enter the tie-breaker's score: one per team (captains)")
    @app_commands.describe(match=MATCH_OPTION, home="Home team's score", away="Away team's score", league=LEAGUE_OPTION)
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=False)
    async def tiebreak_score(
        self, interaction: discord.Interaction, match: int, home: str, away: str, league: LeagueOption = None
    ) -> Reply:
        board = await self.bot.services.tiebreaks.score(actor_from(interaction), league, match, home, away)
        await self._after(interaction, board)
        recorded = "🎯 Tie-breaker recorded: it decides the winner and adds no match points."
        return _guided(interaction, recorded, board, StepKind.SIGN)

    match_group = app_commands.Group(name="match", description="A team match", guild_only=True)

    @match_group.command(name="show", description="Show a match's scoreboard")
    @app_commands.describe(match=MATCH_OPTION, league=LEAGUE_OPTION)
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=True)
    async def show(self, interaction: discord.Interaction, match: int, league: LeagueOption = None) -> Reply:
        board = await self.bot.services.match_night.board(actor_from(interaction), league, match)
        return Reply(embeds=[scoreboard_embed(board)])

    @match_group.command(name="scout", description="The other team's most-picked machines and both teams' records")
    @app_commands.describe(match="The match (type to search; default: your team's next match)", league=LEAGUE_OPTION)
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=True)
    async def scout(
        self, interaction: discord.Interaction, match: int | None = None, league: LeagueOption = None
    ) -> Reply:
        report = await self.bot.services.scouting.scout(actor_from(interaction), league, match)
        return Reply(embeds=[scout_embed(report)])

    @match_group.command(
        name="dispute", description="Challenge games of a match, with a photo of the scoresheet (captains)"
    )
    @app_commands.describe(
        match=MATCH_OPTION, reason="What is wrong, in full", round="The disputed game's round", game="Its number",
        kind="What the dispute is about", rule="The rule in question, e.g. TEAM-PEN-4",
        photo="A photo of the scoresheet", league=LEAGUE_OPTION,
    )  # fmt: skip
    @app_commands.choices(kind=DISPUTE_KIND_CHOICES)
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=False)
    async def dispute(
        self, interaction: discord.Interaction, match: int, reason: app_commands.Range[str, 1, 1000],
        round: app_commands.Range[int, 1, 4] | None = None, game: app_commands.Range[int, 1, 4] | None = None,
        kind: app_commands.Choice[str] | None = None, rule: str | None = None,
        photo: discord.Attachment | None = None, league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        opened = await self.bot.services.disputes.open(
            actor_from(interaction), league, match, [[round, game]] if round and game else [], reason,
            kind=kind.value if kind else "score", rule_id=rule, photo_url=photo.url if photo else None,
        )  # fmt: skip
        await self._after(interaction, opened.board)
        return Reply(disputed(interaction.user.display_name, opened), ephemeral=False)

    @match_group.command(
        name="both-ways", description="Record a disputed game's other result, played both ways (captains)"
    )
    @app_commands.describe(
        match=MATCH_OPTION, round="Round 1–4", game="Game number in the round",
        home1="Home team's first player's score under this reading", away1="Away team's first player's score",
        home2="Home team's second player's score (Doubles)", away2="Away team's second player's score (Doubles)",
        league=LEAGUE_OPTION,
    )  # fmt: skip
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=False)
    async def both_ways(
        self, interaction: discord.Interaction, match: int,
        round: app_commands.Range[int, 1, 4], game: app_commands.Range[int, 1, 4],
        home1: str | None = None, away1: str | None = None, home2: str | None = None, away2: str | None = None,
        league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        board = await self.bot.services.disputes.play_both_ways(
            actor_from(interaction), league, GameRef(match, round, game),
            typed={Side.HOME: [home1 or "", home2 or ""], Side.AWAY: [away1 or "", away2 or ""]},
        )  # fmt: skip
        await self._after(interaction, board)
        return Reply(
            f"⚖️ Round {round} game {game} played both ways: A is the scores as entered, B these. "
            "The commissioner's ruling picks one (TEAM-DISP-3).",
            ephemeral=False,
        )

    @match_group.command(
        name="agreement", description="Write down how both captains agreed to handle a situation (captains)"
    )
    @app_commands.describe(
        match=MATCH_OPTION, terms="What you agreed; the other captain accepts it", league=LEAGUE_OPTION
    )
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=False)
    async def agreement(
        self, interaction: discord.Interaction, match: int, terms: app_commands.Range[str, 1, 1000],
        league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        proposed = await self.bot.services.disputes.propose_agreement(actor_from(interaction), league, match, terms)
        return Reply(
            f"🤝 {interaction.user.display_name} proposes, for this match only: {proposed.terms}\n"
            "The other captain presses **Accept** (TEAM-DISP-2).",
            ephemeral=False,
            view=agreement_view(proposed.id or 0),
        )

    @match_group.command(name="ruling", description="Rule on a disputed match (commissioners)")
    @app_commands.describe(
        match=MATCH_OPTION, ruling="Your ruling, as it should be recorded", rule="The rule it applies (optional)",
        pick="For a game played both ways: which result stands", league=LEAGUE_OPTION,
    )  # fmt: skip
    @app_commands.choices(pick=PICK_CHOICES)
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=False)
    async def ruling(
        self,
        interaction: discord.Interaction,
        match: int,
        ruling: app_commands.Range[str, 1, 1000],
        rule: str | None = None,
        pick: app_commands.Choice[str] | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        board = await self.bot.services.disputes.rule(
            actor_from(interaction), league, match, ruling, rule_id=rule, pick=pick.value if pick else None
        )
        await self._after(interaction, board)
        return Reply(f"⚖️ Ruling recorded: {ruling}", ephemeral=False)

    @match_group.command(name="penalty", description="Record an in-game penalty against a player (captains, officials)")
    @app_commands.describe(
        match=MATCH_OPTION, round="Round 1–4", game="Game number in the round", offence="What happened",
        member="The offender (for a physical assist: the player who was helped)", league=LEAGUE_OPTION,
    )  # fmt: skip
    @app_commands.choices(offence=OFFENCE_CHOICES)
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=False)
    async def penalty(
        self, interaction: discord.Interaction, match: int,
        round: app_commands.Range[int, 1, 4], game: app_commands.Range[int, 1, 4],
        offence: app_commands.Choice[str], member: discord.Member, league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        board = await self.bot.services.match_rulings.penalty(
            actor_from(interaction), league, GameRef(match, round, game),
            offence=offence.value, member_id=member.id,
        )  # fmt: skip
        await self._after(interaction, board)
        return Reply(
            f"🚩 {offence.name} recorded for {member.display_name} in round {round} game {game}.", ephemeral=False
        )

    @match_group.command(name="replace", description="Replay a game whose machine failed: new machine, new players")
    @app_commands.describe(
        match=MATCH_OPTION, round="Round 1–4", game="Game number in the round",
        machine="The new machine (the team that picked the failed one)", p1="Your first player for the game",
        p2="Your second player (Doubles)", league=LEAGUE_OPTION,
    )  # fmt: skip
    @app_commands.autocomplete(match=match_autocomplete, machine=machine_autocomplete)
    @app_commands.autocomplete(p1=present_player_autocomplete, p2=present_player_autocomplete)
    @replies(ephemeral=False)
    async def replace(
        self, interaction: discord.Interaction, match: int,
        round: app_commands.Range[int, 1, 4], game: app_commands.Range[int, 1, 4],
        machine: int | None = None, p1: str | None = None, p2: str | None = None, league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        board = await self.bot.services.match_night.replace_game(
            actor_from(interaction), league, GameRef(match, round, game),
            players=[p1, p2], machine=machine,
        )  # fmt: skip
        await self._after(interaction, board)
        return Reply(
            f"🔄 Round {round} game {game} will be replayed; its earlier scores no longer count.", ephemeral=False
        )

    @match_group.command(name="start", description="Start a declared game: at most two play at once (captains)")
    @app_commands.describe(match=MATCH_OPTION, round="Round 1–4", game="Game number in the round", league=LEAGUE_OPTION)
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=False)
    async def start(
        self, interaction: discord.Interaction, match: int,
        round: app_commands.Range[int, 1, 4], game: app_commands.Range[int, 1, 4], league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        game_ref = GameRef(match, round, game)
        board = await self.bot.services.match_night.start_game(actor_from(interaction), league, game_ref)
        await self._after(interaction, board)
        played = board.game(game_ref)
        order = f"; {order_text(board, played.order)}" if played.order else ""
        return Reply(f"▶️ Round {round} game {game} on {played.machine} is under way{order}.", ephemeral=False)

    @match_group.command(
        name="failure", description="A failure that hurt one player of a game in progress: play on or replay solo"
    )
    @app_commands.describe(
        match=MATCH_OPTION, round="Round 1–4", game="Game number in the round", member="The player it hurt",
        choice="The player's choice, made at once", what="What failed (goes to the machine log)",
        league=LEAGUE_OPTION,
    )  # fmt: skip
    @app_commands.choices(choice=FAILURE_CHOICES)
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=False)
    async def failure(
        self, interaction: discord.Interaction, match: int,
        round: app_commands.Range[int, 1, 4], game: app_commands.Range[int, 1, 4], member: discord.Member,
        choice: app_commands.Choice[str], what: app_commands.Range[str, 1, 300], league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        game_ref = GameRef(match, round, game)
        board, _failure, name = await self.bot.services.match_night.player_failure(
            actor_from(interaction), league, game_ref, member_id=member.id, choice=choice.value, what=what
        )
        await self._after(interaction, board)
        if choice.value == "replay_solo":
            return Reply(
                f"🔧 {name} replays round {round} game {game} solo right after it; enter that score with "
                "`/match replay`: it replaces the first one, even if lower (TEAM-MACH-6). Logged.",
                ephemeral=False,
            )
        return Reply(f"🔧 {name} plays on: the score stands (TEAM-MACH-6). Logged.", ephemeral=False)

    @match_group.command(
        name="extraballs", description="Agree to play this match without extra balls, before round 1 (captains)"
    )
    @app_commands.describe(match=MATCH_OPTION, league=LEAGUE_OPTION)
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=False)
    async def extraballs(self, interaction: discord.Interaction, match: int, league: LeagueOption = None) -> Reply:
        board, off = await self.bot.services.match_night.opt_out_of_extra_balls(actor_from(interaction), league, match)
        await self._after(interaction, board)
        if off:
            return Reply("🚫 Both captains agreed: no extra balls in this match (TEAM-PEN-3).", ephemeral=False)
        return Reply(
            "📝 Opt-out of extra balls recorded; it holds once the other captain agrees with `/match extraballs` "
            "before round 1 is declared (TEAM-PEN-3).",
            ephemeral=False,
        )

    @match_group.command(name="replay", description="A replay score that replaces a player's first (captains)")
    @app_commands.describe(
        match=MATCH_OPTION, round="Round 1–4", game="Game number in the round", member="The player who replayed",
        score="The replay score; it counts even if lower", league=LEAGUE_OPTION,
    )  # fmt: skip
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=False)
    async def replay(
        self, interaction: discord.Interaction, match: int,
        round: app_commands.Range[int, 1, 4], game: app_commands.Range[int, 1, 4],
        member: discord.Member, score: str, league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        game_ref = GameRef(match, round, game)
        board = await self.bot.services.match_rulings.replay(
            actor_from(interaction), league, game_ref,
            member_id=member.id, score=score,
        )  # fmt: skip
        await self._after(interaction, board)
        return Reply(
            f"🔁 {member.display_name}'s replay in round {round} game {game} replaces the first score. "
            "The opposing captain confirms it below.",
            ephemeral=False, view=ScoreView(game_ref),
        )  # fmt: skip

    @match_group.command(
        name="walkout", description="Record a team leaving or refusing to finish a disputed match (officials)"
    )
    @app_commands.describe(
        match=MATCH_OPTION, side="Which team", kind="Left, or refused to go on", league=LEAGUE_OPTION
    )
    @app_commands.choices(side=SIDE_CHOICES, kind=WALKOUT_CHOICES)
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=False)
    async def walkout(
        self, interaction: discord.Interaction, match: int, side: app_commands.Choice[str],
        kind: app_commands.Choice[str], league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        board = await self.bot.services.match_rulings.walkout(
            actor_from(interaction), league, match, side=Side(side.value), kind=kind.value
        )
        await self._after(interaction, board)
        return Reply(f"🚪 Recorded: the {side.name} team {kind.value} (TEAM-FORF-4).", ephemeral=False)

    @match_group.command(
        name="forfeit", description="Rule a team at fault for moving or refusing to move venue (officials)"
    )
    @app_commands.describe(
        match=MATCH_OPTION, side="The team at fault (it loses with 0; the other gets 12)", league=LEAGUE_OPTION
    )
    @app_commands.choices(side=SIDE_CHOICES)
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=False)
    async def forfeit(
        self, interaction: discord.Interaction, match: int, side: app_commands.Choice[str], league: LeagueOption = None
    ) -> Reply:
        board = await self.bot.services.match_rulings.venue_forfeit(
            actor_from(interaction), league, match, side=Side(side.value)
        )
        await self._after(interaction, board)
        return Reply(f"🏳️ The {side.name} team forfeits this match (TEAM-VENUE-1/4).", ephemeral=False)

    @match_group.command(name="played-out", description="Your team played the evening out against a forfeiting team")
    @app_commands.describe(match=MATCH_OPTION, league=LEAGUE_OPTION)
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=False)
    async def played_out(self, interaction: discord.Interaction, match: int, league: LeagueOption = None) -> Reply:
        board = await self.bot.services.match_rulings.played_out(actor_from(interaction), league, match)
        await self._after(interaction, board)
        return Reply("🎳 Recorded: the evening was played out with four or more (TEAM-FORF-1).", ephemeral=False)

    @match_group.command(
        name="evening-game", description="A game your team played on a forfeit evening: counts for high scores"
    )
    @app_commands.describe(
        match=MATCH_OPTION, machine="The machine it was played on", p1="First player", s1="First player's score",
        p2="Second player", s2="Second player's score", p3="Third player", s3="Third player's score",
        p4="Fourth player", s4="Fourth player's score", league=LEAGUE_OPTION,
    )  # fmt: skip
    @app_commands.autocomplete(match=match_autocomplete, machine=venue_machine_autocomplete)
    @app_commands.autocomplete(
        p1=present_player_autocomplete, p2=present_player_autocomplete,
        p3=present_player_autocomplete, p4=present_player_autocomplete,
    )  # fmt: skip
    @replies(ephemeral=False)
    async def evening_game(
        self, interaction: discord.Interaction, match: int, machine: int, p1: str, s1: str,
        p2: str | None = None, s2: str | None = None, p3: str | None = None, s3: str | None = None,
        p4: str | None = None, s4: str | None = None, league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        game = await self.bot.services.match_rulings.evening_game(
            actor_from(interaction), league, match, machine_id=machine,
            entries=[(p1, s1), (p2, s2), (p3, s3), (p4, s4)],
        )  # fmt: skip
        scores = ", ".join(f"{name} {format_score(score)}" for name, score in game.scores)
        return Reply(
            f"🎳 Forfeit-evening game {game.number} on {game.machine}: {scores}. These scores count for high "
            "scores, not for the match's points (TEAM-FORF-2).",
            ephemeral=False,
        )

    @match_group.command(name="machine", description="Take a failing machine out of this match (captains)")
    @app_commands.describe(
        match=MATCH_OPTION, machine="The machine", kind="Annoying (minor) failure, or a major one",
        agreed="Both captains agree", reason="What is wrong with it (goes to the machine log)", league=LEAGUE_OPTION,
    )  # fmt: skip
    @app_commands.choices(kind=MACHINE_OUT_CHOICES)
    @app_commands.autocomplete(match=match_autocomplete, machine=venue_machine_autocomplete)
    @replies(ephemeral=False)
    async def machine(
        self, interaction: discord.Interaction, match: int, machine: int, kind: app_commands.Choice[str],
        agreed: bool, reason: app_commands.Range[str, 1, 500], league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        board = await self.bot.services.match_rulings.take_out_machine(
            actor_from(interaction),
            league,
            match,
            machine_id=machine,
            kind=kind.value,
            agreed=agreed,
            reason=reason,
        )
        await self._after(interaction, board)
        return Reply(
            f"🔧 Machine #{machine} is out of this match ({kind.name}); it will not come back.", ephemeral=False
        )

    @match_group.command(
        name="adjustment", description="Report a machine adjusted on match night without consent (captains)"
    )
    @app_commands.describe(
        match=MATCH_OPTION, machine="The machine", what="What was adjusted, when and by whom", league=LEAGUE_OPTION
    )
    @app_commands.autocomplete(match=match_autocomplete, machine=venue_machine_autocomplete)
    @replies(ephemeral=True)
    async def adjustment(
        self, interaction: discord.Interaction, match: int, machine: int, what: app_commands.Range[str, 1, 500],
        league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        await self.bot.services.machine_log.adjustment(
            actor_from(interaction), league, match, machine_id=machine, description=what
        )
        return Reply("📝 Recorded in the machine-issue log (TEAM-MACH-8); the match goes on unchanged.")

    @match_group.command(
        name="extension", description="Record whether both captains agreed to wait until 20:30 (officials)"
    )
    @app_commands.describe(
        match=MATCH_OPTION, agreed="Both captains agreed to the extra 15 minutes", league=LEAGUE_OPTION
    )
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=True)
    async def extension(
        self, interaction: discord.Interaction, match: int, agreed: bool, league: LeagueOption = None
    ) -> Reply:
        board = await self.bot.services.match_rulings.extension(actor_from(interaction), league, match, agreed=agreed)
        await self._after(interaction, board)
        return Reply("⏱️ Extension " + ("agreed: the window closes at 20:30." if agreed else "declined."))


def _guided(interaction: discord.Interaction, done: str, board: Scoreboard, *created: StepKind) -> Reply:
    """A public reply that says what is next, pinging the people the action just made due (once)."""
    mentions = next_steps.pings(board, *created, actor=interaction.user.id)
    return Reply(f"{done} {next_steps.next_line(board)}".strip(), ephemeral=False, mentions=mentions)


async def setup(bot: LeagueBot) -> None:
    await bot.add_cog(MatchNightCommands(bot))


def _written_in(board: Scoreboard, side: Side) -> str:
    """The name of the player `side` wrote into round 1 (TEAM-SHORT-4)."""
    player = next(d.lineup.write_in for d in board.night.declarations if d.side is side and d.round_index == 1)
    return board.names.get(player or 0, "The write-in")
