"""The daily SQLite backup (PINLEAGUE_BACKUP_TIME, UTC) run with a fake clock: one file a day, never doubled or
skipped by a restart, a consistent copy while writes go on, the oldest beyond PINLEAGUE_BACKUP_KEEP deleted."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, time, timedelta
from pathlib import Path

from bot.clock import ManualClock
from bot.daily_backup import DailyBackup
from bot.settings import load_settings
from storage.db import Database
from tests.e2e.harness import running_bot
from tests.exchange.test_backup import _counts, _until, _writer
from tests.storage import helpers as make

AT = time(3, 0)


def utc(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2027, 3, day, hour, minute, tzinfo=UTC)


def started(db: Database, clock: ManualClock, folder: Path, keep: int = 7) -> DailyBackup:
    """A bot process's backup job (a new one per start: it keeps nothing but the files)."""
    return DailyBackup(db, clock, folder=folder, at=AT, keep=keep)


def day_files(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


async def test_one_backup_a_day_at_its_time_and_a_restart_neither_skips_nor_doubles_it(
    sqlite_db: Database, tmp_path: Path
) -> None:
    folder = tmp_path / "backups"
    clock = ManualClock(utc(1, 10))
    job = started(sqlite_db, clock, folder)
    assert await job.run() == folder / "pinleague-2027-03-01.db"
    written = (folder / "pinleague-2027-03-01.db").stat().st_mtime_ns

    restarted = started(sqlite_db, clock, folder)  # a restart the same day
    assert await restarted.run() is None
    clock.set(utc(2, 2, 59))
    assert await restarted.run() is None  # not before the time
    assert (folder / "pinleague-2027-03-01.db").stat().st_mtime_ns == written

    clock.set(utc(2, 3, 0))
    assert await restarted.run() == folder / "pinleague-2027-03-02.db"
    assert await restarted.run() is None

    clock.set(utc(3, 2, 50))  # the bot stops before the time and starts again after it
    assert await started(sqlite_db, clock, folder).run() is None
    clock.set(utc(3, 3, 20))
    assert await started(sqlite_db, clock, folder).run() == folder / "pinleague-2027-03-03.db"
    assert day_files(folder) == [f"pinleague-2027-03-0{day}.db" for day in (1, 2, 3)]


async def test_rotation_keeps_keep_files_and_leaves_a_backup_made_by_hand(sqlite_db: Database, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "before-the-upgrade.db").write_bytes(b"kept")
    clock = ManualClock(utc(1, 4))
    job = started(sqlite_db, clock, folder, keep=3)
    for _day in range(5):
        assert await job.run() is not None
        clock.advance(timedelta(days=1))
    assert day_files(folder) == [
        "before-the-upgrade.db",
        "pinleague-2027-03-03.db",
        "pinleague-2027-03-04.db",
        "pinleague-2027-03-05.db",
    ]


async def test_a_backup_made_while_writes_happen_is_a_valid_database_with_the_rows(
    sqlite_db: Database, tmp_path: Path
) -> None:
    league = await make.insert(sqlite_db, make.league())
    stop, wrote, written = asyncio.Event(), asyncio.Event(), []
    writers = [asyncio.create_task(_writer(sqlite_db, league.id or 0, stop, written, wrote, w)) for w in range(2)]
    await _until(written, wrote, 20)
    path = await started(sqlite_db, ManualClock(utc(1, 4)), tmp_path).run()
    during = len(written)
    await _until(written, wrote, during + 20)  # writes go on after the backup
    stop.set()
    await asyncio.gather(*writers)

    assert path is not None
    verdict, venues, machines = _counts(path)
    assert verdict == "ok" and venues == machines  # each venue's transaction copied whole, or not at all
    assert 20 <= venues < len(written)


async def test_the_bot_schedules_it_at_start_and_daily_at_the_utc_time(sqlite_db: Database, tmp_path: Path) -> None:
    settings = load_settings(backup_time="03:30", backup_keep=2, data_dir=tmp_path)
    clock = ManualClock(utc(1, 12))
    job = DailyBackup.from_settings(settings, sqlite_db, clock)
    assert job is not None and job.folder == tmp_path / "backups" and job.keep == 2
    async with running_bot(sqlite_db, clock=clock, backups=job) as league:
        daily = league.bot.posts.scheduler.get_job("backup:daily")
        assert daily is not None
        assert (daily.next_run_time.astimezone(UTC).hour, daily.next_run_time.minute) == (3, 30)
        for _ in range(100):  # the start-up run, as soon as the scheduler gets to it
            if (tmp_path / "backups" / "pinleague-2027-03-01.db").exists():
                break
            await asyncio.sleep(0.02)
    assert day_files(tmp_path / "backups") == ["pinleague-2027-03-01.db"]


async def test_without_a_backup_time_there_is_no_job(sqlite_db: Database, tmp_path: Path) -> None:
    assert DailyBackup.from_settings(load_settings(data_dir=tmp_path), sqlite_db, ManualClock()) is None
