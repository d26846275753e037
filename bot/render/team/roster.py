"""Roster embeds. Pure: data in, Embed out."""

from __future__ import annotations

import discord

from bot.render.setup import LEAGUE_COLOUR
from bot.rules.team.strength import RosterStrength
from bot.services.team.rosters import RosterLine, RosterView
from storage.models import RosterRole

SECTIONS = ((RosterRole.CAPTAIN, "Captains"), (RosterRole.STARTER, "Starters"), (RosterRole.RESERVE, "Reserves"))


def roster_embed(view: RosterView, *, headline: str | None = None) -> discord.Embed:
    if view.on is None:
        state = f"Being put together: {len(view.lines)} players. Submit it with `/roster submit team:{view.team.name}`."
    else:
        state = f"In force on {view.on:%a %Y-%m-%d}: {len(view.lines)} players."
    embed = discord.Embed(
        title=f"{view.team.name} roster",
        description=f"{headline}\n{state}" if headline else state,
        colour=LEAGUE_COLOUR,
    )
    for role, title in SECTIONS:
        lines = [_line(line) for line in view.lines if line.role is role]
        embed.add_field(name=f"{title} ({len(lines)})", value="\n".join(lines) or "none", inline=False)
    if view.strength is not None:
        embed.add_field(name="Strength", value=_strength(view.strength), inline=False)
    return embed


def _strength(strength: RosterStrength) -> str:
    """TEAM-ROSTER-5's figures, then the mean rating of the rated players (`/ratings`)."""
    ifpa = " · ".join(f"IFPA top {f.threshold}: {f.inside} of max {f.allowed}" for f in strength.ifpa)
    if strength.mean_rating is None or strength.mean_skill is None:
        rating = "Ratings: nobody rated yet (ratings start with the first confirmed game)"
    else:
        rating = (
            f"Mean rating {strength.mean_rating:.1f} (μ {strength.mean_skill:.1f}) over {strength.rated} rated · "
            f"{strength.provisional} provisional · {strength.unrated} unrated"
        )
    return f"{ifpa}\n{rating}"


def _line(line: RosterLine) -> str:
    rank = f" · IFPA #{line.ifpa_rank:,}" if line.ifpa_rank else ""
    unconfirmed = " · ⚠️ adult not confirmed (`/roster edit`)" if line.player.adult_attested_at is None else ""
    return f"{line.player.display_name}{rank}{unconfirmed}"
