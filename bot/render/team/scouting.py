"""`/match scout` as an embed. Pure: the scouting report in, an Embed out."""

from __future__ import annotations

import discord

from bot.render.setup import LEAGUE_COLOUR
from bot.rules.team.scouting import Record
from bot.services.team.scouting import ScoutedTeam, ScoutReport


def _record(record: Record) -> str:
    return f"{record.won}–{record.lost}"


def _field(scouted: ScoutedTeam) -> tuple[str, str]:
    name = f"{scouted.team}'s most-picked machines"
    if not scouted.machines:
        return name, f"No confirmed games on machines {scouted.team} picked yet ({scouted.matches} earlier matches)."
    lines = [
        f"**{line.machine}**: picked {line.picks}× · {scouted.team} {_record(line.record)} · "
        f"{scouted.versus} {_record(line.against)}"
        for line in scouted.machines
    ]
    return name, "\n".join(lines)


def scout_embed(report: ScoutReport) -> discord.Embed:
    embed = discord.Embed(
        title=f"🔎 Scouting {report.label}", description=f"{report.play_on:%a %Y-%m-%d}", colour=LEAGUE_COLOUR
    )
    for scouted in report.teams:
        name, value = _field(scouted)
        embed.add_field(name=name, value=value[:1024], inline=False)
    embed.set_footer(
        text="Picks: games a team chose the machine for, declaring first (TEAM-LINEUP-3) · records: games won–lost "
        "on it, whoever picked · declare with `/lineup` when the round opens"
    )
    return embed
