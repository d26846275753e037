"""The league file round trip on SQLite and PostgreSQL: export → import into an empty database → export gives
the same bytes, and importing the file a second time under another server (other database ids) does too."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlmodel import select

from bot.exchange.league_file import MANIFEST, export_by_name, read_files, write_files
from bot.exchange.league_import import import_league
from storage.db import Database
from storage.models import League
from tests.e2e.harness import RunningBot, running_bot
from tests.exchange.history import build_history

OTHER_GUILD = 424242


@pytest.fixture
async def history(db: Database) -> AsyncIterator[RunningBot]:
    async with running_bot(db) as league:
        await build_history(league)
        yield league


async def test_export_import_export_gives_identical_files(
    history: RunningBot, empty_target: Database, tmp_path: Path
) -> None:
    guild = history.emulator.guild.id
    first = await export_by_name(history.db, guild, None)
    expected_tables = {"season", "venue", "machine", "conference", "team", "player", "roster_entry", "audit_entry",
                       "match", "match_visit", "match_lineup", "lineup_replacement", "game_score", "game_penalty",
                       "match_machine_out", "match_confirmation", "match_challenge", "tiebreaker_setup",
                       "tiebreaker_game", "match_walkout"}  # fmt: skip
    assert set(first) == {MANIFEST} | {f"{table}.csv" for table in expected_tables}
    assert b'"format_version": 2' in first[MANIFEST]

    write_files(first, tmp_path / "nyc.zip")
    report = await import_league(empty_target, read_files(tmp_path / "nyc.zip"), guild_id=None, dry_run=False)
    assert report.ok, report.summary()
    assert report.counts["game_score"] == first["game_score.csv"].count(b"\n") - 1
    assert await export_by_name(empty_target, guild, None) == first
    write_files(await export_by_name(empty_target, guild, None), tmp_path / "again.zip")
    assert (tmp_path / "again.zip").read_bytes() == (tmp_path / "nyc.zip").read_bytes()

    # The same file into the first database under another server: every row gets other database ids.
    again = await import_league(history.db, first, guild_id=OTHER_GUILD, dry_run=False)
    assert again.ok, again.summary()
    second = await export_by_name(history.db, OTHER_GUILD, None)
    assert second[MANIFEST] == first[MANIFEST].replace(str(guild).encode(), str(OTHER_GUILD).encode())
    assert {k: v for k, v in second.items() if k != MANIFEST} == {k: v for k, v in first.items() if k != MANIFEST}


async def test_dry_run_writes_nothing(history: RunningBot) -> None:
    files = await export_by_name(history.db, history.emulator.guild.id, None)
    before = await history.row_counts()
    report = await import_league(history.db, files, guild_id=OTHER_GUILD, dry_run=True)
    assert report.ok and report.dry_run, report.summary()
    assert "would import" in report.summary() and report.counts["match"] > 0
    assert await history.row_counts() == before


def _set(files: dict[str, bytes], name: str, line: int, column: str, value: str) -> None:
    """Set one cell of a CSV file; `line` counts the header as 1 (every exported record is one line)."""
    rows = list(csv.reader(io.StringIO(files[name].decode())))
    rows[line - 1][rows[0].index(column)] = value
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    files[name] = out.getvalue().encode()


async def test_dry_run_of_a_broken_file_reports_every_bad_row(history: RunningBot) -> None:
    """Every bad row is reported with its file, line and reason, and nothing is written."""
    files = await export_by_name(history.db, history.emulator.guild.id, None)
    _set(files, "team.csv", 3, "home_venue_id", "99")  # a venue that is not in venue.csv
    _set(files, "team.csv", 4, "name", "flipper KINGS")  # the name of the team on line 2
    _set(files, "player.csv", 5, "registered_at", "yesterday")
    _set(files, "machine.csv", 3, "status", "broken")
    _set(files, "game_score.csv", 2, "score", "lots")
    _set(files, "game_score.csv", 7, "player_id", "999")
    _set(files, "match_lineup.csv", 2, "games", '[{"machine":77,"players":[1,2]}]')
    _set(files, "roster_entry.csv", 1, "ifpa_rank", "rank")
    files["notes.csv"] = b"anything\n"
    before = await history.row_counts()

    report = await import_league(history.db, files, guild_id=OTHER_GUILD, dry_run=True)

    assert {(p.file, p.line) for p in report.problems} == {
        ("team.csv", 3),
        ("team.csv", 4),
        ("player.csv", 5),
        ("machine.csv", 3),
        ("game_score.csv", 2),
        ("game_score.csv", 7),
        ("match_lineup.csv", 2),
        ("roster_entry.csv", 1),
        ("notes.csv", None),
    }, report.summary()
    reasons = {str(problem) for problem in report.problems}
    assert "team.csv:3: refers to venue 99, which is not in venue.csv" in reasons
    assert "team.csv:4: repeats line 2 (name=flipper KINGS): must be unique" in reasons
    assert any(r.startswith("player.csv:5: `registered_at` 'yesterday' is not a time with its zone") for r in reasons)
    assert any(r.startswith("machine.csv:3: `status` 'broken' is not one of working, ") for r in reasons)
    assert "game_score.csv:2: `score` 'lots' is not a whole number" in reasons
    assert "game_score.csv:7: refers to player 999, which is not in player.csv" in reasons
    assert "match_lineup.csv:2: refers to machine 77, which is not in machine.csv" in reasons
    assert any(r.startswith("roster_entry.csv:1: unknown column `rank`") for r in reasons)
    assert "notes.csv: no such table in this version of the league file" in reasons
    assert report.summary().startswith("9 problem(s); nothing was imported:")
    assert await history.row_counts() == before


async def test_dated_options_round_trip_and_a_version_1_file_still_reads(
    history: RunningBot, empty_target: Database
) -> None:
    """COMMON-LEAGUE-2: the league's earlier option versions travel in league.json; a version-1 file (before
    them) imports with its options in effect from the beginning."""
    changed = await history.run("/league config allow_shorthand:True effective:2027-06-01", as_member="alice")
    assert "changes from 2027-06-01" in changed.content, changed.content
    guild = history.emulator.guild.id
    files = await export_by_name(history.db, guild, None)
    league = json.loads(files[MANIFEST])["league"]
    assert league["option_history"] == [{"until": "2027-06-01", "options": {}}], league
    assert league["options"] == {"allow_shorthand": True}
    report = await import_league(empty_target, files, guild_id=None, dry_run=False)
    assert report.ok, report.summary()
    assert await export_by_name(empty_target, guild, None) == files

    old = json.loads(files[MANIFEST])
    old["format_version"] = 1
    del old["league"]["option_history"]
    version_1 = {**files, MANIFEST: json.dumps(old).encode()}
    report = await import_league(history.db, version_1, guild_id=OTHER_GUILD, dry_run=False)
    assert report.ok, report.summary()
    again = json.loads((await export_by_name(history.db, OTHER_GUILD, None))[MANIFEST])
    assert again["format_version"] == 2 and again["league"]["option_history"] == []
    assert again["league"]["options"] == {"allow_shorthand": True}


def _as_before_season_life(season_csv: bytes) -> bytes:
    """season.csv as files exported before seasons' stages were derived: a stored `status`, no `postseason_on`."""
    rows = list(csv.DictReader(io.StringIO(season_csv.decode())))
    out = io.StringIO()
    columns = [name for name in rows[0] if name != "postseason_on"] + ["status"]
    writer = csv.DictWriter(out, columns, lineterminator="\n", extrasaction="ignore")
    writer.writeheader()
    writer.writerows({**row, "status": "active"} for row in rows)
    return out.getvalue().encode()


async def test_a_version_1_file_with_season_status_imports_and_a_version_2_one_is_refused(
    history: RunningBot,
) -> None:
    """COMMON-SEASON-1: a version-1 file written before seasons' stages were derived carries `season.status`,
    which no longer exists: it is ignored. Version 2 files never had it: there it is an unknown column."""
    guild = history.emulator.guild.id
    files = await export_by_name(history.db, guild, None)
    old_manifest = json.loads(files[MANIFEST])
    old_manifest["format_version"] = 1
    del old_manifest["league"]["option_history"]
    old_season = _as_before_season_life(files["season.csv"])
    assert b"status" in old_season.splitlines()[0]
    version_1 = {**files, MANIFEST: json.dumps(old_manifest).encode(), "season.csv": old_season}

    report = await import_league(history.db, version_1, guild_id=OTHER_GUILD, dry_run=False)
    assert report.ok, report.summary()
    again = await export_by_name(history.db, OTHER_GUILD, None)
    assert again["season.csv"] == files["season.csv"]  # no status; postseason_on empty as before
    assert json.loads(again[MANIFEST])["format_version"] == 2

    refused = await import_league(
        history.db, {**files, "season.csv": old_season}, guild_id=OTHER_GUILD + 1, dry_run=True
    )
    assert any(str(p).startswith("season.csv:1: unknown column `status`") for p in refused.problems), refused.summary()


async def test_league_json_of_another_version_or_with_a_bad_zone_is_reported(sqlite_db: Database) -> None:
    newer = {MANIFEST: b'{"format_version": 3, "league": {}}'}
    report = await import_league(sqlite_db, newer, guild_id=None, dry_run=True)
    assert [str(p) for p in report.problems] == ["league.json: format_version 3: this pinleague reads versions 1 and 2"]

    league = {"name": "NYC", "format": "team", "timezone": "Mars/Olympus", "options": {"roster_max": "many"},
              "guild_id": 1, "commissioner_role_id": None, "created_at": "2027-02-26T17:00:00Z",
              "created_by": 2}  # fmt: skip
    bad = {MANIFEST: json.dumps({"format_version": 1, "league": league, "sections": {}}).encode()}
    reasons = [str(p) for p in (await import_league(sqlite_db, bad, guild_id=None, dry_run=True)).problems]
    assert reasons[0] == "league.json: league: timezone 'Mars/Olympus' is not an IANA time zone name"
    assert reasons[1].startswith("league.json: league: options are not valid for a team league")
    assert await league_count(sqlite_db) == 0

    valid = {**league, "timezone": "America/New_York", "options": {}}
    histories: list[tuple[object, str]] = [
        ("not a list", "option_history must be a list"),
        ([{"until": 1}], 'option_history entry 1 must be {"until": "YYYY-MM-DD", "options": {…}}'),
        ([{"until": "someday", "options": {}}], "option_history entry 1: until 'someday' is not a YYYY-MM-DD date"),
        (
            [{"until": "2027-03-01", "options": {"roster_max": "many"}}],
            "option_history entry 1: options are not valid for a team league",
        ),
        (
            [{"until": "2027-03-08", "options": {}}, {"until": "2027-03-01", "options": {}}],
            "option_history entry 2: until 2027-03-01 must come after the entry before it (2027-03-08)",
        ),
    ]
    for entries, reason in histories:
        manifest = {"format_version": 2, "league": {**valid, "option_history": entries}, "sections": {}}
        files = {MANIFEST: json.dumps(manifest).encode()}
        problems = [str(p) for p in (await import_league(sqlite_db, files, guild_id=None, dry_run=True)).problems]
        assert problems and problems[0].startswith(f"league.json: league: {reason}"), (entries, problems)
    assert await league_count(sqlite_db) == 0


async def league_count(db: Database) -> int:
    async with db.reading() as session:
        return len((await session.exec(select(League))).all())
