"""/ratings: the server's player ratings over every league's games, as a table and an image."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import LeagueBot
from bot.interactions import Reply
from bot.render import ratings as render
from cogs._shared import actor_from, replies


@app_commands.guild_only()
class RatingCommands(commands.Cog):
    def __init__(self, bot: LeagueBot) -> None:
        self.bot = bot

    @app_commands.command(name="ratings", description="Player ratings from every game played in this server's leagues")
    @replies(ephemeral=False)
    async def ratings(self, interaction: discord.Interaction) -> Reply:
        embed, image = render.ratings_table(await self.bot.services.ratings.table(actor_from(interaction)))
        return Reply(embeds=[embed], files=[image], ephemeral=False)


async def setup(bot: LeagueBot) -> None:
    await bot.add_cog(RatingCommands(bot))
