"""The one-line start-up messages for Discord's refusals, which no local test server provokes."""

from __future__ import annotations

import discord

from bot.startup import discord_failure


def test_a_refused_privileged_intent_says_where_to_turn_it_on() -> None:
    line = discord_failure(discord.PrivilegedIntentsRequired(None), "https://discord.com/api/v10")
    assert line is not None and "Privileged Gateway Intents" in line and "developers/applications" in line


def test_a_refused_token_names_the_setting() -> None:
    line = discord_failure(discord.LoginFailure("Improper token has been passed."), "https://discord.com/api/v10")
    assert line is not None and "PINLEAGUE_DISCORD_TOKEN" in line


def test_sharding_required_names_the_setting() -> None:
    closed = discord.ConnectionClosed(None, shard_id=None, code=4011)  # type: ignore[arg-type]
    line = discord_failure(closed, "https://discord.com/api/v10")
    assert line is not None and "requires sharding" in line and "PINLEAGUE_SHARD_COUNT" in line
    other = discord.ConnectionClosed(None, shard_id=None, code=4013)  # type: ignore[arg-type]
    assert discord_failure(other, "https://discord.com/api/v10") is None


def test_a_bug_is_not_dressed_up_as_a_start_up_problem() -> None:
    assert discord_failure(KeyError("league"), "https://discord.com/api/v10") is None
