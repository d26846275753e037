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
    embed = table.format.standings_embed(table.view)
    if table.what_if:
        embed.title = f"🔮 What if: {table.what_if} — {embed.title}"[:TITLE_LIMIT]
        kept = f" · {embed.footer.text}" if embed.footer.text else ""
        embed.set_footer(text=HYPOTHETICAL + kept)
    return embed
