"""The field format (Lafayette-style league nights and finals) under one `/field` group.

Thin: parse options, call one service, render. Officials are the league's commissioners; refusals name
their FIELD-* rule (bot.errors).
"""

from __future__ import annotations

from datetime import date

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors
from bot.client import LeagueBot
from bot.interactions import Reply
from bot.render.field.replies import (
    correction_text,
    finals_embed,
    maintenance_text,
    malfunction_text,
    night_embed,
    option_set_text,
    options_text,
    penalty_text,
    ruling_text,
    score_echo,
    standings_embed,
)
from bot.rules.field import rulings as ruling_rules
from bot.rules.field.finals import PickKind
from bot.rules.field.malfunctions import Incident
from bot.rules.field.penalties import Offence, VictimChoice
from bot.rules.refusals import InvalidInput
from bot.services.field.malfunctions import MalfunctionAsk
from bot.services.field.nights import ScoreEntered
from bot.services.field.options import OPTION_NAMES
from bot.services.field.penalties import PenaltyAsk
from bot.services.players import Member
from cogs._shared import (
    LEAGUE_OPTION,
    MAX_CHOICES,
    LeagueOption,
    actor_from,
    bot_of,
    effective_autocomplete,
    matching,
    replies,
)
from cogs.field.views import FIELD_BOARD

OFFENCES = [
    app_commands.Choice(name="played an opponent's ball (FIELD-PEN-2)", value=Offence.OPPONENT_BALL.value),
    app_commands.Choice(name="interference / intentional slam tilt (FIELD-PEN-3)", value=Offence.INTERFERENCE.value),
    app_commands.Choice(name="death save or bangback (FIELD-PEN-9)", value=Offence.DEATH_SAVE.value),
    app_commands.Choice(name="ejected by the venue (FIELD-PEN-4)", value=Offence.EJECTION.value),
    app_commands.Choice(name="violence or vandalism (FIELD-PEN-4)", value=Offence.VIOLENCE.value),
    app_commands.Choice(name="cheating (FIELD-PEN-10)", value=Offence.CHEATING.value),
    app_commands.Choice(name="played own plunged extra ball (FIELD-PEN-1)", value=Offence.OWN_EXTRA_BALL.value),
    app_commands.Choice(name="slow play (FIELD-PEN-11)", value=Offence.SLOW_PLAY.value),
    app_commands.Choice(name="wrong number of games started (FIELD-PEN-7)", value=Offence.WRONG_GAME_COUNT.value),
    app_commands.Choice(name="played out of order (FIELD-PEN-8)", value=Offence.OUT_OF_ORDER.value),
    app_commands.Choice(name="distraction, a ruling asked (FIELD-PEN-12)", value=Offence.DISTRACTION.value),
]
VICTIM_CHOICES = [
    app_commands.Choice(name="continue with the ball", value=VictimChoice.CONTINUE.value),
    app_commands.Choice(name="continue and play an additional ball", value=VictimChoice.ADDITIONAL_BALL.value),
    app_commands.Choice(name="replay the whole game", value=VictimChoice.REPLAY.value),
]
ORDER_CHOICES = [
    app_commands.Choice(name="keep the order played", value="keep"),
    app_commands.Choice(name="restart in scoresheet order", value="restart"),
]
CATASTROPHIC_SCORES = [
    app_commands.Choice(name="the scores stand (SLO)", value="stand"),
    app_commands.Choice(name="the players accept agreed scores", value="agreed"),
]
INCIDENTS = [
    app_commands.Choice(name="had to tilt to free a stuck ball", value=Incident.FORCED_TILT_STUCK_BALL.value),
    app_commands.Choice(name="turn ended with a ball in play", value=Incident.TURN_ENDED_WITH_BALL_IN_PLAY.value),
    app_commands.Choice(name="ball launched too early", value=Incident.BALL_LAUNCHED_EARLY.value),
    app_commands.Choice(name="plunged extra ball stuck", value=Incident.STUCK_PLUNGED_EXTRA_BALL.value),
    app_commands.Choice(name="multiball ended early (no lost turn)", value=Incident.MULTIBALL_ENDED_EARLY.value),
    app_commands.Choice(name="airball", value=Incident.AIRBALL.value),
    app_commands.Choice(name="kickback failed", value=Incident.KICKBACK_FAILED.value),
    app_commands.Choice(name="ball saver failed", value=Incident.BALL_SAVER_FAILED.value),
    app_commands.Choice(name="catastrophic (reset, fire, slam tilt)", value=Incident.CATASTROPHIC.value),
    app_commands.Choice(name="positive (unfair advantage)", value=Incident.POSITIVE.value),
]
RULING_KINDS = [app_commands.Choice(name=kind.replace("_", " "), value=kind) for kind in ruling_rules.RULING_KINDS]
MACHINE_OPTION = "A machine (type to search)"


async def league_machine_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    return await _machines(interaction, current, tonight=False)


async def night_machine_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    return await _machines(interaction, current, tonight=True)


async def option_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return matching(list(OPTION_NAMES), current)


async def pairing_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    try:
        codes = await bot_of(interaction).services.field_finals.pairing_choices(
            interaction.guild_id or 0, getattr(interaction.namespace, "league", None)
        )
    except errors.Refusal:
        return []
    return matching(codes, current)


async def _machines(interaction: discord.Interaction, current: str, *, tonight: bool) -> list[app_commands.Choice[int]]:
    try:
        choices = await bot_of(interaction).services.field_nights.machine_choices(
            interaction.guild_id or 0, getattr(interaction.namespace, "league", None), tonight=tonight
        )
    except errors.Refusal:
        return []  # autocomplete cannot explain; the submission will
    typed = current.casefold().strip()
    return [app_commands.Choice(name=name[:100], value=mid) for mid, name in choices if typed in name.casefold()][
        :MAX_CHOICES
    ]


NIGHT_MACHINE_SLOTS = ("m1", "m2", "m3", "m4", "m5")  # a night's five machines: options of open and machines
NIGHT_MACHINES_DESCRIBED = dict.fromkeys(NIGHT_MACHINE_SLOTS, MACHINE_OPTION)
NIGHT_MACHINES_SUGGESTED = dict.fromkeys(NIGHT_MACHINE_SLOTS, league_machine_autocomplete)


def _day(text: str | None) -> date | None:
    if text is None:
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise InvalidInput(f"`date` {text!r} is not a date like 2026-06-02.") from None


def _ids(*members: discord.Member | None) -> list[int]:
    return [m.id for m in members if m is not None]


class FieldCommands(commands.Cog):
    field = app_commands.Group(name="field", description="Field league nights and finals", guild_only=True)
    night = app_commands.Group(name="night", description="The league night and its machines", parent=field)
    finals = app_commands.Group(name="finals", description="The season's finals", parent=field)

    def __init__(self, bot: LeagueBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        FIELD_BOARD.register(self.bot)

    # --- /field night ---------------------------------------------------------------------------------

    @night.command(name="open", description="Open the next league night with its five machines (officials)")
    @app_commands.describe(
        **NIGHT_MACHINES_DESCRIBED, date="The night's date, e.g. 2026-06-02 (default: today)", league=LEAGUE_OPTION
    )
    @app_commands.autocomplete(**NIGHT_MACHINES_SUGGESTED)
    @replies(ephemeral=False)
    async def night_open(
        self,
        interaction: discord.Interaction,
        m1: int,
        m2: int,
        m3: int,
        m4: int,
        m5: int,
        date: str | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        view = await self.bot.services.field_nights.open_night(
            actor_from(interaction), league, machine_ids=[m1, m2, m3, m4, m5], play_on=_day(date)
        )
        return Reply("📣 League night open: practise these machines!", embeds=[night_embed(view)], ephemeral=False)

    @night.command(name="machines", description="Change tonight's machines or name a replacement (officials)")
    @app_commands.describe(**NIGHT_MACHINES_DESCRIBED, league=LEAGUE_OPTION)
    @app_commands.autocomplete(**NIGHT_MACHINES_SUGGESTED)
    @replies(ephemeral=False)
    async def night_machines(
        self,
        interaction: discord.Interaction,
        m1: int,
        m2: int,
        m3: int,
        m4: int,
        m5: int,
        league: LeagueOption = None,
    ) -> Reply:
        view = await self.bot.services.field_nights.set_machines(
            actor_from(interaction), league, machine_ids=[m1, m2, m3, m4, m5]
        )
        return Reply("🔧 Tonight's machines changed.", embeds=[night_embed(view)], ephemeral=False)

    @night.command(name="close", description="Close tonight: its points become final (officials)")
    @app_commands.describe(
        missing_scores="With scores still missing: accept that they count as no score (FIELD-SCORE-5)",
        league=LEAGUE_OPTION,
    )
    @app_commands.choices(missing_scores=[app_commands.Choice(name="accept: they count as no score", value="accept")])
    @replies(ephemeral=False)
    async def night_close(
        self, interaction: discord.Interaction, missing_scores: str | None = None, league: LeagueOption = None
    ) -> Reply:
        view = await self.bot.services.field_nights.close_night(
            actor_from(interaction), league, with_scores_missing=missing_scores == "accept"
        )
        return Reply("🏁 Night closed; its points are final.", embeds=[night_embed(view)], ephemeral=False)

    @night.command(name="show", description="The night sheet: machines, groups, points")
    @app_commands.describe(week="Which week (default: tonight or the latest)", league=LEAGUE_OPTION)
    @replies(ephemeral=False)
    async def night_show(
        self, interaction: discord.Interaction, week: int | None = None, league: LeagueOption = None
    ) -> Reply:
        view = await self.bot.services.field_nights.show(actor_from(interaction), league, week)
        return Reply(embeds=[night_embed(view)], ephemeral=False)

    # --- attendance, groups, scores -------------------------------------------------------------------

    @field.command(name="checkin", description="Check in for tonight (officials can check in others)")
    @app_commands.describe(member="Someone else to check in (officials)", league=LEAGUE_OPTION)
    @replies(ephemeral=True)
    async def checkin(
        self, interaction: discord.Interaction, member: discord.Member | None = None, league: LeagueOption = None
    ) -> Reply:
        view = await self.bot.services.field_nights.check_in(
            actor_from(interaction), league, member.id if member else None
        )
        who = (member or interaction.user).display_name
        return Reply(f"🟢 {who} is checked in for week {view.night.week}.", ephemeral=True)

    @field.command(name="guest", description="Let a non-member play tonight as a guest (officials)")
    @app_commands.describe(member="The guest", league=LEAGUE_OPTION)
    @replies(ephemeral=False)
    async def guest(
        self, interaction: discord.Interaction, member: discord.Member, league: LeagueOption = None
    ) -> Reply:
        await self.bot.services.field_nights.add_guest(
            actor_from(interaction), league, Member(member.id, member.display_name, member.bot)
        )
        return Reply(f"🟢 {member.display_name} plays tonight as a guest (FIELD-ATT-3).", ephemeral=False)

    @field.command(name="groups", description="Make tonight's groups of four and three (officials)")
    @app_commands.describe(league=LEAGUE_OPTION)
    @replies(ephemeral=False)
    async def groups(self, interaction: discord.Interaction, league: LeagueOption = None) -> Reply:
        view = await self.bot.services.field_nights.make_groups(actor_from(interaction), league)
        for number in sorted({c.group_number for c in view.result.facts.checkins if c.group_number}):
            FIELD_BOARD.publish(self.bot, interaction.channel, (view.night.id or 0, number))
        return Reply(
            "👥 Tonight's groups, each with its board below: play your group's machines in any order and enter "
            "each game from it.",
            embeds=[night_embed(view)],
            ephemeral=False,
        )

    @field.command(name="score", description="Enter a machine score for you or someone in your group")
    @app_commands.describe(
        machine="One of tonight's machines",
        score="The score, e.g. 12,345,670",
        member="Someone in your group (default: you)",
        replay="A sanctioned replay that replaces the first score (officials)",
        league=LEAGUE_OPTION,
    )
    @app_commands.autocomplete(machine=night_machine_autocomplete)
    @replies(ephemeral=False)
    async def score(
        self,
        interaction: discord.Interaction,
        machine: int,
        score: str,
        member: discord.Member | None = None,
        replay: bool = False,
        league: LeagueOption = None,
    ) -> Reply:
        entered = await self.bot.services.field_nights.enter_scores(
            actor_from(interaction),
            league,
            machine_id=machine,
            entries=[(member.id if member else None, score)],
            replay=replay,
        )
        self._publish(interaction, entered)
        return Reply(score_echo(entered), ephemeral=False)

    @field.command(name="game", description="Enter one game's scores for your group on a machine, player by player")
    @app_commands.describe(
        machine="One of tonight's machines",
        p1="A player of your group", s1="Their score, e.g. 12,345,670",
        p2="The next player", s2="Their score",
        p3="The next player", s3="Their score",
        p4="The next player", s4="Their score",
        league=LEAGUE_OPTION,
    )  # fmt: skip
    @app_commands.autocomplete(machine=night_machine_autocomplete)
    @replies(ephemeral=False)
    async def game(
        self,
        interaction: discord.Interaction,
        machine: int,
        p1: discord.Member,
        s1: str,
        p2: discord.Member | None = None,
        s2: str | None = None,
        p3: discord.Member | None = None,
        s3: str | None = None,
        p4: discord.Member | None = None,
        s4: str | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        pairs = [(p1, s1), (p2, s2), (p3, s3), (p4, s4)]
        if any((member is None) != (text is None) for member, text in pairs):
            raise InvalidInput("Give each player with their score: p2 with s2, p3 with s3, p4 with s4.")
        entries = [(member.id, text) for member, text in pairs if member is not None and text is not None]
        entered = await self.bot.services.field_nights.enter_scores(
            actor_from(interaction), league, machine_id=machine, entries=entries
        )
        self._publish(interaction, entered)
        return Reply(score_echo(entered), ephemeral=False)

    @field.command(name="tiebreak", description="The one-ball playoff of players tied on a machine, winner first")
    @app_commands.describe(
        machine="The machine of the tie",
        first="The playoff winner",
        second="Second",
        third="Third, if three tied",
        fourth="Fourth, if four tied",
        unplayable="The playoff cannot be played: the tied players share the rank (officials)",
        league=LEAGUE_OPTION,
    )
    @app_commands.autocomplete(machine=night_machine_autocomplete)
    @replies(ephemeral=False)
    async def tiebreak(
        self,
        interaction: discord.Interaction,
        machine: int,
        first: discord.Member | None = None,
        second: discord.Member | None = None,
        third: discord.Member | None = None,
        fourth: discord.Member | None = None,
        unplayable: bool = False,
        league: LeagueOption = None,
    ) -> Reply:
        view = await self.bot.services.field_nights.playoff_result(
            actor_from(interaction),
            league,
            machine_id=machine,
            order=_ids(first, second, third, fourth),
            unplayable=unplayable,
        )
        return Reply("⚖️ Playoff recorded.", embeds=[night_embed(view)], ephemeral=False)

    @field.command(name="penalty", description="Record an offence at tonight's meet (officials)")
    @app_commands.describe(
        member="The offender",
        offence="What happened",
        machine="The game's machine (needed for game penalties)",
        note="What happened, for the record",
        choice="Opponent's ball: the victim's choice; interference: replay (FIELD-PEN-2/5)",
        before_next_player="The choice was announced before the next player started (default: true)",
        plunged_extra_ball="Opponent's ball: it was a plunged extra ball (FIELD-PEN-2)",
        games_started="Wrong game count: how many games were started (FIELD-PEN-7)",
        can_add="Wrong game count: the missing games can still be added (default: true)",
        order="Out of order: keep the order or restart (FIELD-PEN-8)",
        wrong_since_start="Out of order: the order was wrong from the start of the game",
        league=LEAGUE_OPTION,
    )
    @app_commands.choices(offence=OFFENCES, choice=VICTIM_CHOICES, order=ORDER_CHOICES)
    @app_commands.autocomplete(machine=night_machine_autocomplete)
    @replies(ephemeral=False)
    async def penalty(
        self,
        interaction: discord.Interaction,
        member: discord.Member,
        offence: app_commands.Choice[str],
        machine: int | None = None,
        note: str | None = None,
        choice: app_commands.Choice[str] | None = None,
        before_next_player: bool = True,
        plunged_extra_ball: bool = False,
        games_started: app_commands.Range[int, 0, 8] | None = None,
        can_add: bool = True,
        order: app_commands.Choice[str] | None = None,
        wrong_since_start: bool = False,
        league: LeagueOption = None,
    ) -> Reply:
        ask = PenaltyAsk(
            choice=VictimChoice(choice.value) if choice else None,
            before_next_player=before_next_player,
            plunged_extra_ball=plunged_extra_ball,
            games_started=games_started,
            can_add=can_add,
            keep_order=None if order is None else order.value == "keep",
            wrong_since_start=wrong_since_start,
        )
        recorded = await self.bot.services.field_nights.record_penalty(
            actor_from(interaction),
            league,
            member_id=member.id,
            offence=Offence(offence.value),
            machine_id=machine,
            note=note,
            ask=ask,
        )
        if recorded.replaying is not None:
            FIELD_BOARD.publish(self.bot, interaction.channel, recorded.replaying)
        return Reply(penalty_text(recorded), ephemeral=False)

    @field.command(name="correct", description="Ask to correct a written score; the whole group must confirm")
    @app_commands.describe(
        machine="The machine",
        member="Whose score",
        score="The right score, e.g. 1,234,560",
        reason="What went wrong",
        week="Which week (default: tonight)",
        league=LEAGUE_OPTION,
    )
    @app_commands.autocomplete(machine=league_machine_autocomplete)
    @replies(ephemeral=False)
    async def correct(
        self,
        interaction: discord.Interaction,
        machine: int,
        member: discord.Member,
        score: str,
        reason: str,
        week: int | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        view = await self.bot.services.field_corrections.request(
            actor_from(interaction),
            league,
            week=week,
            machine_id=machine,
            member_id=member.id,
            score_text=score,
            reason=reason,
        )
        return Reply(correction_text(view), ephemeral=False)

    @field.command(name="confirm", description="Confirm or reject a score correction for your group")
    @app_commands.describe(
        correction="The correction's number", agree="true: the correction is right", league=LEAGUE_OPTION
    )
    @replies(ephemeral=False)
    async def confirm(
        self, interaction: discord.Interaction, correction: int, agree: bool, league: LeagueOption = None
    ) -> Reply:
        view = await self.bot.services.field_corrections.vote(
            actor_from(interaction), league, correction_id=correction, agree=agree
        )
        return Reply(correction_text(view), ephemeral=False)

    @field.command(name="malfunction", description="Log a machine problem at tonight's meet")
    @app_commands.describe(
        machine="The machine",
        incident="What happened",
        announced="The problem was announced by an official before play",
        note="Details for the maintenance sheet",
        member="A player of the group concerned (default: you)",
        replay="Ask for the whole group's replay (FIELD-MALF-2); officials: rule it (FIELD-MALF-4/5)",
        next_ball_started="Someone already started their next ball (FIELD-MALF-2: the game goes on)",
        first_balls_lost="How many of the group lost their first ball to it (all: unplayable, FIELD-MALF-3)",
        unplayable="Declare the machine unplayable for tonight (officials, FIELD-MALF-3)",
        scores="Catastrophic: the scores stand, or agreed scores (officials; default void and replay, FIELD-MALF-4)",
        avoidable="Positive: the advantage can be avoided (officials, FIELD-MALF-5)",
        advantage_gained="Positive: an unfair advantage was already gained (FIELD-MALF-5)",
        slam_tilt_by="Catastrophic: who slam-tilted (officials, FIELD-PEN-6)",
        intentional="The slam tilt was intentional: also an interference offence (FIELD-PEN-6)",
        league=LEAGUE_OPTION,
    )
    @app_commands.choices(incident=INCIDENTS, scores=CATASTROPHIC_SCORES)
    @app_commands.autocomplete(machine=league_machine_autocomplete)
    @replies(ephemeral=False)
    async def malfunction(
        self,
        interaction: discord.Interaction,
        machine: int,
        incident: app_commands.Choice[str],
        announced: bool = False,
        note: str | None = None,
        member: discord.Member | None = None,
        replay: bool = False,
        next_ball_started: bool = False,
        first_balls_lost: app_commands.Range[int, 1, 4] | None = None,
        unplayable: bool = False,
        scores: app_commands.Choice[str] | None = None,
        avoidable: bool | None = None,
        advantage_gained: bool = False,
        slam_tilt_by: discord.Member | None = None,
        intentional: bool = False,
        league: LeagueOption = None,
    ) -> Reply:
        ask = MalfunctionAsk(
            member_id=member.id if member else None,
            replay=replay,
            next_ball_started=next_ball_started,
            first_balls_lost=first_balls_lost,
            unplayable=unplayable,
            scores="stand" if scores and scores.value == "stand" else "agreed" if scores else None,
            avoidable=avoidable,
            advantage_gained=advantage_gained,
            slam_tilt_by=slam_tilt_by.id if slam_tilt_by else None,
            intentional=intentional,
        )
        reported = await self.bot.services.field_malfunctions.report(
            actor_from(interaction),
            league,
            machine_id=machine,
            incident=Incident(incident.value),
            announced_before_play=announced,
            note=note,
            ask=ask,
        )
        if reported.replaying is not None:
            FIELD_BOARD.publish(self.bot, interaction.channel, reported.replaying)
        return Reply(malfunction_text(reported), ephemeral=False)

    @field.command(name="ruling", description="Record or find a ruling (officials)")
    @app_commands.describe(
        situation="What happened",
        ruling="The ruling; leave out to look up",
        kind="Kind",
        machine="The machine",
        rule="Rule, e.g. FIELD-PEN-12",
        league=LEAGUE_OPTION,
    )
    @app_commands.choices(kind=RULING_KINDS)
    @app_commands.autocomplete(machine=league_machine_autocomplete)
    @replies(ephemeral=False)
    async def ruling(
        self,
        interaction: discord.Interaction,
        situation: app_commands.Range[str, 1, 1000],
        ruling: app_commands.Range[str, 1, 1000] | None = None,
        kind: app_commands.Choice[str] | None = None,
        machine: int | None = None,
        rule: app_commands.Range[str, 1, 40] | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        view = await self.bot.services.field_rulings.rule(
            actor_from(interaction),
            league,
            situation=situation,
            ruling=ruling,
            kind=kind.value if kind else "other",
            machine_id=machine,
            rule_id=rule,
        )
        return Reply(ruling_text(view), ephemeral=view.recorded is None)

    @field.command(name="maintenance", description="The season's maintenance sheet, for the venue operator")
    @app_commands.describe(league=LEAGUE_OPTION)
    @replies(ephemeral=True)
    async def maintenance(self, interaction: discord.Interaction, league: LeagueOption = None) -> Reply:
        log = await self.bot.services.field_nights.maintenance_log(actor_from(interaction), league)
        return Reply(maintenance_text(log))

    @field.command(name="standings", description="The season table: totals after the lowest weeks are dropped")
    @app_commands.describe(week="The table as it stood after this week (default: as it stands)", league=LEAGUE_OPTION)
    @replies(ephemeral=False)
    async def standings(
        self, interaction: discord.Interaction, week: app_commands.Range[int, 1, 99] | None = None,
        league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        view = await self.bot.services.field_standings.table(actor_from(interaction), league, through_week=week)
        return Reply(embeds=[standings_embed(view)], ephemeral=False)

    @field.command(name="config", description="Show the league's field options, or change one (commissioners)")
    @app_commands.describe(
        option="The option to change (leave empty to list them all)",
        value="Its new value: a number, true/false, a list like [70, 30], or text like 00:30",
        effective="From this date, YYYY-MM-DD (default: the next night not yet closed)",
        league=LEAGUE_OPTION,
    )
    @app_commands.autocomplete(option=option_autocomplete, effective=effective_autocomplete)
    @replies(ephemeral=True)
    async def config(
        self,
        interaction: discord.Interaction,
        option: str | None = None,
        value: str | None = None,
        effective: str | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        service = self.bot.services.field_config
        if option is None:
            return Reply(options_text(await service.options(actor_from(interaction), league)))
        if value is None:
            raise InvalidInput(f"Give `value:` for {option}.")
        view = await service.set_option(actor_from(interaction), league, key=option, value=value, effective=effective)
        return Reply(option_set_text(view, option))

    # --- /field finals --------------------------------------------------------------------------------

    @finals.command(name="entry", description="Check a player in at the finals, fee paid (officials)")
    @app_commands.describe(member="The player", paid="The $10 entry fee is paid", league=LEAGUE_OPTION)
    @replies(ephemeral=False)
    async def finals_entry(
        self, interaction: discord.Interaction, member: discord.Member, paid: bool, league: LeagueOption = None
    ) -> Reply:
        await self.bot.services.field_finals.enter(actor_from(interaction), league, member_id=member.id, paid=paid)
        return Reply(f"🎟️ {member.display_name} is in the finals.", ephemeral=False)

    @finals.command(name="tiebreak", description="Result of a seeding tie-breaker game, winner first (officials)")
    @app_commands.describe(first="The winner", second="Second", third="Third, if three tied", league=LEAGUE_OPTION)
    @replies(ephemeral=False)
    async def finals_tiebreak(
        self,
        interaction: discord.Interaction,
        first: discord.Member,
        second: discord.Member,
        third: discord.Member | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        await self.bot.services.field_finals.record_tiebreak(
            actor_from(interaction), league, order=_ids(first, second, third)
        )
        return Reply("⚖️ Tie-breaker recorded; seed the finals again.", ephemeral=False)

    @finals.command(name="seed", description="Fix the finals seeds and draw the bracket (officials)")
    @app_commands.describe(league=LEAGUE_OPTION)
    @replies(ephemeral=False)
    async def finals_seed(self, interaction: discord.Interaction, league: LeagueOption = None) -> Reply:
        view = await self.bot.services.field_finals.seed(actor_from(interaction), league)
        return Reply(embeds=[finals_embed(view)], ephemeral=False)

    @finals.command(name="pick", description="Pick the machine or the player order of your pairing's game")
    @app_commands.describe(
        pairing="The pairing, e.g. W1-2",
        machine="Pick this machine",
        first="Pick the order: true to play first, false to play second",
        member="Pick for this player (officials)",
        league=LEAGUE_OPTION,
    )
    @app_commands.autocomplete(pairing=pairing_autocomplete)
    @app_commands.autocomplete(machine=league_machine_autocomplete)
    @replies(ephemeral=False)
    async def finals_pick(
        self,
        interaction: discord.Interaction,
        pairing: str,
        machine: int | None = None,
        first: bool | None = None,
        member: discord.Member | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        if (machine is None) == (first is None):
            raise InvalidInput("Pick either `machine:` or `first:` (the order), one per pick.")
        view = await self.bot.services.field_finals.pick(
            actor_from(interaction),
            league,
            match_code=pairing,
            kind=PickKind.MACHINE if machine is not None else PickKind.ORDER,
            machine_id=machine,
            plays_first=first,
            member_id=member.id if member else None,
        )
        return Reply("🎯 Pick recorded.", embeds=[finals_embed(view)], ephemeral=False)

    @finals.command(name="result", description="The winner of the current game of a pairing")
    @app_commands.describe(pairing="The pairing, e.g. W1-2", winner="Who won the game", league=LEAGUE_OPTION)
    @app_commands.autocomplete(pairing=pairing_autocomplete)
    @replies(ephemeral=False)
    async def finals_result(
        self, interaction: discord.Interaction, pairing: str, winner: discord.Member, league: LeagueOption = None
    ) -> Reply:
        view = await self.bot.services.field_finals.result(
            actor_from(interaction), league, match_code=pairing, winner_id=winner.id
        )
        return Reply(f"✅ {winner.display_name} wins the game.", embeds=[finals_embed(view)], ephemeral=False)

    @finals.command(name="show", description="Seeds, brackets, payouts and, at the end, the IFPA results")
    @app_commands.describe(league=LEAGUE_OPTION)
    @replies(ephemeral=False)
    async def finals_show(self, interaction: discord.Interaction, league: LeagueOption = None) -> Reply:
        view = await self.bot.services.field_finals.show(actor_from(interaction), league)
        return Reply(embeds=[finals_embed(view)], ephemeral=False)

    def _publish(self, interaction: discord.Interaction, entered: ScoreEntered) -> None:
        if entered.group is not None:
            ids = (entered.view.night.id or 0, entered.group)
            boards = self.bot.services.field_boards
            FIELD_BOARD.publish(self.bot, interaction.channel, ids, build=lambda: boards.entered_board(entered))


async def setup(bot: LeagueBot) -> None:
    await bot.add_cog(FieldCommands(bot))
