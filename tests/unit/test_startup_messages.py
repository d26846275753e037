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


def test_a_bug_is_not_dressed_up_as_a_start_up_problem() -> None:
    assert discord_failure(KeyError("league"), "https://discord.com/api/v10") is None
