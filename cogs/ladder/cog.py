"""/ladder: a Jersey PA-style group ladder league (LADDER-*). Thin: parse, call one service, render."""

from __future__ import annotations

from datetime import date

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import LeagueBot
from bot.interactions import Reply
from bot.render.ladder import replies as render
from bot.rules.ladder.options import LadderOptions
from bot.rules.refusals import InvalidInput, Refusal
from bot.services.players import Member
from cogs._shared import LEAGUE_OPTION, LeagueOption, actor_from, bot_of, effective_autocomplete, matching, replies
from cogs.ladder.views import LADDER_BOARD

OFFENCES = [
    app_commands.Choice(name="death save or bang-back: score 0 (LADDER-PEN-4)", value="death_save"),
    app_commands.Choice(name="tilted another player's ball (LADDER-PEN-5)", value="tilted_anothers_ball"),
    app_commands.Choice(name="slam tilt, intentional (LADDER-PEN-6)", value="slam_intentional"),
    app_commands.Choice(name="slam tilt, accidental (LADDER-PEN-6)", value="slam_accidental"),
    app_commands.Choice(name="slam tilt from a malfunction (LADDER-PEN-6)", value="slam_malfunction"),
    app_commands.Choice(name="wrong number of players started: game restarted (LADDER-PEN-8)", value="restart"),
]
REPLAY_CHOICES = [
    app_commands.Choice(name="after a malfunction: the replay counts, even if lower (LADDER-PEN-1)", value="replaces"),
    app_commands.Choice(name="after a tilted ball: the higher of the two counts (LADDER-PEN-5)", value="higher"),
]


def member_of(member: discord.Member | None) -> Member | None:
    return None if member is None else Member(member.id, member.display_name, member.bot)


async def machine_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    league = getattr(interaction.namespace, "league", None)
    names = await bot_of(interaction).services.ladder_nights.machine_names(
        interaction.guild_id or 0, league, tonight=False
    )
    return matching(names, current)


async def tonight_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    league = getattr(interaction.namespace, "league", None)
    names = await bot_of(interaction).services.ladder_nights.machine_names(
        interaction.guild_id or 0, league, tonight=True
    )
    return matching(names, current)


async def game_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    """Tonight's games of the group of the player named (default: the caller), e.g. "Game 2 · Black Knight"."""
    league = getattr(interaction.namespace, "league", None)
    player = getattr(interaction.namespace, "player", None)
    try:
        games = await bot_of(interaction).services.ladder_boards.game_choices(
            interaction.guild_id or 0, league, getattr(player, "id", None) or interaction.user.id
        )
    except Refusal:
        return []
    typed = current.casefold().strip()
    return [app_commands.Choice(name=label, value=number) for number, label in games if typed in label.casefold()]


async def option_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return matching(list(LadderOptions.model_fields), current)


def parse_day(text: str | None) -> date | None:
    if not text:
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise InvalidInput("`date` must be written YYYY-MM-DD, e.g. 2027-03-03.") from None


@app_commands.guild_only()
class LadderCommands(commands.GroupCog, group_name="ladder", group_description="A group ladder league"):
    def __init__(self, bot: LeagueBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        LADDER_BOARD.register(self.bot)

    @app_commands.command(name="join", description="Join this season's ladder (until week 2 is over)")
    @app_commands.describe(
        skill="Your skill, 1 (novice) to 10 (expert), used for the first week's groups",
        member="Commissioners: add this member instead of yourself",
        league=LEAGUE_OPTION,
    )
    @replies(ephemeral=False)
    async def join(
        self,
        interaction: discord.Interaction,
        skill: int,
        member: discord.Member | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        entrant = await self.bot.services.ladder_players.join(
            actor_from(interaction), league, skill=skill, member=member_of(member)
        )
        return Reply(f"🪜 {entrant.name} joined the ladder with skill {skill}.", ephemeral=False)

    @app_commands.command(name="checkin", description="Check in for tonight's league night")
    @app_commands.describe(member="Commissioners: check in this member", league=LEAGUE_OPTION)
    @replies(ephemeral=False)
    async def checkin(
        self, interaction: discord.Interaction, member: discord.Member | None = None, league: LeagueOption = None
    ) -> Reply:
        notice = await self.bot.services.ladder_players.checkin(
            actor_from(interaction), league, member=member_of(member)
        )
        return Reply(render.notice_text(notice), ephemeral=False)

    @app_commands.command(name="absent", description="Tell the league you will miss or be late for this week")
    @app_commands.describe(
        late="True: you will come late (binding if sent by 3 p.m. on league day)",
        member="Commissioners: record the notice for this member",
        league=LEAGUE_OPTION,
    )
    @replies(ephemeral=True)
    async def absent(
        self,
        interaction: discord.Interaction,
        late: bool = False,
        member: discord.Member | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        notice = await self.bot.services.ladder_players.notify(
            actor_from(interaction), league, member=member_of(member), late=late
        )
        return Reply(render.notice_text(notice))

    @app_commands.command(name="groups", description="Post this week's groups (or next week's)")
    @app_commands.describe(league=LEAGUE_OPTION)
    @replies(ephemeral=False)
    async def groups(self, interaction: discord.Interaction, league: LeagueOption = None) -> Reply:
        view = await self.bot.services.ladder_nights.groups(actor_from(interaction), league)
        return Reply(embeds=[render.groups_embed(view)], ephemeral=False)

    @app_commands.command(name="swap", description="Swap two players between groups (commissioners)")
    @app_commands.describe(first="A player", second="The player they trade places with", league=LEAGUE_OPTION)
    @replies(ephemeral=False)
    async def swap(
        self, interaction: discord.Interaction, first: discord.Member, second: discord.Member,
        league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        view = await self.bot.services.ladder_nights.swap(
            actor_from(interaction), league,
            first=Member(first.id, first.display_name, first.bot),
            second=Member(second.id, second.display_name, second.bot),
        )  # fmt: skip
        return Reply(embeds=[render.groups_embed(view)], ephemeral=False)

    @app_commands.command(name="score", description="Enter a score for one of tonight's games")
    @app_commands.describe(
        game="Which of tonight's games (pick from the list)",
        score="The score, e.g. 12,345,670; several separated by spaces fill this game and the next ones",
        player="Whose score (default: yours); players enter for their own group",
        replay="A replay of this game: after a malfunction it replaces the first score, after a tilted ball "
        "the higher counts",
        league=LEAGUE_OPTION,
    )
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.choices(replay=REPLAY_CHOICES)
    @replies(ephemeral=False)
    async def score(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1, 10],
        score: str,
        player: discord.Member | None = None,
        replay: app_commands.Choice[str] | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        entries = await self.bot.services.ladder_play.score(
            actor_from(interaction), league, game=game, score=score, member=member_of(player),
            replay=replay.value if replay else None,
        )  # fmt: skip
        LADDER_BOARD.publish(self.bot, interaction.channel, (entries[0].group_id,))
        counted = {"replaces": " The replay counts (LADDER-PEN-1).", "higher": " The higher counts (LADDER-PEN-5)."}
        return Reply(render.score_text(entries) + (counted[replay.value] if replay else ""), ephemeral=False)

    @app_commands.command(name="tiebreak", description="Enter the winner of a one-ball playoff for a tied game")
    @app_commands.describe(game="The tied game's number tonight", winner="Who won the playoff", league=LEAGUE_OPTION)
    @replies(ephemeral=False)
    async def tiebreak(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1, 10],
        winner: discord.Member,
        league: LeagueOption = None,
    ) -> Reply:
        name = await self.bot.services.ladder_play.tiebreak(
            actor_from(interaction), league, game=game, winner=Member(winner.id, winner.display_name, winner.bot)
        )
        return Reply(f"⚖️ {name} won the playoff for game {game} (LADDER-AMB-5).", ephemeral=False)

    @app_commands.command(
        name="penalty", description="Rule on a death save, a tilted ball, a slam tilt or a restarted game"
    )
    @app_commands.describe(
        game="The game's number tonight",
        offence="What happened",
        player="The offending player",
        buy_in="Tilted ball: the victim can buy in an extra ball",
        league=LEAGUE_OPTION,
    )
    @app_commands.choices(offence=OFFENCES)
    @replies(ephemeral=False)
    async def penalty(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1, 10],
        offence: app_commands.Choice[str], player: discord.Member, buy_in: bool = False, league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        ruling = await self.bot.services.ladder_rulings.penalty(
            actor_from(interaction), league, game=game, offence=offence.value,
            member=Member(player.id, player.display_name, player.bot), buy_in_possible=buy_in,
        )  # fmt: skip
        return Reply(render.ruling_text(ruling), ephemeral=False)

    @app_commands.command(name="normalizer", description="Set a machine's normalizer score (commissioners)")
    @app_commands.describe(
        machine="The machine (type to search)", value="The normalizer, e.g. 50,000,000", league=LEAGUE_OPTION
    )
    @app_commands.autocomplete(machine=machine_autocomplete)
    @replies(ephemeral=True)
    async def normalizer(
        self, interaction: discord.Interaction, machine: str, value: str, league: LeagueOption = None
    ) -> Reply:
        title, normalizer = await self.bot.services.ladder_nights.set_normalizer(
            actor_from(interaction), league, machine=machine, value=value
        )
        return Reply(f"📏 {title}: normalizer {normalizer:,} (a score of {normalizer:,} normalizes to 1.0).")

    @app_commands.command(name="standings", description="The ladder's season standings")
    @app_commands.describe(league=LEAGUE_OPTION)
    @replies(ephemeral=False)
    async def standings(self, interaction: discord.Interaction, league: LeagueOption = None) -> Reply:
        view = await self.bot.services.ladder_standings.standings(actor_from(interaction), league)
        return Reply(embeds=[render.standings_embed(view)], ephemeral=False)

    @app_commands.command(name="playoffs", description="Playoff qualifiers per division, and the alternates")
    @app_commands.describe(
        missing="Playoff night: qualifiers not checked in at 19:30, comma-separated (the alternates step in)",
        notified="Qualifiers who gave notice of absence, comma-separated",
        rescheduled="Of those, the ones the commissioner could reschedule (they keep their place)",
        league=LEAGUE_OPTION,
    )
    @replies(ephemeral=False)
    async def playoffs(
        self, interaction: discord.Interaction, missing: str | None = None, notified: str | None = None,
        rescheduled: str | None = None, league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        view = await self.bot.services.ladder_standings.playoffs(
            actor_from(interaction), league, missing=missing, notified=notified, rescheduled=rescheduled
        )
        return Reply(embeds=[render.playoffs_embed(view)], ephemeral=False)

    @app_commands.command(name="payouts", description="Weekly pots, winners and every player's money")
    @app_commands.describe(league=LEAGUE_OPTION)
    @replies(ephemeral=False)
    async def payouts(self, interaction: discord.Interaction, league: LeagueOption = None) -> Reply:
        view = await self.bot.services.ladder_standings.payouts(actor_from(interaction), league)
        return Reply(embeds=[render.payouts_embed(view)], ephemeral=False)

    @app_commands.command(name="option", description="Show the league's options, or change one (commissioners)")
    @app_commands.describe(
        name="The option, e.g. pmu_4th_point (leave empty to list them all)",
        value="Its new value, e.g. to_third, 12 or 65,25,10",
        effective="From this date, YYYY-MM-DD (default: the next night not yet closed)",
        league=LEAGUE_OPTION,
    )
    @app_commands.autocomplete(name=option_autocomplete, effective=effective_autocomplete)
    @replies(ephemeral=True)
    async def option(
        self, interaction: discord.Interaction, name: str | None = None, value: str | None = None,
        effective: str | None = None, league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        actor = actor_from(interaction)
        service = self.bot.services.ladder_options
        if name and value is not None:
            key, shown, changed, history = await service.set(actor, league, name=name, value=value, effective=effective)
            over_time = "".join(f"\n• {line}" for line in history if line.startswith(f"{key}:"))
            return Reply(f"⚙️ {key} = {shown}. {changed.note()}{over_time}")
        if effective is not None:
            raise InvalidInput("`effective` dates a change: give `name` and `value` too.")
        title, values, history = await service.show(actor, league)
        listed = {k: v for k, v in values.items() if not name or k == name}
        shown_history = [line for line in history if not name or line.startswith(f"{name}:")]
        over_time = "".join(f"\n• {line}" for line in shown_history)
        lines = "\n".join(f"`{k}` = {v}" for k, v in listed.items())
        return Reply(
            f"⚙️ {title} options:\n{lines}" + (f"\nOver time (COMMON-LEAGUE-2):{over_time}" if over_time else "")
        )

    night = app_commands.Group(name="night", description="League nights (commissioners open and close them)")

    @night.command(name="open", description="Open this week's night: working machines and groups (commissioners)")
    @app_commands.describe(date="The night's date, YYYY-MM-DD (default today)", league=LEAGUE_OPTION)
    @replies(ephemeral=False)
    async def night_open(
        self, interaction: discord.Interaction, date: str | None = None, league: LeagueOption = None
    ) -> Reply:
        view = await self.bot.services.ladder_nights.open(actor_from(interaction), league, play_on=parse_day(date))
        return Reply(embeds=[render.groups_embed(view)], ephemeral=False)

    @night.command(name="close", description="Close tonight: points, bonus, TNS, payouts, next groups (commissioners)")
    @app_commands.describe(league=LEAGUE_OPTION)
    @replies(ephemeral=False)
    async def night_close(self, interaction: discord.Interaction, league: LeagueOption = None) -> Reply:
        summary = await self.bot.services.ladder_nights.close(actor_from(interaction), league)
        return Reply(embeds=[render.night_embed(summary)], ephemeral=False)

    @night.command(name="show", description="Show tonight's groups, games and who checked in")
    @app_commands.describe(league=LEAGUE_OPTION)
    @replies(ephemeral=True)
    async def night_show(self, interaction: discord.Interaction, league: LeagueOption = None) -> Reply:
        view = await self.bot.services.ladder_nights.groups(actor_from(interaction), league)
        return Reply(embeds=[render.groups_embed(view)])

    games = app_commands.Group(name="games", description="Choose a group's games for the night")

    @games.command(
        name="pick", description="Your pick: a game to leave out (more machines than games) or play twice (fewer)"
    )
    @app_commands.describe(game="A machine in tonight's working set", league=LEAGUE_OPTION)
    @app_commands.autocomplete(game=tonight_autocomplete)
    @replies(ephemeral=False)
    async def games_pick(self, interaction: discord.Interaction, game: str, league: LeagueOption = None) -> Reply:
        state = await self.bot.services.ladder_play.pick(actor_from(interaction), league, game=game)
        if state.games:
            LADDER_BOARD.publish(self.bot, interaction.channel, (state.group_id,))
        return Reply(render.pick_text(state), ephemeral=False)

    @games.command(name="set", description="Set a group's games for the night yourself (commissioners)")
    @app_commands.describe(
        group="The group's number tonight",
        games="The night's games (five by default), working machines, comma-separated",
        league=LEAGUE_OPTION,
    )
    @replies(ephemeral=False)
    async def games_set(
        self, interaction: discord.Interaction, group: int, games: str, league: LeagueOption = None
    ) -> Reply:
        state = await self.bot.services.ladder_play.set_games(
            actor_from(interaction), league, group_number=group, games=games
        )
        LADDER_BOARD.publish(self.bot, interaction.channel, (state.group_id,))
        return Reply(render.pick_text(state), ephemeral=False)

    premakeup = app_commands.Group(name="premakeup", description="Premakeup games for nights you will miss")

    @premakeup.command(name="declare", description="Declare a premakeup game before you play it")
    @app_commands.describe(
        machine="The machine (type to search)", with_players="Who else plays the game with you", league=LEAGUE_OPTION
    )
    @app_commands.rename(with_players="with")
    @app_commands.autocomplete(machine=machine_autocomplete)
    @replies(ephemeral=True)
    async def premakeup_declare(
        self, interaction: discord.Interaction, machine: str, with_players: str, league: LeagueOption = None
    ) -> Reply:
        title = await self.bot.services.ladder_premakeups.declare(
            actor_from(interaction), league, machine=machine, with_players=with_players
        )
        return Reply(f"📣 Premakeup game on {title} declared, with {with_players}. Record it when done.")

    @premakeup.command(name="record", description="Record the score of your declared premakeup game")
    @app_commands.describe(machine="The machine", score="Your score, e.g. 12,345,670", league=LEAGUE_OPTION)
    @app_commands.autocomplete(machine=machine_autocomplete)
    @replies(ephemeral=True)
    async def premakeup_record(
        self, interaction: discord.Interaction, machine: str, score: str, league: LeagueOption = None
    ) -> Reply:
        title, value, which = await self.bot.services.ladder_premakeups.record(
            actor_from(interaction), league, machine=machine, score=score
        )
        return Reply(f"🗂️ Premakeup {which} on {title}: **{value:,}**.")

    @premakeup.command(name="order", description="Choose the order your premakeup values are used on a machine")
    @app_commands.describe(
        machine="The machine", order="S1, S2 and AVG in use order, e.g. S2,AVG,S1", league=LEAGUE_OPTION
    )
    @app_commands.autocomplete(machine=machine_autocomplete)
    @replies(ephemeral=True)
    async def premakeup_order(
        self, interaction: discord.Interaction, machine: str, order: str, league: LeagueOption = None
    ) -> Reply:
        chosen = await self.bot.services.ladder_premakeups.order(
            actor_from(interaction), league, machine=machine, order=order
        )
        return Reply(f"🔢 Premakeups on {machine} will be used {' → '.join(chosen)}.")

    @premakeup.command(name="show", description="A player's premakeups and season totals")
    @app_commands.describe(
        player="Whose premakeups (default: yours)",
        machine="Also list who still owes a premakeup on this machine",
        league=LEAGUE_OPTION,
    )
    @app_commands.autocomplete(machine=machine_autocomplete)
    @replies(ephemeral=True)
    async def premakeup_show(
        self,
        interaction: discord.Interaction,
        player: discord.Member | None = None,
        machine: str | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        registry = await self.bot.services.ladder_premakeups.show(
            actor_from(interaction), league, member=member_of(player), machine=machine
        )
        return Reply(embeds=[render.registry_embed(registry)])


async def setup(bot: LeagueBot) -> None:
    await bot.add_cog(LadderCommands(bot))
