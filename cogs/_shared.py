"""What every cog needs: the acting member as plain data, the `league:` option, venue autocomplete, and the
answer for buttons and forms."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Coroutine
from typing import Any, cast

import discord
from discord import app_commands

from bot import errors
from bot.client import LeagueBot
from bot.interactions import Reply, answer
from bot.rules import setup as setup_rules
from bot.rules.refusals import Refusal
from bot.services.actor import Actor

LEAGUE_OPTION = "Which league (only needed when this server runs more than one)"
MAX_CHOICES = 25


def bot_of(interaction: discord.Interaction) -> LeagueBot:
    return cast(LeagueBot, interaction.client)


def actor_from(interaction: discord.Interaction) -> Actor:
    user = interaction.user
    permissions = interaction.permissions
    guild = interaction.guild
    is_owner = guild is not None and guild.owner_id == user.id
    roles = frozenset(role.id for role in user.roles) if isinstance(user, discord.Member) else frozenset()
    command = interaction.command.qualified_name if interaction.command else "?"
    return Actor(
        guild_id=interaction.guild_id or 0,
        user_id=user.id,
        display_name=user.display_name,
        role_ids=roles,
        is_admin=is_owner or permissions.administrator or permissions.manage_guild,
        command=f"/{command}",
    )


def matching(names: list[str], current: str) -> list[app_commands.Choice[str]]:
    typed = current.casefold().strip()
    hits = [name for name in names if typed in name.casefold()]
    return [app_commands.Choice(name=name[:100], value=name[:100]) for name in sorted(hits)[:MAX_CHOICES]]


class OptionRefused(app_commands.AppCommandError, Refusal):
    """A refusal while an option is resolved, before the command runs: as an AppCommandError it reaches the tree's
    error handler as it is (not wrapped in a TransformerError), and as a Refusal it is worded like any other."""


class LeagueName(app_commands.Transformer):
    """The `league:` option: suggests the server's leagues as members type and, since a member may send any
    text instead, accepts only one of them, passing on the name as stored."""

    async def autocomplete(  # type: ignore[override]  # narrower than the base: this option is a string
        self, interaction: discord.Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        return matching(await bot_of(interaction).services.leagues.names(interaction.guild_id or 0), value)

    async def transform(self, interaction: discord.Interaction, value: str) -> str | None:
        if not value.strip():
            return None  # as if left out: the service picks the server's only league
        names = await bot_of(interaction).services.leagues.names(interaction.guild_id or 0)
        try:
            return setup_rules.known_league(names, value)
        except Refusal as refusal:
            raise OptionRefused(refusal.message, rule_id=refusal.rule_id) from None


LeagueOption = app_commands.Transform[str | None, LeagueName]


async def venue_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    league = getattr(interaction.namespace, "league", None)
    names = await bot_of(interaction).services.venues.venue_names(interaction.guild_id or 0, league)
    return matching(names, current)


async def effective_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """A change's start date (COMMON-LEAGUE-2): the next week not yet played and the weeks after, by date."""
    league = getattr(interaction.namespace, "league", None)
    dates = await bot_of(interaction).services.leagues.effective_dates(interaction.guild_id or 0, league)
    typed = current.casefold().strip()
    return [
        app_commands.Choice(name=label, value=value)
        for label, value in dates
        if typed in label.casefold() or typed in value
    ]


SEASON_OPTION = "An earlier season, e.g. 1 (default: the current season)"


async def season_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    """The league's seasons as "Season 2 (complete)", latest first; the value is the season's number."""
    league = getattr(interaction.namespace, "league", None)
    seasons = await bot_of(interaction).services.seasons.choices(interaction.guild_id or 0, league)
    typed = current.casefold().strip()
    return [
        app_commands.Choice(name=shown.label[:100], value=shown.season.number)
        for shown in seasons
        if typed in shown.label.casefold()
    ][:MAX_CHOICES]


CommandBody = Callable[..., Coroutine[Any, Any, Reply]]
Command = Callable[..., Coroutine[Any, Any, Any]]  # what discord.py takes as a command callback


def replies(*, ephemeral: bool) -> Callable[[CommandBody], Command]:
    """For a cog's command whose body returns its Reply: `answer` runs the body inside Discord's deadline and
    sends the reply. `ephemeral`: the visibility of the Reply the body returns, since a deferral (if the body is
    slow) fixes the reply's visibility before the body ends."""

    def decorate(body: CommandBody) -> Command:
        @functools.wraps(body)
        async def command(cog: Any, interaction: discord.Interaction, /, **options: Any) -> None:
            await answer(interaction, body(cog, interaction, **options), ephemeral=ephemeral)

        # discord.py reads the options from this signature; annotations are resolved where the body is written.
        command.__signature__ = inspect.signature(body, eval_str=True)  # type: ignore[attr-defined]
        return command

    return decorate


async def answer_component(
    interaction: discord.Interaction, work: Coroutine[Any, Any, Reply], *, ephemeral: bool = False
) -> None:
    """`answer` for buttons and forms, whose errors never reach the command tree's handler."""
    try:
        await answer(interaction, work, ephemeral=ephemeral)
    except Exception as error:
        await errors.report(interaction, error)
