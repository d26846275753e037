"""Hypothesis-generated values for every option of every command, sent through the emulator as commissioners,
captains, players and strangers: scores with odd separators, negatives, huge numbers, unicode, unknown
players and machines, stale matches. No unhandled exception, a clear answer, and no change on a refusal.

Examples per command: the `ci` profile (default) or PINLEAGUE_BAD_INPUT_EXAMPLES (the benchmark run).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands
from discord.ext import commands
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sqlalchemy import text
from sqlmodel import SQLModel

from bot.client import cog_modules
from bot.local.emulator import EmulatorError
from bot.local.emulator.commands import OptionType
from bot.rules.team.model import Side
from storage.db import Database
from storage.migrate import upgrade
from tests.robustness.conftest import SMALL, MatchNight, match_night_of

EXAMPLES = int(os.environ.get("PINLEAGUE_BAD_INPUT_EXAMPLES", "60"))
settings.register_profile(
    "bad-input",
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=EXAMPLES <= 100,  # CI: the same examples every run
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much],
)
STRANGER = "carol"  # a member of the server who plays in no league


def command_paths() -> list[str]:
    """Every slash command the cogs define, as "group sub" paths."""
    paths: list[str] = []

    def walk(command: app_commands.Command[Any, ..., Any] | app_commands.Group, prefix: list[str]) -> None:
        if isinstance(command, app_commands.Group):
            for child in command.commands:
                walk(child, [*prefix, command.name])
        else:
            paths.append(" ".join([*prefix, command.name]))

    for module in cog_modules():
        for cog in vars(importlib.import_module(module)).values():
            if isinstance(cog, type) and issubclass(cog, commands.Cog) and cog.__module__ == module:
                prefix = [str(cog.__cog_group_name__)] if cog.__cog_is_app_commands_group__ else []
                for command in cog.__cog_app_commands__:
                    walk(command, prefix)
    return sorted(paths)


ODD_SCORES = [
    "1,000,000", "1.000.000", "1 000 000", "1'000'000", "1_000_000", "-5", "0", "−12", "+7", "1e9", "0x1F", "١٢٣٤",
    "１２３", "99999999999999999999999", "9" * 400, "12,34,5", "1,,000", ",", "", "   ", "NaN", "∞", "½", "🎱",
    "12 345 670", "DROP TABLE match;", "@everyone", "<@1>", "\u200b123", "2027-02-30", "yesterday", "week 99",
]  # fmt: skip


@pytest.fixture(scope="module")
async def night(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[MatchNight]:
    path: Path = tmp_path_factory.mktemp("bad-input") / "league.db"
    db = Database(f"sqlite+aiosqlite:///{path}")
    await upgrade(db)
    try:
        async with match_night_of(db, SMALL) as match_night:
            yield match_night
    finally:
        await db.dispose()


def option_values(night: MatchNight, option: dict[str, Any]) -> st.SearchStrategy[Any]:
    emulator, league = night.emulator, night.league
    if option.get("choices"):
        return st.sampled_from([choice["value"] for choice in option["choices"]])
    kind = OptionType(option["type"])
    matches = [m.match_id for m in league.tonight] + list(range(1, league.final_matches + 1))  # tonight's and stale
    if kind is OptionType.STRING:
        names = [*league.members[:6], "Team 01", "Venue 1", "Godzilla", "nobody", "Bench League"]
        strings = st.one_of(
            st.sampled_from(ODD_SCORES + names + [str(m) for m in matches] + ["999999", "-1"]),
            st.text(max_size=120),
            st.text(st.characters(codec="utf-8"), min_size=1, max_size=30),
        )
        low, high = option.get("min_length", 0), option.get("max_length", 6000)
        return strings.filter(lambda value: low <= len(value) <= high)
    if kind is OptionType.INTEGER:
        low, high = option.get("min_value", -(2**53)), option.get("max_value", 2**53)
        return st.one_of(st.sampled_from([m for m in matches if low <= m <= high] or [low]), st.integers(low, high))
    if kind is OptionType.NUMBER:
        return st.floats(option.get("min_value", -1e15), option.get("max_value", 1e15), allow_nan=False)
    if kind is OptionType.BOOLEAN:
        return st.booleans()
    if kind is OptionType.USER:
        return st.sampled_from([*league.members[:8], STRANGER, "alice", "owner"]).map(emulator.member)
    if kind in (OptionType.ROLE, OptionType.MENTIONABLE):
        return st.sampled_from([role.name for role in emulator.guild.roles]).map(emulator.role)
    if kind is OptionType.CHANNEL:
        return st.sampled_from([channel.name for channel in emulator.guild.channels]).map(emulator.channel)
    raise AssertionError(f"no strategy for option type {kind!r}")


def leaf_options(night: MatchNight, path: list[str]) -> list[dict[str, Any]]:
    command, _ = night.emulator.registry.find(path[0], night.emulator.guild.id)
    options = command.get("options", [])
    for name in path[1:]:
        options = next(o for o in options if o["name"] == name).get("options", [])
    return list(options)


async def fingerprint(db: Database) -> tuple[int, ...]:
    """Row counts of every league table (the audit trail included) in one round trip."""
    tables = [t.name for t in SQLModel.metadata.sorted_tables if t.name != "bot_state"]
    query = "select " + ", ".join(f'(select count(*) from "{name}")' for name in tables)
    async with db.connect() as connection:
        return tuple((await connection.execute(text(query))).one())


def test_every_command_is_covered() -> None:
    assert len(command_paths()) >= 39


@pytest.mark.parametrize("path", command_paths())
@settings(settings.get_profile("bad-input"))
@given(data=st.data())
async def test_bad_input_gets_a_clear_answer_and_changes_nothing_when_refused(
    night: MatchNight, path: str, data: st.DataObject
) -> None:
    """COMMON-SCORE-1 and every command's own checks: a refusal is a private ⛔ message and changes nothing."""
    names = path.split()
    values = {}
    for option in leaf_options(night, names):
        if option.get("required") or data.draw(st.booleans(), label=f"give {option['name']}"):
            values[option["name"]] = data.draw(option_values(night, option), label=option["name"])
    match = night.league.tonight[0]
    people = ["alice", match.home_captain, match.away_captain, match.roster[Side.HOME][-1], STRANGER]
    member = data.draw(st.sampled_from(people), label="as")
    before = await fingerprint(night.bot.db)
    dispatched = len(night.emulator.interactions)
    try:
        result = await night.emulator.invoke(names, values, as_member=member, timeout=10)
    except EmulatorError as error:
        assert len(night.emulator.interactions) == dispatched, f"no answer to /{path} {values}: {error}"
        assume(False)  # Discord's own client would not send this (e.g. a value of the wrong type)
        return
    reply = "\n".join(o.text() for o in result.outputs if o.kind in ("response", "followup"))
    assert reply.strip(), f"/{path} {values} got no reply"
    assert "Something went wrong" not in reply, f"/{path} {values} as {member}: {reply}"
    if reply.startswith("⛔"):
        assert await fingerprint(night.bot.db) == before, f"/{path} {values} refused but changed the database"
