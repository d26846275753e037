"""/standings: the team league's tables, per conference (TEAM-STAND-1..3, TEAM-CFG-1)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import LeagueBot
from bot.interactions import Reply, answer
from bot.render.exchange import export_file
from bot.render.standings import standings_embed
from cogs._shared import LEAGUE_OPTION, actor_from, bot_of, league_autocomplete, matching


async def conference_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    league = getattr(interaction.namespace, "league", None)
    names = await bot_of(interaction).services.standings.conference_names(interaction.guild_id or 0, league)
    return matching(names, current)


class StandingsCommands(commands.Cog):
    def __init__(self, bot: LeagueBot) -> None:
        self.bot = bot

    @app_commands.command(name="standings", description="The league table: record, win %, match points")
    @app_commands.describe(
        conference="Only this conference (default: every conference)",
        export="Also attach the table as CSV and IFPA-ready results CSVs (sent only to you)",
        league=LEAGUE_OPTION,
    )
    @app_commands.autocomplete(conference=conference_autocomplete, league=league_autocomplete)
    @app_commands.guild_only()
    async def standings(
        self,
        interaction: discord.Interaction,
        conference: str | None = None,
        export: bool = False,
        league: str | None = None,
    ) -> None:
        async def work() -> Reply:
            view = await self.bot.services.standings.table(actor_from(interaction), league, conference=conference)
            if export:
                files = await self.bot.services.exports.standings_files(actor_from(interaction), view)
                return Reply(embeds=[standings_embed(view)], files=[export_file(file) for file in files])
            return Reply(embeds=[standings_embed(view)], ephemeral=False)

        await answer(interaction, work(), ephemeral=not export)


async def setup(bot: LeagueBot) -> None:
    await bot.add_cog(StandingsCommands(bot))
