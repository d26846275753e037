"""Online backups of a SQLite database, and restoring one (PostgreSQL: `pg_dump`/`pg_restore`, see README).

The backup uses SQLite's backup API through the bot's own aiosqlite connection, so it can run next to the
bot: it copies one consistent snapshot (WAL readers never block writers) into a temporary file, checks it
with `PRAGMA integrity_check`, and only then moves it into place.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite
from sqlmodel import SQLModel

from storage.db import Database

PG_HELP = (
    "This database is PostgreSQL: back it up with `pg_dump --format=custom --file=pinleague.dump DATABASE_URL` and "
    "restore with `pg_restore --clean --if-exists --dbname=DATABASE_URL pinleague.dump` (see README)."
)


class BackupError(Exception):
    """A backup or restore that did not happen, with what to do instead."""


@dataclass(frozen=True)
class BackupReport:
    path: Path
    row_counts: dict[str, int]  # rows per table in the copy

    def summary(self) -> str:
        rows = sum(self.row_counts.values())
        return f"{self.path}: integrity ok, {rows} rows in {len(self.row_counts)} tables"


async def backup(db: Database, target: Path) -> BackupReport:
    """Copy the running database to `target` (replaced only once the copy passed its integrity check)."""
    _require_sqlite(db)
    partial = _fresh_partial(target)
    async with db.connect() as connection:
        source = await _driver_connection(connection)
        async with aiosqlite.connect(partial) as copy:
            await source.backup(copy)
            counts = await _checked_counts(copy, partial)
    os.replace(partial, target)
    return BackupReport(target, counts)


async def restore(db: Database, source: Path) -> BackupReport:
    """Replace the database's contents with a backup. Stop the bot first: this overwrites every table."""
    _require_sqlite(db)
    _require_file(source)
    async with aiosqlite.connect(source) as backup_file:
        await _checked_counts(backup_file, source)
        async with db.connect() as connection:
            await backup_file.backup(await _driver_connection(connection))
            counts = await _checked_counts(await _driver_connection(connection), Path(str(db.url.database)))
    return BackupReport(Path(str(db.url.database)), counts)


def _fresh_partial(target: Path) -> Path:
    """Where the copy is written until it passed its check."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    return partial


def _require_file(source: Path) -> None:
    if not source.is_file():
        raise BackupError(f"{source} is not a file; give the path of a backup made with `pinleague backup`.")


def _require_sqlite(db: Database) -> None:
    if not db.is_sqlite:
        raise BackupError(PG_HELP)


async def _driver_connection(connection: Any) -> aiosqlite.Connection:
    raw = await connection.get_raw_connection()
    driver: aiosqlite.Connection = raw.driver_connection
    return driver


async def _checked_counts(connection: aiosqlite.Connection, path: Path) -> dict[str, int]:
    async with connection.execute("PRAGMA integrity_check") as cursor:
        verdict = [row[0] for row in await cursor.fetchall()]
    if verdict != ["ok"]:
        raise BackupError(f"{path} failed its integrity check: {'; '.join(verdict[:5])}")
    counts = {}
    for table in SQLModel.metadata.sorted_tables:
        async with connection.execute(f'SELECT count(*) FROM "{table.name}"') as cursor:
            row = await cursor.fetchone()
        counts[table.name] = row[0] if row else 0
    return counts
