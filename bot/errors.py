"""The one place errors become replies.

A Refusal (rule broken, bad value, missing permission) becomes an ephemeral message naming the rule.
Anything unexpected is logged with a short id, and the member sees only that id: never a traceback.
"""

from __future__ import annotations

import logging
import secrets

import discord
from discord import app_commands

from bot.interactions import DEFERRED_EPHEMERAL
from bot.rules.refusals import Refusal

log = logging.getLogger(__name__)


def refusal_text(refusal: Refusal) -> str:
    text = f"⛔ {refusal.message}"
    return f"{text}\n-# Rule {refusal.rule_id}" if refusal.rule_id else text


def describe(error: BaseException) -> str | None:
    """The member-facing text for an error we expect, or None for a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, Refusal):
        return refusal_text(error)
    if isinstance(error, app_commands.NoPrivateMessage):
        return "⛔ League commands work inside a server, not in direct messages."
    if isinstance(error, app_commands.TransformerError):
        return f"⛔ {error.value!r} is not a valid {error.type.name.lower()} here. Pick one from the list as you type."
    if isinstance(error, app_commands.CheckFailure):
        return f"⛔ You cannot use this command here: {error}"
    return None


async def send_private(interaction: discord.Interaction, text: str) -> None:
    """Send an ephemeral message whether or not the interaction was already answered or deferred."""
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True)
            return
        deferred = interaction.response.type is discord.InteractionResponseType.deferred_channel_message
        if deferred and not interaction.extras.get(DEFERRED_EPHEMERAL, True):
            # A public "thinking…" placeholder would turn the refusal public; remove it first.
            await interaction.delete_original_response()
        await interaction.followup.send(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell %s about an error: the interaction is gone", interaction.user, exc_info=True)


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the member what went wrong: the refusal, or an error id for a bug (logged with its traceback).

    Commands reach this through the tree's error handler; buttons and forms call it themselves, since
    their errors never reach the tree."""
    text = describe(error)
    metrics = getattr(interaction.client, "metrics", None)
    if metrics is not None:
        metrics.failed(interaction, refused=text is not None)
    if text is None:
        error_id = secrets.token_hex(4)
        custom_id = str(interaction.data.get("custom_id", "?")) if interaction.data else "?"
        where = f"/{interaction.command.qualified_name}" if interaction.command else custom_id
        log.error("error %s in %s by %s", error_id, where, interaction.user.id, exc_info=error)
        text = (
            f"⚠️ Something went wrong on our side, and your request was not completed. Error id `{error_id}`: "
            "a commissioner can pass it to whoever runs the bot."
        )
    await send_private(interaction, text)


async def on_app_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    await report(interaction, error)


def install(tree: app_commands.CommandTree[discord.Client]) -> None:
    tree.error(on_app_command_error)
