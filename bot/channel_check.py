"""The bot's own permissions in a league's channels, read from the gateway cache: discord.py computes them from
the guild's roles, the bot's roles and each channel's overwrites, as Discord does. What each channel needs is
`bot.rules.channel_access`; `/posts channels` shows what is missing, and at start the commissioners are told once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.render.posts import Outgoing
from bot.rules import channel_access as access
from bot.rules.posts import Channel
from bot.services.posts import Posting

if TYPE_CHECKING:
    from bot.client import LeagueBot

log = logging.getLogger(__name__)

KIND = "missing_permissions"  # the claim of the start-up notice: once per channel and set of missing permissions
ALL_GOOD = "The bot may post in every channel named. `/posts upcoming` lists what goes out next."


@dataclass(frozen=True)
class ChannelProblem:
    channel_id: int
    lacking: tuple[access.Need, ...]  # empty when the bot cannot find the channel at all

    def line(self) -> str:
        where = f"<#{self.channel_id}>"
        return access.missing_line(where, list(self.lacking)) if self.lacking else access.unknown_line(where)

    def key(self) -> str:
        return f"{self.channel_id}:{sum(need.bit for need in self.lacking) or 'gone'}"


def problems(bot: discord.Client, posting: Posting) -> list[ChannelProblem]:
    """What the bot lacks in each channel the league named (a channel named for several purposes is checked once)."""
    purposes: dict[int, list[Channel]] = {}
    for purpose in Channel:
        channel_id = posting.channel_id(purpose)
        if channel_id is not None:
            purposes.setdefault(channel_id, []).append(purpose)
    found = []
    for channel_id, used_for in purposes.items():
        channel = bot.get_channel(channel_id)
        if not isinstance(channel, discord.abc.GuildChannel):
            found.append(ChannelProblem(channel_id, ()))
            continue
        lacking = access.missing(used_for, channel.permissions_for(channel.guild.me).value)
        if lacking:
            found.append(ChannelProblem(channel_id, tuple(lacking)))
    return found


def report(posting: Posting, found: list[ChannelProblem]) -> str:
    """The lines a commissioner reads, with the next step."""
    lines = "\n".join(f"• {problem.line()}" for problem in found)
    return (
        f"⚠️ The bot is missing permissions in the channels of **{posting.league.name}**:\n{lines}\n"
        "Fix them in the channel's settings → Permissions (the bot's role), then run `/posts channels` again to check."
    )


async def tell_commissioners(bot: LeagueBot) -> None:
    """At start: each league whose channels lack something is told in its commissioners channel, once for the same
    problems (claimed like a post, so reconnects and restarts do not repeat it; new problems are told anew)."""
    for posting in await bot.services.posts.postings():
        if not bot.settings.serves_guild(posting.league.guild_id):
            continue  # a guild on another process's shard: not in this cache, its channels would look gone
        found = problems(bot, posting)
        if not found:
            continue
        league_id = posting.league.id or 0
        log.warning("league %s: %s", league_id, "; ".join(problem.line() for problem in found))
        period = " ".join(problem.key() for problem in found)[:80]
        await bot.posts.claim_and_send(league_id, KIND, period, Channel.COMMISSIONERS, Outgoing(report(posting, found)))
