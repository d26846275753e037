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
from tests.exchange.test_league_file import OTHER_GUILD, _set

LADDER_TABLES = {"ladder_player", "ladder_machine", "ladder_night", "ladder_group", "ladder_pick", "ladder_score",
                 "ladder_penalty", "ladder_attendance", "ladder_premakeup", "ladder_result",
                 "ladder_ledger", "planned_night", "night_roll_call_reply"}  # fmt: skip
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
    tmp_path: Path,
) -> None:
    files = await _round_trip(ladder_history, empty_target, LADDER_TABLES, tmp_path)
    assert b'"ladder": [' in files[MANIFEST]
    assert b",ladder_score," in files["audit_entry.csv"]  # scores have no league_id; their audit comes along


async def test_a_field_league_round_trips(
    field_history: RunningBot,
    empty_target: Database,
    tmp_path: Path,
) -> None:
    files = await _round_trip(field_history, empty_target, FIELD_TABLES, tmp_path)
    assert b'"field": [' in files[MANIFEST]
    assert b",field_score," in files["audit_entry.csv"] and b",field_checkin," in files["audit_entry.csv"]


async def test_a_broken_ladder_file_is_reported_row_by_row(ladder_history: RunningBot) -> None:
    """Ids inside JSON columns are checked like foreign keys: each bad row is reported once, nothing written."""
    files = await export_by_name(ladder_history.db, ladder_history.emulator.guild.id, None)
    _set(files, "ladder_night.csv", 2, "machines", '[{"id":77,"name":"Nowhere","normalizer":1}]')
    _set(files, "ladder_group.csv", 3, "members", "[1,99]")
    _set(files, "ladder_group.csv", 4, "ranks", '{"x":1}')
    _set(files, "ladder_score.csv", 3, "score", "lots")
    _set(files, "ladder_result.csv", 2, "presence", "asleep")
    before = await ladder_history.row_counts()

    report = await import_league(ladder_history.db, files, guild_id=OTHER_GUILD, dry_run=True)

    reasons = {str(problem) for problem in report.problems}
    assert len(reasons) == 5, report.summary()
    assert "ladder_night.csv:2: refers to machine 77, which is not in machine.csv" in reasons
    assert "ladder_group.csv:3: refers to ladder_player 99, which is not in ladder_player.csv" in reasons
    assert "ladder_group.csv:4: a JSON column does not have the shape its table expects" in reasons
    assert "ladder_score.csv:3: `score` 'lots' is not a whole number" in reasons
    assert any(reason.startswith("ladder_result.csv:2: `presence` 'asleep' is not one of") for reason in reasons)
    assert await ladder_history.row_counts() == before


async def test_a_broken_field_file_is_reported_row_by_row(field_history: RunningBot) -> None:
    files = await export_by_name(field_history.db, field_history.emulator.guild.id, None)
    _set(files, "field_night.csv", 2, "machine_ids", "[1,2,3,4,66]")
    _set(files, "field_playoff.csv", 2, "players_key", "3,999")
    _set(files, "field_finals.csv", 2, "seeds", '["first"]')
    _set(files, "field_finals_game.csv", 2, "picks", '[{"seed":1,"kind":"machine","machine":55,"plays_first":null}]')
    _set(files, "field_correction.csv", 2, "votes", '{"98":true}')
    before = await field_history.row_counts()

    report = await import_league(field_history.db, files, guild_id=OTHER_GUILD, dry_run=True)

    assert {str(problem) for problem in report.problems} == {
        "field_night.csv:2: refers to machine 66, which is not in machine.csv",
        "field_playoff.csv:2: refers to player 999, which is not in player.csv",
        "field_finals.csv:2: a JSON column does not have the shape its table expects",
        "field_finals_game.csv:2: refers to machine 55, which is not in machine.csv",
        "field_correction.csv:2: refers to player 98, which is not in player.csv",
    }, report.summary()
    assert await field_history.row_counts() == before
