"""/player: registering members as players."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import LeagueBot
from bot.interactions import Reply, answer
from bot.render import ratings as ratings_render
from bot.render import setup as render
from bot.services.players import Member
from cogs._shared import LEAGUE_OPTION, LeagueOption, actor_from, replies


@app_commands.guild_only()
class PlayerCommands(commands.GroupCog, group_name="player", group_description="Players of the league"):
    def __init__(self, bot: LeagueBot) -> None:
        self.bot = bot

    @app_commands.command(name="register", description="Register a member as a player (commissioners)")
    @app_commands.describe(
        member="The Discord member",
        ifpa_number="Their IFPA player number, if they have one",
        ifpa_rank="Their current IFPA world rank (team leagues limit top-ranked players)",
        league=LEAGUE_OPTION,
    )
    @replies(ephemeral=True)
    async def register(
        self,
        interaction: discord.Interaction,
        member: discord.Member,
        ifpa_number: int | None = None,
        ifpa_rank: int | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        player, joined = await self.bot.services.players.register(
            actor_from(interaction),
            league,
            member=Member(user_id=member.id, display_name=member.display_name, is_bot=member.bot),
            ifpa_number=ifpa_number,
            ifpa_rank=ifpa_rank,
        )
        return Reply(render.player_registered(player, joined.name))

    @app_commands.command(name="profile", description="A player's rating, games and best scores on each machine")
    @app_commands.describe(
        member="Whose profile (default: yours)", public="Show it to the channel instead of only to you"
    )
    async def profile(
        self, interaction: discord.Interaction, member: discord.Member | None = None, public: bool = False
    ) -> None:
        """Private unless asked: a profile is one person's details, shown to the channel only on purpose."""
        whose = member or interaction.user

        async def work() -> Reply:
            view = await self.bot.services.ratings.profile(actor_from(interaction), whose.id, whose.display_name)
            embed, trend = ratings_render.profile(view)
            return Reply(embeds=[embed], files=[trend] if trend else [], ephemeral=not public)

        await answer(interaction, work(), ephemeral=not public)


async def setup(bot: LeagueBot) -> None:
    await bot.add_cog(PlayerCommands(bot))
