"""`pinleague backup` while writes are running, then `pinleague restore` of that backup."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.backup import BackupError, backup, restore
from storage.db import Database
from storage.migrate import upgrade
from storage.models import Machine, Venue
from tests.storage import helpers as make

WHEN = datetime(2027, 3, 1, tzinfo=UTC)


async def _writer(
    db: Database, league_id: int, stop: asyncio.Event, written: list[str], wrote: asyncio.Event, writer: int
) -> None:
    """Adds a venue and its machine in one transaction, again and again: a consistent copy has as many of each."""
    n = 0
    while not stop.is_set():
        n += 1
        async with db.writing() as session:
            venue = Venue(league_id=league_id, name=f"Bar {writer}.{n}", name_key=f"bar {writer}.{n}")
            session.add(venue)
            await session.flush()
            session.add(
                Machine(league_id=league_id, venue_id=venue.id or 0, model_name="Godzilla", family="godzilla",
                        status_changed_at=WHEN, installed_at=WHEN)
            )  # fmt: skip
        written.append(venue.name)
        wrote.set()
        await asyncio.sleep(0)


async def _until(written: list[str], wrote: asyncio.Event, count: int) -> None:
    while len(written) < count:
        wrote.clear()
        await wrote.wait()


def _counts(path: Path) -> tuple[str, int, int]:
    with sqlite3.connect(path) as connection:
        verdict = connection.execute("PRAGMA integrity_check").fetchone()[0]
        venues = connection.execute("SELECT count(*) FROM venue").fetchone()[0]
        machines = connection.execute("SELECT count(*) FROM machine").fetchone()[0]
    return verdict, venues, machines


async def test_backup_taken_under_writes_restores_a_consistent_database(sqlite_db: Database, tmp_path: Path) -> None:
    league = await make.insert(sqlite_db, make.league())
    stop, wrote, written = asyncio.Event(), asyncio.Event(), []
    writers = [asyncio.create_task(_writer(sqlite_db, league.id or 0, stop, written, wrote, w)) for w in range(2)]
    await _until(written, wrote, 20)
    report = await backup(sqlite_db, tmp_path / "backups" / "league.db")
    await _until(written, wrote, report.row_counts["venue"] + 20)  # writes go on after the backup
    stop.set()
    await asyncio.gather(*writers)

    verdict, venues, machines = _counts(tmp_path / "backups" / "league.db")
    assert verdict == "ok" and venues == machines == report.row_counts["venue"]
    assert 20 <= venues < len(written)
    assert not (tmp_path / "backups" / "league.db.partial").exists()

    restored = Database(f"sqlite+aiosqlite:///{tmp_path / 'restored.db'}")
    await upgrade(restored)
    try:
        await make.insert(restored, make.league(name="Other"))  # restore replaces what was there
        after = await restore(restored, tmp_path / "backups" / "league.db")
    finally:
        await restored.dispose()
    assert after.row_counts == report.row_counts
    assert _counts(tmp_path / "restored.db") == ("ok", venues, machines)


async def test_restore_refuses_a_damaged_backup(sqlite_db: Database, tmp_path: Path) -> None:
    broken = tmp_path / "broken.db"
    broken.write_bytes(b"not a database at all" * 100)
    with pytest.raises((BackupError, sqlite3.DatabaseError)):
        await restore(sqlite_db, broken)
