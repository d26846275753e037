"""/playoffs: seed the conference brackets from the final standings and show them (TEAM-PO-1)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import LeagueBot
from bot.interactions import Reply, answer
from bot.render.playoffs import playoffs_embed
from cogs._shared import LEAGUE_OPTION, actor_from, league_autocomplete


@app_commands.guild_only()
class PlayoffCommands(commands.GroupCog, group_name="playoffs", group_description="The season's playoffs"):
    def __init__(self, bot: LeagueBot) -> None:
        self.bot = bot

    @app_commands.command(name="seed", description="Seed the playoffs from the final standings (commissioners)")
    @app_commands.describe(
        start="First day of the first playoff week, YYYY-MM-DD (default: the day after the last regular match)",
        league=LEAGUE_OPTION,
    )
    @app_commands.autocomplete(league=league_autocomplete)
    async def seed(self, interaction: discord.Interaction, start: str | None = None, league: str | None = None) -> None:
        async def work() -> Reply:
            view = await self.bot.services.playoffs.seed(actor_from(interaction), league, start=start)
            headline = f"Seeded. {len(view.created)} first-round matches scheduled; the higher seed is HOME."
            return Reply(embeds=[playoffs_embed(view, headline=headline)], ephemeral=False)

        await answer(interaction, work(), ephemeral=False)

    @app_commands.command(name="show", description="Show the playoff brackets")
    @app_commands.describe(league=LEAGUE_OPTION)
    @app_commands.autocomplete(league=league_autocomplete)
    async def show(self, interaction: discord.Interaction, league: str | None = None) -> None:
        async def work() -> Reply:
            return Reply(
                embeds=[playoffs_embed(await self.bot.services.playoffs.show(actor_from(interaction), league))]
            )

        await answer(interaction, work(), ephemeral=True)


async def setup(bot: LeagueBot) -> None:
    await bot.add_cog(PlayoffCommands(bot))
