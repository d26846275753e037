"""/standings for every format: the embed of whichever format's standings the league has. Pure: data in, Embed out."""

from __future__ import annotations

import discord

from bot.render.field import replies as field
from bot.render.ladder import replies as ladder
from bot.render.team import standings
from bot.services.field.standings import FieldStandingsView
from bot.services.ladder.standings import LadderStandings
from bot.services.league_standings import AnyStandings


def league_standings_embed(view: AnyStandings) -> discord.Embed:
    if isinstance(view, LadderStandings):
        return ladder.standings_embed(view)
    if isinstance(view, FieldStandingsView):
        return field.standings_embed(view)
    return standings.standings_embed(view)
