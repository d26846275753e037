"""Ratings and stats as embeds and PNGs. Pure: the service's views in, embeds and pictures out.

A rating shows as its conservative value (mean less three sigma, what the table sorts by) beside the mean and
its uncertainty, so a newcomer with one lucky night does not top the table.
"""

from __future__ import annotations

import io
from functools import lru_cache

import discord

from bot.render import images
from bot.services.ratings import MachineStats, Profile, RatedPlayer, RatingsTable

FIELD_MAX = 1024
PROFILE_MACHINES = 10
TRENDS_KEPT = 512  # pictures of ~15 kB: a server's players, a few times over


def _score(value: float) -> str:
    return f"{round(value):,}"


def _rating(player: RatedPlayer) -> str:
    rating = player.rating
    flag = " (provisional)" if rating.provisional else ""
    return f"{rating.conservative:.1f} (μ {rating.mu:.1f} ± {rating.sigma:.1f}){flag}"


def ratings_table(table: RatingsTable) -> tuple[discord.Embed, discord.File]:
    """`/ratings`: the table as an embed (read by screen readers) and the same rows as an image."""
    embed = discord.Embed(title="🎯 Player ratings", colour=discord.Colour.blurple())
    lines = [f"{row.place}. **{row.name}** {_rating(row)} · {row.rating.games} games" for row in table.rows]
    embed.description = "\n".join(lines)[:4096]
    shown = f"top {len(table.rows)} of " if len(table.rows) < table.players else ""
    embed.set_footer(
        text=f"{shown}{table.players} players · {table.games} games rated · "
        "provisional: too few games to be sure · `/player profile` for anyone's details"
    )
    rows = tuple(
        (
            str(row.place),
            row.name + (" *" if row.rating.provisional else ""),
            f"{row.rating.conservative:.1f}",
            f"{row.rating.mu:.1f}±{row.rating.sigma:.1f}",
            str(row.rating.games),
        )
        for row in table.rows
    )
    picture = images.table("Player ratings (* provisional)", ("#", "Player", "Rating", "Skill", "Games"), rows,
                           widths=(0.8, 4.0, 1.4, 1.8, 1.2))  # fmt: skip
    embed.set_image(url="attachment://ratings.png")
    return embed, discord.File(io.BytesIO(picture.png), filename="ratings.png")


def profile(view: Profile) -> tuple[discord.Embed, discord.File | None]:
    """`/player profile`: rating with uncertainty, games played, per-machine averages and bests, and the trend
    as an image once there are two nights to join."""
    player = view.player
    embed = discord.Embed(title=f"🎯 {player.name}", colour=discord.Colour.blurple())
    embed.description = (
        f"Rating **{_rating(player)}** · #{player.place} on this server · {player.rating.games} games played"
    )
    lines = [
        f"**{line.machine}**: {line.plays} plays · avg {_score(line.average)} · best {line.best:,}"
        for line in view.machines[:PROFILE_MACHINES]
    ]
    embed.add_field(name="Machines", value="\n".join(lines)[:FIELD_MAX] or "none yet", inline=False)
    embed.set_footer(text="`/ratings` for the whole table · `/machine stats` for a machine's best")
    if len(view.trend) < 2:
        return embed, None
    recent = " → ".join(f"{value:.1f}" for _, value in view.trend[-6:])
    embed.add_field(name="Rating after each night (latest six)", value=recent, inline=False)
    labels = tuple(f"{day:%d %b %Y}" for day, _ in view.trend)
    picture = _trend(f"{player.name} - rating", labels, tuple(value for _, value in view.trend))
    embed.set_image(url="attachment://trend.png")
    return embed, discord.File(io.BytesIO(picture.png), filename="trend.png")


@lru_cache(maxsize=TRENDS_KEPT)
def _trend(title: str, labels: tuple[str, ...], values: tuple[float, ...]) -> images.Picture:
    """A trend's picture, drawn once while it stays the same: a PNG takes ~80 ms, and a player's trend changes
    only when a game of theirs is rated."""
    return images.trend(title, labels, values)


def machine_stats(stats: MachineStats) -> discord.Embed:
    """`/machine stats`: plays, median and best scores, and the best players on the machine."""
    embed = discord.Embed(title=f"🕹️ {stats.machine}", colour=discord.Colour.blurple())
    embed.description = f"{stats.plays} plays · median {_score(stats.median)} · best {stats.best:,} by {stats.best_by}"
    top = [f"{n}. **{name}** {best:,} ({plays} plays)" for n, (name, best, plays) in enumerate(stats.top, start=1)]
    embed.add_field(name="Top players (best score)", value="\n".join(top)[:FIELD_MAX], inline=False)
    embed.set_footer(text="`/player profile` for a player's averages on every machine")
    return embed
