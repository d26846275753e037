"""/standings for every format: the embed of whichever format's standings the league has. Pure: data in, Embed out."""

from __future__ import annotations

import discord

from bot.render import field, ladder, standings
from bot.services.field_standings import FieldStandingsView
from bot.services.ladder_standings import LadderStandings
from bot.services.league_standings import AnyStandings


def league_standings_embed(view: AnyStandings) -> discord.Embed:
    if isinstance(view, LadderStandings):
        return ladder.standings_embed(view)
    if isinstance(view, FieldStandingsView):
        return field.standings_embed(view)
    return standings.standings_embed(view)
