"""/schedule: generate the team season's schedule, reschedule or move a match, and read it (TEAM-SCHED-1,
TEAM-VENUE-2/3); date a ladder or field season's nights (COMMON-SEASON-1)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import LeagueBot
from bot.interactions import Reply
from bot.render.exchange import calendar_ready, export_file
from bot.render.nights import nights_embed
from bot.render.team.schedule import generated_embed, moved_embed, rescheduled_embed, tiebreaker_scheduled_embed
from bot.rules.nights import MAX_NIGHTS, SKIP_REASON_MAX
from bot.services.team.schedule import MAX_WEEKS, REASON_MAX
from cogs._shared import LEAGUE_OPTION, LeagueOption, actor_from, bot_of, matching, replies, venue_autocomplete
from cogs.team.match import MATCH_OPTION, match_autocomplete

TOSS_CHOICES = [
    app_commands.Choice(name="team A won the toss: HOME", value="team_a"),
    app_commands.Choice(name="team B won the toss: HOME", value="team_b"),
]


async def team_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    league = getattr(interaction.namespace, "league", None)
    return matching(await bot_of(interaction).services.rosters.team_names(interaction.guild_id or 0, league), current)


@app_commands.guild_only()
class ScheduleCommands(commands.GroupCog, group_name="schedule", group_description="The season's matches"):
    def __init__(self, bot: LeagueBot) -> None:
        self.bot = bot

    @app_commands.command(name="generate", description="Generate the regular season's matches (commissioners)")
    @app_commands.describe(
        weeks=f"How many weeks the regular season runs (1–{MAX_WEEKS})",
        start="The first day of week 1, YYYY-MM-DD; each match falls on the HOME team's evening that week",
        league=LEAGUE_OPTION,
    )
    @replies(ephemeral=False)
    async def generate(
        self,
        interaction: discord.Interaction,
        weeks: app_commands.Range[int, 1, MAX_WEEKS],
        start: str,
        league: LeagueOption = None,
    ) -> Reply:
        season = await self.bot.services.schedule.generate(actor_from(interaction), league, weeks=weeks, start=start)
        return Reply(embeds=[generated_embed(season)], ephemeral=False)

    @app_commands.command(name="nights", description="Date a ladder or field season's nights (commissioners)")
    @app_commands.describe(
        first="The first night, YYYY-MM-DD; every night falls on its weekday, a week apart",
        nights=f"How many nights the season has (1–{MAX_NIGHTS}), skipped dates not counted",
        skip="Dates without a night (holidays), YYYY-MM-DD, comma-separated",
        reason="Why the skipped dates have no night, e.g. holidays (recorded with each skip)",
        start="The nights' local start time, HH:MM (default: the format's, e.g. the ladder's check-in)",
        league=LEAGUE_OPTION,
    )
    @replies(ephemeral=False)
    async def nights(
        self,
        interaction: discord.Interaction,
        first: str,
        nights: app_commands.Range[int, 1, MAX_NIGHTS],
        skip: str | None = None,
        reason: app_commands.Range[str, 1, SKIP_REASON_MAX] | None = None,
        start: str | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        schedule = await self.bot.services.night_schedule.schedule(
            actor_from(interaction), league, first=first, nights=nights, skip=skip, reason=reason, start=start
        )
        return Reply(embeds=[nights_embed(schedule, scheduled=True)], ephemeral=False)

    @app_commands.command(name="reschedule", description="Record a new date both captains agreed to (commissioners)")
    @app_commands.describe(
        match=MATCH_OPTION,
        date="The new date, YYYY-MM-DD",
        agreed="Both captains agreed to the new date (TEAM-VENUE-3)",
        reason="Why, for the league's record, e.g. all machines down",
        league=LEAGUE_OPTION,
    )
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=False)
    async def reschedule(
        self,
        interaction: discord.Interaction,
        match: int,
        date: str,
        agreed: bool,
        reason: app_commands.Range[str, 1, REASON_MAX],
        league: LeagueOption = None,
    ) -> Reply:
        change = await self.bot.services.schedule.reschedule(
            actor_from(interaction), league, match_id=match, day=date, agreed=agreed, reason=reason
        )
        return Reply(embeds=[rescheduled_embed(change)], ephemeral=False)

    @app_commands.command(name="move", description="Record the venue HOME moved a match to (commissioners)")
    @app_commands.describe(
        match=MATCH_OPTION,
        venue="The venue HOME chose: a regular league venue unless none could host the match",
        reason="Why it moved, e.g. venue closed or no machine working (TEAM-VENUE-1)",
        justification="Only for a venue that is not a regular league venue: why none of those could host it",
        league=LEAGUE_OPTION,
    )
    @app_commands.autocomplete(match=match_autocomplete)
    @app_commands.autocomplete(venue=venue_autocomplete)
    @replies(ephemeral=False)
    async def move(
        self,
        interaction: discord.Interaction,
        match: int,
        venue: str,
        reason: app_commands.Range[str, 1, REASON_MAX],
        justification: app_commands.Range[str, 1, REASON_MAX] | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        change = await self.bot.services.schedule.move(
            actor_from(interaction),
            league,
            match_id=match,
            venue_name=venue,
            reason=reason,
            justification=justification,
        )
        return Reply(embeds=[moved_embed(change)], ephemeral=False)

    @app_commands.command(
        name="tiebreaker", description="Schedule the tie-breaker match of two level teams (commissioners)"
    )
    @app_commands.describe(
        team_a="One of the two teams level after every tie-break step",
        team_b="The other team",
        venue="A neutral venue: neither team's home",
        toss="Who won the coin toss and is HOME; left out, the bot tosses the coin",
        league=LEAGUE_OPTION,
    )
    @app_commands.choices(toss=TOSS_CHOICES)
    @app_commands.autocomplete(team_a=team_autocomplete, team_b=team_autocomplete, venue=venue_autocomplete)
    @replies(ephemeral=False)
    async def tiebreaker(
        self,
        interaction: discord.Interaction,
        team_a: str,
        team_b: str,
        venue: str,
        toss: app_commands.Choice[str] | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        scheduled = await self.bot.services.standings.schedule_tiebreaker(
            actor_from(interaction),
            league,
            team_a=team_a,
            team_b=team_b,
            venue_name=venue,
            toss=toss.value if toss else None,
        )
        return Reply(embeds=[tiebreaker_scheduled_embed(scheduled)], ephemeral=False)

    @app_commands.command(name="show", description="Show the season's matches and results, or its nights")
    @app_commands.describe(
        team="Team leagues: only this team's matches",
        week="Only this week (team leagues' default: the current week)",
        league=LEAGUE_OPTION,
    )
    @app_commands.autocomplete(team=team_autocomplete)
    @replies(ephemeral=True)
    async def show(
        self,
        interaction: discord.Interaction,
        team: str | None = None,
        week: app_commands.Range[int, 1, MAX_WEEKS] | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        schedule = await self.bot.services.league_schedule.show(
            actor_from(interaction), league, team_name=team, week=week
        )
        return Reply(embeds=[schedule.format.schedule_embed(schedule.view)])

    @app_commands.command(name="ics", description="Download matches as a calendar file (iCalendar, .ics)")
    @app_commands.describe(
        team="Only this team's matches",
        player="Only the matches of this player's teams",
        league=LEAGUE_OPTION,
    )
    @app_commands.autocomplete(team=team_autocomplete)
    @replies(ephemeral=True)
    async def ics(
        self,
        interaction: discord.Interaction,
        team: str | None = None,
        player: discord.Member | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        calendar = await self.bot.services.exports.calendar(
            actor_from(interaction), league, team_name=team, member_id=player.id if player else None
        )
        return Reply(calendar_ready(calendar), files=[export_file(calendar)])


async def setup(bot: LeagueBot) -> None:
    await bot.add_cog(ScheduleCommands(bot))
