"""/season: start the league's next season from the last one (COMMON-SEASON-1), date its post-season
(COMMON-SEASON-2)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import LeagueBot
from bot.interactions import Reply
from bot.render import setup as render
from cogs._shared import LEAGUE_OPTION, LeagueOption, actor_from, replies


@app_commands.guild_only()
class SeasonCommands(commands.GroupCog, group_name="season", group_description="A league's seasons"):
    def __init__(self, bot: LeagueBot) -> None:
        self.bot = bot

    @app_commands.command(name="new", description="Start the next season from the last one (commissioners)")
    @app_commands.describe(
        override="Start it even though the current season is not complete",
        league=LEAGUE_OPTION,
    )
    @replies(ephemeral=False)
    async def new(self, interaction: discord.Interaction, override: bool = False, league: LeagueOption = None) -> Reply:
        started = await self.bot.services.seasons.start_next(actor_from(interaction), league, override=override)
        return Reply(render.season_started(started), ephemeral=False)

    @app_commands.command(name="postseason", description="Set the first day of the playoffs or finals (commissioners)")
    @app_commands.describe(
        date="The post-season's first day, YYYY-MM-DD",
        weekday="The weekday it was announced for, e.g. Tuesday: checked against the date (field leagues)",
        league=LEAGUE_OPTION,
    )
    @replies(ephemeral=False)
    async def postseason(
        self, interaction: discord.Interaction, date: str, weekday: str | None = None, league: LeagueOption = None
    ) -> Reply:
        shown = await self.bot.services.seasons.set_postseason(
            actor_from(interaction), league, day=date, weekday=weekday
        )
        return Reply(render.postseason_dated(shown), ephemeral=False)


async def setup(bot: LeagueBot) -> None:
    await bot.add_cog(SeasonCommands(bot))
