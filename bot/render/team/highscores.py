"""The high-score table. Pure: data in, Embed out."""

from __future__ import annotations

import discord

from bot.render.setup import LEAGUE_COLOUR
from bot.rules.scores import format_score
from bot.services.team.highscores import HighScoreLine

EMBED_FIELDS_MAX = 25


def highscores_embed(league_name: str, lines: list[HighScoreLine]) -> discord.Embed:
    embed = discord.Embed(title=f"{league_name} high scores", colour=LEAGUE_COLOUR)
    if not lines:
        embed.description = "No match games have been scored yet."
        return embed
    conferences = sorted({line.conference for line in lines})
    for conference in conferences[:EMBED_FIELDS_MAX]:
        rows = [
            f"**{line.model}**: {format_score(line.score)} · {line.player} (week {line.week})"
            for line in lines
            if line.conference == conference
        ]
        embed.add_field(name=conference or "All teams", value="\n".join(rows)[:1024], inline=False)
    return embed
