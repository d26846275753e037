"""/schedule: generate the team season's schedule and read it (TEAM-SCHED-1)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import LeagueBot
from bot.interactions import Reply, answer
from bot.render.schedule import generated_embed, schedule_embed
from bot.services.schedule import MAX_WEEKS
from cogs._shared import LEAGUE_OPTION, actor_from, bot_of, league_autocomplete, matching


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
    @app_commands.autocomplete(league=league_autocomplete)
    async def generate(
        self,
        interaction: discord.Interaction,
        weeks: app_commands.Range[int, 1, MAX_WEEKS],
        start: str,
        league: str | None = None,
    ) -> None:
        async def work() -> Reply:
            season = await self.bot.services.schedule.generate(
                actor_from(interaction), league, weeks=weeks, start=start
            )
            return Reply(embeds=[generated_embed(season)], ephemeral=False)

        await answer(interaction, work(), ephemeral=False)

    @app_commands.command(name="show", description="Show the season's matches and results")
    @app_commands.describe(
        team="Only this team's matches", week="Only this week (default: the current week)", league=LEAGUE_OPTION
    )
    @app_commands.autocomplete(team=team_autocomplete, league=league_autocomplete)
    async def show(
        self,
        interaction: discord.Interaction,
        team: str | None = None,
        week: app_commands.Range[int, 1, MAX_WEEKS] | None = None,
        league: str | None = None,
    ) -> None:
        async def work() -> Reply:
            view = await self.bot.services.schedule.show(actor_from(interaction), league, team_name=team, week=week)
            return Reply(embeds=[schedule_embed(view)])

        await answer(interaction, work(), ephemeral=True)


async def setup(bot: LeagueBot) -> None:
    await bot.add_cog(ScheduleCommands(bot))
