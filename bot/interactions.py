"""Answering an interaction inside Discord's 3-second deadline.

`answer` runs the work and replies directly when it finishes quickly; if it is still running after
DEFER_AFTER seconds it defers (the token then lives 15 minutes) and sends the reply as a followup.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable
from dataclasses import dataclass, field

import discord

from bot.interaction_claims import InteractionClaims

DEFER_AFTER = 1.5  # seconds; leaves room for gateway latency inside Discord's 3 s
DEFERRED_EPHEMERAL = "pinleague.deferred_ephemeral"  # key in Interaction.extras


@dataclass
class Reply:
    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    ephemeral: bool = True
    view: discord.ui.View | None = None  # buttons under the reply


async def answer(interaction: discord.Interaction, work: Awaitable[Reply], *, ephemeral: bool) -> None:
    """Reply with the result of `work`; `ephemeral` must be known before the work ends, in case we defer.

    A second delivery of the same interaction (a replay, or another process of the bot) does nothing."""
    claims: InteractionClaims | None = getattr(interaction.client, "claims", None)
    if claims is not None and not await claims.claim(interaction.id):
        if inspect.iscoroutine(work):
            work.close()  # never started: the first delivery does the work and answers
        return
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done:
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        interaction.extras[DEFERRED_EPHEMERAL] = ephemeral
    reply = await task  # a Refusal raised here reaches the tree's error handler
    view = reply.view if reply.view is not None else discord.utils.MISSING
    if interaction.response.is_done():
        await interaction.followup.send(reply.content or "", embeds=reply.embeds, ephemeral=reply.ephemeral, view=view)
    else:
        await interaction.response.send_message(
            reply.content, embeds=reply.embeds, ephemeral=reply.ephemeral, view=view
        )
