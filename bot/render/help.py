"""/help's reply: who the member is in the league, what is due for them now, what they can do, and how a night
goes. Pure: data in, Embed out, within Discord's limits however much is due."""

from __future__ import annotations

import discord

from bot import formats
from bot.render.setup import EMBED_FIELD_MAX, LEAGUE_COLOUR
from bot.services.help import Due, LeagueHelp, Role

EMBED_MAX = 6000  # characters in all of an embed's texts (Discord)
DESCRIPTION_MAX = 4096
DUE_LINE_MAX = 300  # one item of "Due now", cut if longer: a name-heavy item must not crowd out the rest
MORE = "\n…and {} more"
ALL_COMMANDS = (
    "Discord lists every command as you type `/`; the full table, with who may use each command, is in "
    "pinleague's README (Commands), and `docs/` holds the league file's format."
)
PLAYING = {  # the commands shown for the member's part in the league: a captain plays too
    Role.CAPTAIN: [Role.CAPTAIN, Role.PLAYER],
    Role.PLAYER: [Role.PLAYER],
    Role.NEWCOMER: [Role.NEWCOMER],
}
PARTS = {
    Role.OFFICIAL: "As an official",
    Role.CAPTAIN: "As a captain",
    Role.PLAYER: "As a player",
    Role.NEWCOMER: "To get started",
}


def help_embed(view: LeagueHelp) -> discord.Embed:
    situation = view.situation
    parts, who = PLAYING[situation.role], f"You are {situation.described}."
    if view.official:  # an official who does not play needs no way in
        plays = situation.role is not Role.NEWCOMER
        parts = [Role.OFFICIAL, *(parts if plays else [])]
        who = f"You are one of {view.league}'s officials" + (f", and {situation.described}." if plays else ".")
    embed = discord.Embed(title=f"Help · {view.league}", colour=LEAGUE_COLOUR)
    for part in parts:
        if commands := view.guide.commands.get(part):
            embed.add_field(name=PARTS[part], value=_lines(commands), inline=False)
    night = situation.night or view.guide.night
    embed.add_field(name="How a night goes", value=night[:EMBED_FIELD_MAX], inline=False)
    embed.add_field(name="Every command", value=ALL_COMMANDS, inline=False)
    budget = min(DESCRIPTION_MAX, EMBED_MAX - len(embed) - 1)  # len(embed): every text counted so far
    embed.description = _with_due(who, situation.due, budget)
    return embed


def no_league_embed(*, may_create: bool) -> discord.Embed:
    choices = "\n".join(f"• {fmt.choice}" for fmt in formats.registered())
    who = (
        "You can start one now"
        if may_create
        else "A server admin (Administrator or Manage Server) starts one; ask one of them"
    )
    return discord.Embed(
        title="Help · no league here yet",
        description=(
            f"This server runs no league yet. {who} with `/league create name format`, in one of these formats:\n"
            f"{choices}\n\nThen add a venue (`/venue add`) and its machines (`/machine add`), and `/help` will show "
            "what each member can do."
        ),
        colour=LEAGUE_COLOUR,
    )


def _with_due(who: str, due: tuple[Due, ...], budget: int) -> str:
    """The member's part, then as many due items as fit in `budget` characters, and how many more there are."""
    if not due:
        return f"{who}\n\nNothing is due for you right now. `/standings` shows the league table."
    text = f"{who}\n\n**Due now**"
    for shown, item in enumerate(due):
        line = f"\n• {item.what} — {item.how}"
        if len(line) > DUE_LINE_MAX:
            line = line[: DUE_LINE_MAX - 1] + "…"
        if len(text) + len(line) > budget - len(MORE.format(len(due))):
            return text + MORE.format(len(due) - shown)
        text += line
    return text


def _lines(commands: tuple[str, ...]) -> str:
    return "\n".join(f"• {command}" for command in commands)[:EMBED_FIELD_MAX]
