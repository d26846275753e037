"""/standings: the league's table in its format's shape: team conferences (TEAM-STAND-1..3, TEAM-CFG-1),
ladder TLP standings (LADDER-STAND-1/2), the field season table (FIELD-STAND-1)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import LeagueBot
from bot.interactions import Reply, answer
from bot.render.exchange import export_file
from bot.render.league_standings import league_standings_embed
from bot.rules.refusals import InvalidInput
from cogs._shared import LEAGUE_OPTION, SEASON_OPTION, LeagueOption, actor_from, bot_of, matching, season_autocomplete


async def what_if_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    league = getattr(interaction.namespace, "league", None)
    names = await bot_of(interaction).services.league_standings.what_if_names(interaction.guild_id or 0, league)
    return matching(names, current)


async def conference_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    league = getattr(interaction.namespace, "league", None)
    names = await bot_of(interaction).services.standings.conference_names(interaction.guild_id or 0, league)
    return matching(names, current)


class StandingsCommands(commands.Cog):
    def __init__(self, bot: LeagueBot) -> None:
        self.bot = bot

    @app_commands.command(name="standings", description="The league table, whichever format the league plays")
    @app_commands.describe(
        conference="Team leagues: only this conference (default: every conference)",
        export="Also attach the table as CSV and IFPA-ready results CSVs (sent only to you)",
        season=SEASON_OPTION,
        what_if="The table under other options, e.g. no dropped weeks (only you see it; nothing is stored)",
        league=LEAGUE_OPTION,
    )
    @app_commands.rename(what_if="what-if")
    @app_commands.autocomplete(conference=conference_autocomplete, what_if=what_if_autocomplete)
    @app_commands.autocomplete(season=season_autocomplete)
    @app_commands.guild_only()
    async def standings(
        self,
        interaction: discord.Interaction,
        conference: str | None = None,
        export: bool = False,
        season: app_commands.Range[int, 1] | None = None,
        what_if: app_commands.Range[str, 1, 200] | None = None,
        league: LeagueOption = None,
    ) -> None:
        async def work() -> Reply:
            actor = actor_from(interaction)
            if export and what_if:
                raise InvalidInput("The export is the league's real table: leave out `what-if`, or `export`.")
            table = await self.bot.services.league_standings.view(
                actor, league, conference=conference, season=season, what_if=what_if
            )
            embed = league_standings_embed(table)
            if export:
                exported = await self.bot.services.exports.standings_files(actor, table)
                files = [export_file(file) for file in exported.files]
                return Reply(exported.waiting, embeds=[embed], files=files)
            return Reply(embeds=[embed], ephemeral=what_if is not None)

        # the export's files and a what-if table go to the caller alone
        await answer(interaction, work(), ephemeral=export or what_if is not None)


async def setup(bot: LeagueBot) -> None:
    await bot.add_cog(StandingsCommands(bot))
