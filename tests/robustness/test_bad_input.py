"""Hypothesis-generated values for every option of every command, sent through the emulator as commissioners,
captains, players and strangers: scores with odd separators, negatives, huge numbers, unicode, unknown
players and machines, stale matches. No unhandled exception, a clear answer, and no change on a refusal: every
table's contents are compared, not only its row count.

The guild holds a team league on match night, a ladder with tonight's night open and a field league with
tonight's groups made, so each format's commands also get values that name its real players, machines, groups
and options (and the other formats' leagues).

Examples per command: 40 in CI (was 60 when only the team league was seeded: ladder and field commands now do
real work rather than being refused at once), or PINLEAGUE_BAD_INPUT_EXAMPLES (the benchmark run).
"""

from __future__ import annotations

import hashlib
import importlib
import os
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands
from discord.ext import commands
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sqlmodel import SQLModel

from bench import field as field_league
from bench import ladder as ladder_league
from bench.field import FieldLeague, FieldLeagueSize, seed_field_league
from bench.ladder import LadderLeague, LadderLeagueSize, seed_ladder_league
from bot.client import cog_modules
from bot.local.emulator import Attachment, EmulatorError
from bot.local.emulator.commands import OptionType
from bot.local.emulator.records import REPLY_KINDS
from bot.rules.ladder.options import LadderOptions
from bot.rules.team.model import Side
from bot.services.field.options import OPTION_NAMES as FIELD_OPTION_NAMES
from tests.conftest import fresh_sqlite
from tests.e2e.command_table import COMMANDS
from tests.robustness.conftest import SMALL, MatchNight, match_night_of

EXAMPLES = int(os.environ.get("PINLEAGUE_BAD_INPUT_EXAMPLES", "40"))
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


@dataclass
class Leagues:
    """One guild's three leagues: the team league on match night, a ladder and a field league with tonight's
    night open."""

    night: MatchNight
    ladder: LadderLeague
    field: FieldLeague
    tables: TableDigests


@pytest.fixture(scope="module")
async def leagues(tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path) -> AsyncIterator[Leagues]:
    path: Path = tmp_path_factory.mktemp("bad-input") / "league.db"
    db = fresh_sqlite(migrated_sqlite, path)
    try:
        async with match_night_of(db, SMALL) as match_night:
            ladder = await seed_ladder_league(db, match_night.emulator, LadderLeagueSize(players=9, weeks_played=1))
            field = await seed_field_league(db, match_night.emulator, FieldLeagueSize(players=10, weeks_played=1))
            tables = TableDigests(path)
            try:
                yield Leagues(match_night, ladder, field, tables)
            finally:
                tables.connection.close()
    finally:
        await db.dispose()


def format_values(leagues: Leagues, path: str, option: dict[str, Any]) -> list[Any]:
    """What a member of the ladder or field league would type into this option: its league, players, machines,
    groups and options (the other leagues' names too, which a command must refuse clearly)."""
    own = {"ladder": ladder_league.LEAGUE, "field": field_league.LEAGUE}.get(path.split()[0])
    name, kind = option["name"], OptionType(option["type"])
    ladder_machines = ladder_league.MACHINES
    by_name: dict[str, list[Any]] = {
        "league": [own] * 3 + ["Bench League", ladder_league.LEAGUE, field_league.LEAGUE] if own else [],
        "date": ["2027-03-10", "2027-03-09", "2027-02-30", "today"],
        "games": [", ".join(ladder_machines), ", ".join(ladder_machines[:4]), ", ".join(ladder_machines * 2)],
        "order": ["S1,AVG,S2", "S2,S1", "AVG"],
        "name": list(LadderOptions.model_fields),
        "option": list(FIELD_OPTION_NAMES),
        "value": ["20,000,000", "true", "3", "fixed", "22:30", "70,30"],
        "with_players": ["a friend", leagues.ladder.players[1]],
        "pairing": ["W1", "A1", "B2"],
        "situation": ["A drink spilled on the glass", " ", "Godzilla"],
        "rule": ["FIELD-PEN-12", "field-off-3", "nonsense"],
    }
    if kind is OptionType.STRING and name in ("machine", "game"):
        return ladder_machines
    if kind is OptionType.INTEGER:
        by_name |= {
            "machine": leagues.field.machines, "game": [1, 2, 5, 6], "group": [1, 2, 3, 4], "skill": [1, 5, 10, 11],
            "correction": [1, 2], "week": [1, 2, 3],
            **{f"m{n}": leagues.field.machines for n in range(1, 6)},
        }  # fmt: skip
    return by_name.get(name, []) if own else []


def option_values(leagues: Leagues, option: dict[str, Any], path: str = "") -> st.SearchStrategy[Any]:
    if option.get("choices"):
        return st.sampled_from([choice["value"] for choice in option["choices"]])
    kind = OptionType(option["type"])
    known = format_values(leagues, path, option)
    if known and kind in (OptionType.STRING, OptionType.INTEGER):
        fitting = [v for v in known if _fits(v, option)]
        generic = _generic_values(leagues, option)
        return st.one_of(st.sampled_from(fitting), generic) if fitting else generic
    return _generic_values(leagues, option)


def _fits(value: Any, option: dict[str, Any]) -> bool:
    if isinstance(value, str):
        return bool(option.get("min_length", 0) <= len(value) <= option.get("max_length", 6000))
    return bool(option.get("min_value", -(2**53)) <= value <= option.get("max_value", 2**53))


def _generic_values(leagues: Leagues, option: dict[str, Any]) -> st.SearchStrategy[Any]:
    night = leagues.night
    emulator, league = night.emulator, night.league
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
        others = [*leagues.ladder.players[:3], *leagues.field.players[:3]]
        return st.sampled_from([*league.members[:8], *others, STRANGER, "alice", "owner"]).map(emulator.member)
    if kind in (OptionType.ROLE, OptionType.MENTIONABLE):
        return st.sampled_from([role.name for role in emulator.guild.roles]).map(emulator.role)
    if kind is OptionType.CHANNEL:
        return st.sampled_from([channel.name for channel in emulator.guild.channels]).map(emulator.channel)
    if kind is OptionType.ATTACHMENT:  # a photo of the sheet, a league file, or anything else a member uploads
        return st.sampled_from([
            Attachment("scoresheet.jpg", "image/jpeg", b"\xff\xd8 a photo"),
            Attachment("league.json", "application/json", b'{"format": "ladder", "teams": [}'),
            Attachment("rosters.csv", "text/csv", "name,team\nÆsa,🎱\n".encode()),
            Attachment("empty.txt", "text/plain", b""),
        ])  # fmt: skip
    raise AssertionError(f"no strategy for option type {kind!r}")


def leaf_options(leagues: Leagues, path: list[str]) -> list[dict[str, Any]]:
    night = leagues.night
    command, _ = night.emulator.registry.find(path[0], night.emulator.guild.id)
    options = command.get("options", [])
    for name in path[1:]:
        options = next(o for o in options if o["name"] == name).get("options", [])
    return list(options)


class TableDigests:
    """A digest of every league table's contents (the audit trail included), per table, so that a refusal that
    changed a value, not only one that added a row, shows, and the failure names the table.

    Read on a connection of the test's own: SQLite's `data_version` moves whenever another connection commits,
    so the tables are read again only after the bot committed something (on SQLite it writes no interaction
    claims), and each example costs one pragma when nothing changed."""

    def __init__(self, path: Path) -> None:
        self.connection = sqlite3.connect(path)
        tables = [t for t in SQLModel.metadata.sorted_tables if t.name != "bot_state"]
        self.names = [table.name for table in tables]
        self.query = "select " + ", ".join(
            "(select group_concat(row, char(10)) from (select "
            + " || ',' || ".join(f'quote("{column.name}")' for column in table.columns)
            + f' as row from "{table.name}" order by rowid))'
            for table in tables
        )  # quote() spells each value exactly, NULL included
        self.version: int | None = None
        self.digests: dict[str, str] = {}

    def current(self) -> dict[str, str]:
        version = self.connection.execute("pragma data_version").fetchone()[0]
        if version != self.version:
            contents = self.connection.execute(self.query).fetchone()
            self.digests = {
                name: hashlib.sha256((content or "").encode()).hexdigest()
                for name, content in zip(self.names, contents, strict=True)
            }
            self.version = version
        return self.digests


async def test_the_digest_sees_a_changed_value_that_keeps_the_row_count(tmp_path: Path, migrated_sqlite: Path) -> None:
    """The comparison must be able to fail: a value changed by another connection changes its table's digest."""
    path = tmp_path / "league.db"
    await fresh_sqlite(migrated_sqlite, path).dispose()
    values = "1, 7, 'NYC', 'nyc', 'team', 'America/New_York', '{}', null, '[]', '2027-01-01', 1, '[]'"
    league = f"insert into league values ({values})"
    tables, bot = TableDigests(path), sqlite3.connect(path)  # the bot: another connection
    try:
        with bot:
            bot.execute(league)
        before = tables.current()
        with bot:
            bot.execute("update league set name = 'NYC 2' where id = 1")
        after = tables.current()
    finally:
        tables.connection.close()
        bot.close()
    assert [name for name in before if after[name] != before[name]] == ["league"]


def test_every_command_is_covered() -> None:
    """Every command the cogs define, exactly: a new command is a conscious change, with its row in the command
    table (tests/e2e/command_table.py) that the permission matrix and this suite share."""
    assert command_paths() == sorted(COMMANDS)
    assert len(COMMANDS) == 131


@pytest.mark.parametrize("path", command_paths())
@settings(settings.get_profile("bad-input"))
@given(data=st.data())
async def test_bad_input_gets_a_clear_answer_and_changes_nothing_when_refused(
    leagues: Leagues, path: str, data: st.DataObject
) -> None:
    """COMMON-SCORE-1 and every command's own checks: a refusal is a private ⛔ message and changes nothing."""
    night = leagues.night
    names = path.split()
    values = {}
    for option in leaf_options(leagues, names):
        if option.get("required") or data.draw(st.booleans(), label=f"give {option['name']}"):
            values[option["name"]] = data.draw(option_values(leagues, option, path), label=option["name"])
    match = night.league.tonight[0]
    people = ["alice", match.home_captain, match.away_captain, match.roster[Side.HOME][-1], STRANGER]
    people += {"ladder": leagues.ladder.players[:2], "field": leagues.field.players[:2]}.get(names[0], [])
    member = data.draw(st.sampled_from(people), label="as")
    before = leagues.tables.current()
    dispatched = len(night.emulator.interactions)
    try:
        result = await night.emulator.invoke(names, values, as_member=member, timeout=10)
    except EmulatorError as error:
        assert len(night.emulator.interactions) == dispatched, f"no answer to /{path} {values}: {error}"
        assume(False)  # Discord's own client would not send this (e.g. a value of the wrong type)
        return
    reply = "\n".join(o.text() for o in result.outputs if o.kind in REPLY_KINDS)
    assert reply.strip(), f"/{path} {values} got no reply"
    assert "Something went wrong" not in reply, f"/{path} {values} as {member}: {reply}"
    if reply.startswith("⛔"):
        after = leagues.tables.current()
        changed = sorted(table for table in before if after[table] != before[table])
        assert not changed, f"/{path} {values} refused but changed {', '.join(changed)}"
