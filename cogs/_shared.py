"""What every cog needs: the acting member as plain data, and league/venue autocomplete."""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands

from bot.client import LeagueBot
from bot.services.actor import Actor

LEAGUE_OPTION = "Which league (only needed when this server runs more than one)"
MAX_CHOICES = 25


def bot_of(interaction: discord.Interaction) -> LeagueBot:
    return cast(LeagueBot, interaction.client)


def actor_from(interaction: discord.Interaction) -> Actor:
    user = interaction.user
    permissions = interaction.permissions
    guild = interaction.guild
    is_owner = guild is not None and guild.owner_id == user.id
    roles = frozenset(role.id for role in user.roles) if isinstance(user, discord.Member) else frozenset()
    command = interaction.command.qualified_name if interaction.command else "?"
    return Actor(
        guild_id=interaction.guild_id or 0,
        user_id=user.id,
        display_name=user.display_name,
        role_ids=roles,
        is_admin=is_owner or permissions.administrator or permissions.manage_guild,
        command=f"/{command}",
    )


def matching(names: list[str], current: str) -> list[app_commands.Choice[str]]:
    typed = current.casefold().strip()
    hits = [name for name in names if typed in name.casefold()]
    return [app_commands.Choice(name=name[:100], value=name[:100]) for name in sorted(hits)[:MAX_CHOICES]]


async def league_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return matching(await bot_of(interaction).services.leagues.names(interaction.guild_id or 0), current)


async def venue_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    league = getattr(interaction.namespace, "league", None)
    names = await bot_of(interaction).services.venues.venue_names(interaction.guild_id or 0, league)
    return matching(names, current)
