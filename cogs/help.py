"""/help: what the member can do in the league and what is due for them now, only to them (DESIGN.md §2c)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import LeagueBot
from bot.interactions import Reply
from bot.render.help import help_embed, no_league_embed
from cogs._shared import LEAGUE_OPTION, LeagueOption, actor_from, replies


class HelpCommands(commands.Cog):
    def __init__(self, bot: LeagueBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What you can do in the league, and what is due for you now")
    @app_commands.describe(league=LEAGUE_OPTION)
    @app_commands.guild_only()
    @replies(ephemeral=True)
    async def help(self, interaction: discord.Interaction, league: LeagueOption = None) -> Reply:
        actor = actor_from(interaction)
        view = await self.bot.services.help.for_member(actor, league)
        embed = no_league_embed(may_create=actor.is_admin) if view is None else help_embed(view)
        return Reply(embeds=[embed])


async def setup(bot: LeagueBot) -> None:
    await bot.add_cog(HelpCommands(bot))
