"""/highscores: the league's high-score table (TEAM-HS-*)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import LeagueBot
from bot.interactions import Reply
from bot.render.team.highscores import highscores_embed
from cogs._shared import LEAGUE_OPTION, LeagueOption, actor_from, replies


@app_commands.guild_only()
class HighScoreCommands(commands.Cog):
    def __init__(self, bot: LeagueBot) -> None:
        self.bot = bot

    @app_commands.command(name="highscores", description="High scores per conference and machine model, all seasons")
    @app_commands.describe(league=LEAGUE_OPTION)
    @replies(ephemeral=True)
    async def highscores(self, interaction: discord.Interaction, league: LeagueOption = None) -> Reply:
        found, lines = await self.bot.services.highscores.table(actor_from(interaction), league)
        return Reply(embeds=[highscores_embed(found.name, lines)])


async def setup(bot: LeagueBot) -> None:
    await bot.add_cog(HighScoreCommands(bot))
