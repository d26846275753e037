"""Answering an interaction inside Discord's 3-second deadline.

`answer` runs the work and replies directly when it finishes quickly; if it is still running DEFER_AFTER
seconds after Discord created the interaction, or at once while the bot is busy with many others, it defers
(the token then lives 15 minutes) and sends the reply as a followup.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable
from dataclasses import dataclass, field

import discord

from bot.interaction_claims import InteractionClaims

DEFER_AFTER = 1.0  # seconds after Discord created the interaction; leaves room for latency inside its 3 s
# Answers being worked on beyond which a new one defers at once: in a burst, deferrals that all fall due
# together queue behind each other on the event loop, and the last would miss the 3 s.
BUSY = 8
_in_flight: set[asyncio.Future[Reply | None]] = set()
DEFERRED_EPHEMERAL = "pinleague.deferred_ephemeral"  # key in Interaction.extras


@dataclass
class Reply:
    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    ephemeral: bool = True
    view: discord.ui.View | None = None  # buttons under the reply
    files: list[discord.File] = field(default_factory=list)  # attachments, e.g. a post's images


async def answer(interaction: discord.Interaction, work: Awaitable[Reply], *, ephemeral: bool) -> None:
    """Reply with the result of `work`; `ephemeral` must be known before the work ends, in case we defer.

    A second delivery of the same interaction (a replay, or another process of the bot) does nothing. The
    claim that decides it runs inside the deferral window, so a busy database cannot make us miss the 3 s."""
    claims: InteractionClaims | None = getattr(interaction.client, "claims", None)

    async def first_delivery_work() -> Reply | None:
        if claims is not None and not await claims.claim(interaction.id):
            if inspect.iscoroutine(work):
                work.close()  # never started: the first delivery does the work and answers
            return None
        return await work

    task = asyncio.ensure_future(first_delivery_work())
    _in_flight.add(task)
    task.add_done_callback(_in_flight.discard)
    busy = len(_in_flight) > BUSY
    done, _ = await asyncio.wait({task}, timeout=0 if busy else _time_before_deferring(interaction))
    if not done:
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        interaction.extras[DEFERRED_EPHEMERAL] = ephemeral
    reply = await task  # a Refusal raised here reaches the tree's error handler
    if reply is None:
        return
    view = reply.view if reply.view is not None else discord.utils.MISSING
    if interaction.response.is_done():
        await interaction.followup.send(
            reply.content or "", embeds=reply.embeds, ephemeral=reply.ephemeral, view=view, files=reply.files
        )
    else:
        await interaction.response.send_message(
            reply.content, embeds=reply.embeds, ephemeral=reply.ephemeral, view=view, files=reply.files
        )


def _time_before_deferring(interaction: discord.Interaction) -> float:
    """DEFER_AFTER counted from when Discord created the interaction (its id carries the time), so time spent
    queued behind other work while busy comes out of the wait rather than out of the 3 s."""
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return min(max(DEFER_AFTER - age, 0.0), DEFER_AFTER)
