"""The league file for the ladder and field formats, on SQLite and PostgreSQL: a league played through Discord
exports, imports into an empty database and exports again to the same bytes (every id inside JSON and text
columns renumbered), and a broken file is reported row by row without writing anything."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.exchange.league_file import MANIFEST, export_by_name, read_files, write_files
from bot.exchange.league_import import import_league
from storage.db import Database
from tests.e2e.harness import RunningBot, running_bot
from tests.exchange.format_history import build_field_history, build_ladder_history
from tests.exchange.test_league_file import OTHER_GUILD, _set, empty_target  # noqa: F401  (fixture)

LADDER_TABLES = {"ladder_player", "ladder_machine", "ladder_night", "ladder_group", "ladder_pick", "ladder_score",
                 "ladder_penalty", "ladder_attendance", "ladder_premakeup", "ladder_result",
                 "ladder_ledger"}  # fmt: skip
FIELD_TABLES = {"field_night", "field_checkin", "field_score", "field_correction", "field_playoff", "field_penalty",
                "field_malfunction", "field_finals", "field_finals_entry", "field_finals_game"}  # fmt: skip


@pytest.fixture
async def ladder_history(db: Database) -> AsyncIterator[RunningBot]:
    async with running_bot(db) as league:
        await build_ladder_history(league)
        yield league


@pytest.fixture
async def field_history(db: Database) -> AsyncIterator[RunningBot]:
    async with running_bot(db) as league:
        await build_field_history(league)
        yield league


async def _round_trip(league: RunningBot, target: Database, tables: set[str], tmp_path: Path) -> dict[str, bytes]:
    guild = league.emulator.guild.id
    first = await export_by_name(league.db, guild, None)
    assert tables <= {name.removesuffix(".csv") for name in first}, sorted(first)
    write_files(first, tmp_path / "league.zip")
    report = await import_league(target, read_files(tmp_path / "league.zip"), guild_id=None, dry_run=False)
    assert report.ok, report.summary()
    assert await export_by_name(target, guild, None) == first

    # Into the first database again under another server: other database ids, the same file.
    again = await import_league(league.db, first, guild_id=OTHER_GUILD, dry_run=False)
    assert again.ok, again.summary()
    second = await export_by_name(league.db, OTHER_GUILD, None)
    assert {k: v for k, v in second.items() if k != MANIFEST} == {k: v for k, v in first.items() if k != MANIFEST}
    return first


async def test_a_ladder_league_round_trips(
    ladder_history: RunningBot,
    empty_target: Database,
    tmp_path: Path,  # noqa: F811
) -> None:
    files = await _round_trip(ladder_history, empty_target, LADDER_TABLES, tmp_path)
    assert b'"ladder": [' in files[MANIFEST]


async def test_a_field_league_round_trips(
    field_history: RunningBot,
    empty_target: Database,
    tmp_path: Path,  # noqa: F811
) -> None:
    files = await _round_trip(field_history, empty_target, FIELD_TABLES, tmp_path)
    assert b'"field": [' in files[MANIFEST]
