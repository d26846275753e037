"""/venue and /machine: where the league plays and on what."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import LeagueBot
from bot.interactions import Reply
from bot.render import ratings as ratings_render
from bot.render import setup as render
from bot.rules.setup import MachineStatus
from cogs._shared import LEAGUE_OPTION, MAX_CHOICES, LeagueOption, actor_from, bot_of, replies, venue_autocomplete

STATUS_CHOICES = [
    app_commands.Choice(name=status.value.replace("_", " "), value=status.value) for status in MachineStatus
]


async def machine_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    league = getattr(interaction.namespace, "league", None)
    choices = await bot_of(interaction).services.venues.machine_choices(interaction.guild_id or 0, league)
    typed = current.casefold().strip()
    return [
        app_commands.Choice(name=label[:100], value=machine_id)
        for machine_id, label in choices
        if typed in label.casefold()
    ][:MAX_CHOICES]


@app_commands.guild_only()
class VenueCommands(commands.GroupCog, group_name="venue", group_description="Venues where the league plays"):
    def __init__(self, bot: LeagueBot) -> None:
        self.bot = bot

    @app_commands.command(name="add", description="Add a venue (commissioners)")
    @app_commands.describe(
        name="The venue's name",
        address="Street address, shown to players",
        regular="A regular league venue (default yes): playoff venues are chosen among these",
        league=LEAGUE_OPTION,
    )
    @replies(ephemeral=True)
    async def add(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 100],
        address: app_commands.Range[str, 1, 200] | None = None,
        regular: bool = True,
        league: LeagueOption = None,
    ) -> Reply:
        venue = await self.bot.services.venues.add_venue(
            actor_from(interaction), league, name=name, address=address, regular=regular
        )
        return Reply(render.venue_added(venue))

    @app_commands.command(name="regular", description="Mark a venue as a regular league venue or not (commissioners)")
    @app_commands.describe(venue="The venue", regular="Whether it is a regular league venue", league=LEAGUE_OPTION)
    @app_commands.autocomplete(venue=venue_autocomplete)
    @replies(ephemeral=True)
    async def regular(
        self, interaction: discord.Interaction, venue: str, regular: bool, league: LeagueOption = None
    ) -> Reply:
        changed = await self.bot.services.venues.set_regular(
            actor_from(interaction), league, venue_name=venue, regular=regular
        )
        return Reply(render.venue_regular_set(changed))

    @app_commands.command(name="show", description="A venue's record: home teams and its machines over time")
    @app_commands.describe(venue="The venue", league=LEAGUE_OPTION)
    @app_commands.autocomplete(venue=venue_autocomplete)
    @replies(ephemeral=True)
    async def show(self, interaction: discord.Interaction, venue: str, league: LeagueOption = None) -> Reply:
        record = await self.bot.services.venues.record(actor_from(interaction), league, venue)
        return Reply(embeds=[render.venue_record(record)])


@app_commands.guild_only()
class MachineCommands(commands.GroupCog, group_name="machine", group_description="Machines at the venues"):
    def __init__(self, bot: LeagueBot) -> None:
        self.bot = bot

    @app_commands.command(name="add", description="Add a machine at a venue (commissioners)")
    @app_commands.describe(
        venue="The venue it stands in",
        model="The game's title, e.g. Godzilla",
        variant="Pro, Premium, LE… (kept apart from the title; same family)",
        players="How many players it takes at once",
        balls="Balls per game",
        league=LEAGUE_OPTION,
    )
    @app_commands.autocomplete(venue=venue_autocomplete)
    @replies(ephemeral=True)
    async def add(
        self,
        interaction: discord.Interaction,
        venue: str,
        model: app_commands.Range[str, 1, 100],
        variant: app_commands.Range[str, 1, 40] | None = None,
        players: int = 4,
        balls: int = 3,
        league: LeagueOption = None,
    ) -> Reply:
        machine, where = await self.bot.services.venues.add_machine(
            actor_from(interaction),
            league,
            venue_name=venue,
            model=model,
            variant=variant,
            max_players=players,
            balls=balls,
        )
        return Reply(render.machine_added(machine, where))

    @app_commands.command(name="status", description="Take a machine out of service or put it back (commissioners)")
    @app_commands.describe(machine="The machine (type to search)", status="Its new status", league=LEAGUE_OPTION)
    @app_commands.choices(status=STATUS_CHOICES)
    @app_commands.autocomplete(machine=machine_autocomplete)
    @replies(ephemeral=True)
    async def status(
        self,
        interaction: discord.Interaction,
        machine: int,
        status: app_commands.Choice[str],
        league: LeagueOption = None,
    ) -> Reply:
        changed = await self.bot.services.venues.set_machine_status(
            actor_from(interaction), league, machine_id=machine, status=status.value
        )
        return Reply(render.machine_status_changed(changed))

    @app_commands.command(name="remove", description="A machine has left its venue (commissioners)")
    @app_commands.describe(
        machine="The machine (type to search)",
        on="The day it left, YYYY-MM-DD (default today)",
        league=LEAGUE_OPTION,
    )
    @app_commands.autocomplete(machine=machine_autocomplete)
    @replies(ephemeral=True)
    async def remove(
        self,
        interaction: discord.Interaction,
        machine: int,
        on: app_commands.Range[str, 1, 10] | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        removed, venue, day = await self.bot.services.venues.remove_machine(
            actor_from(interaction), league, machine_id=machine, on=on
        )
        return Reply(render.machine_removed(removed, venue, day))

    @app_commands.command(name="stats", description="A machine's plays, median and best scores, and top players")
    @app_commands.describe(machine="The machine (type to search)", league=LEAGUE_OPTION)
    @app_commands.autocomplete(machine=machine_autocomplete)
    @replies(ephemeral=False)
    async def stats(self, interaction: discord.Interaction, machine: int, league: LeagueOption = None) -> Reply:
        stats = await self.bot.services.ratings.machine_stats(actor_from(interaction), league, machine)
        return Reply(embeds=[ratings_render.machine_stats(stats)], ephemeral=False)


async def setup(bot: LeagueBot) -> None:
    await bot.add_cog(VenueCommands(bot))
    await bot.add_cog(MachineCommands(bot))
