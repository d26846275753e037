"""/standings for every format: the embed of whichever format's standings the league has. Pure: data in, Embed out."""

from __future__ import annotations

import discord

from bot.services.league_standings import LeagueTable

TITLE_LIMIT = 256  # Discord's longest embed title
HYPOTHETICAL = (
    "Hypothetical: computed for you under other options, never stored. The league's real table: /standings "
    "without what-if"
)


def league_standings_embed(table: LeagueTable) -> discord.Embed:
    """The format's table under the season it belongs to and where that season stands ("Season 1 (complete)");
    a what-if table says so in its title and footer."""
    embed = table.format.standings_embed(table.view).set_author(name=table.season.label)
    if table.what_if:
        embed.title = f"🔮 What if: {table.what_if} — {embed.title}"[:TITLE_LIMIT]
        kept = f" · {embed.footer.text}" if embed.footer.text else ""
        embed.set_footer(text=HYPOTHETICAL + kept)
    return embed
