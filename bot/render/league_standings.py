"""/standings for every format: the embed of whichever format's standings the league has. Pure: data in, Embed out."""

from __future__ import annotations

import discord

from bot.services.league_standings import LeagueTable


def league_standings_embed(table: LeagueTable) -> discord.Embed:
    """The format's table under the season it belongs to and where that season stands ("Season 1 (complete)")."""
    return table.format.standings_embed(table.view).set_author(name=table.season.label)
