"""/team: the teams of a team-format league."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import LeagueBot
from bot.interactions import Reply
from bot.render import setup as render
from bot.services.team.teams import WEEKDAYS
from cogs._shared import LEAGUE_OPTION, LeagueOption, actor_from, replies, venue_autocomplete

EVENING_CHOICES = [app_commands.Choice(name=day, value=number) for number, day in enumerate(WEEKDAYS)]


@app_commands.guild_only()
class TeamCommands(commands.GroupCog, group_name="team", group_description="Teams of the league"):
    def __init__(self, bot: LeagueBot) -> None:
        self.bot = bot

    @app_commands.command(name="create", description="Create a team (commissioners)")
    @app_commands.describe(
        name="The team's name",
        home_venue="Where it plays home matches",
        evening="The evening it plays its matches (team leagues)",
        conference="Its conference, if the league has several (created on first use)",
        league=LEAGUE_OPTION,
    )
    @app_commands.choices(evening=EVENING_CHOICES)
    @app_commands.autocomplete(home_venue=venue_autocomplete)
    @replies(ephemeral=True)
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 100],
        home_venue: str | None = None,
        evening: app_commands.Choice[int] | None = None,
        conference: app_commands.Range[str, 1, 40] | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        team = await self.bot.services.teams.create(
            actor_from(interaction),
            league,
            name=name,
            home_venue=home_venue,
            evening=evening.value if evening else None,
            conference=conference,
        )
        return Reply(render.team_created(team, home_venue))


async def setup(bot: LeagueBot) -> None:
    await bot.add_cog(TeamCommands(bot))
