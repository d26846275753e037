"""The optional daily backup of a SQLite database: PINLEAGUE_BACKUP_TIME (UTC), PINLEAGUE_BACKUP_DIR and
PINLEAGUE_BACKUP_KEEP.

Each day's backup is one file, `pinleague-YYYY-MM-DD.db`, made with SQLite's online backup API (`bot.backup`: one
consistent snapshot while the bot writes, checked before it is moved into place). The files are the record: a day
whose file exists is done, so a restart never doubles it; at start the latest day whose backup time has passed is
backed up if its file is missing, so a restart across the backup time never skips it. After each backup the
oldest day files beyond KEEP are deleted; other files in the folder (a backup made by hand) are left alone.
"""

from __future__ import annotations

import asyncio
import logging
import re
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.date import DateTrigger

from bot.backup import backup
from bot.clock import Clock
from bot.settings import Settings
from bot.startup import StartupError, check_folder
from storage.db import Database

log = logging.getLogger(__name__)

DAY_FILE = re.compile(r"pinleague-\d{4}-\d{2}-\d{2}\.db")
RETRY_AFTER = timedelta(minutes=15)  # a failed backup (a full disk, a locked file) is tried again this much later


def due_day(now: datetime, at: time) -> date:
    """The day whose backup is due at `now`: today once today's backup time (UTC) has passed, else yesterday."""
    now = now.astimezone(UTC)
    return now.date() if now.time() >= at else now.date() - timedelta(days=1)


def check(settings: Settings) -> None:
    """At start, before the database is opened: the backup settings must be usable (one line when not)."""
    if settings.backup_time is None:
        return
    if not settings.resolved_database_url.startswith("sqlite"):
        raise StartupError(
            "PINLEAGUE_BACKUP_TIME is set but the database is PostgreSQL, which the bot does not back up: empty "
            "PINLEAGUE_BACKUP_TIME and schedule `pg_dump` instead (see README, Import, export and backups)"
        )
    check_folder(settings.resolved_backup_dir, "PINLEAGUE_BACKUP_DIR")


class DailyBackup:
    def __init__(self, db: Database, clock: Clock, *, folder: Path, at: time, keep: int) -> None:
        self.db = db
        self.clock = clock
        self.folder = folder
        self.at = at
        self.keep = keep
        self._running = asyncio.Lock()  # the start-up run and the daily one never overlap
        self._scheduler: AsyncIOScheduler | None = None

    @classmethod
    def from_settings(cls, settings: Settings, db: Database, clock: Clock) -> DailyBackup | None:
        """None when PINLEAGUE_BACKUP_TIME is not set (`check` has vetted the rest)."""
        if settings.backup_time is None:
            return None
        return cls(db, clock, folder=settings.resolved_backup_dir, at=settings.backup_time, keep=settings.backup_keep)

    def schedule(self, scheduler: AsyncIOScheduler) -> None:
        """Every day at the backup time (run late rather than never, e.g. after a suspend), and once now."""
        self._scheduler = scheduler
        daily = CronTrigger(hour=self.at.hour, minute=self.at.minute, timezone=UTC)
        scheduler.add_job(self.run, daily, id="backup:daily", replace_existing=True, misfire_grace_time=None)
        scheduler.add_job(self.run, id="backup:at-start", replace_existing=True)

    def path_for(self, day: date) -> Path:
        return self.folder / f"pinleague-{day.isoformat()}.db"

    async def run(self) -> Path | None:
        """Back up the day due now unless its file exists, then delete the oldest beyond KEEP. The file written,
        or None when there was nothing to do (or the backup failed: logged, and tried again later)."""
        async with self._running:
            target = self.path_for(due_day(self.clock.now(), self.at))
            if target.exists():
                return None
            try:
                report = await backup(self.db, target)
            except Exception:
                log.exception("the daily backup to %s failed; trying again in %s", target, RETRY_AFTER)
                self._retry_later()
                return None
            log.info("daily backup %s", report.summary())
            self._rotate()
            return target

    def _retry_later(self) -> None:
        if self._scheduler is not None:
            when = DateTrigger(datetime.now(UTC) + RETRY_AFTER)
            self._scheduler.add_job(self.run, when, id="backup:retry", replace_existing=True)

    def _rotate(self) -> None:
        days = sorted(path for path in self.folder.iterdir() if DAY_FILE.fullmatch(path.name))
        for old in days[: -self.keep]:
            old.unlink(missing_ok=True)
            log.info("daily backup %s deleted (PINLEAGUE_BACKUP_KEEP=%d)", old, self.keep)
