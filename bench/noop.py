"""`/noop`: a command that does nothing through the same path as every other (answer(), the claim), loaded
only by the benchmark's bot, so its latency is the floor the other commands are compared with."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.interactions import Reply, answer


class Noop(commands.Cog):
    @app_commands.command(name="noop", description="Benchmark baseline: answers at once and reads nothing")
    async def noop(self, interaction: discord.Interaction) -> None:
        async def work() -> Reply:
            return Reply("ok")

        await answer(interaction, work(), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Noop())
