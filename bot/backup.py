"""Online backups of a SQLite database, and restoring one (PostgreSQL: `pg_dump`/`pg_restore`, see README).

The backup uses SQLite's backup API through one of the bot's own pooled connections, on a worker thread (a
large copy would hold up the event loop), so it can run next to the bot: it copies one consistent snapshot
(WAL readers never block writers) into a temporary file, checks it with `PRAGMA integrity_check`, and only then
moves it into place.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlmodel import SQLModel

from storage.db import Database
from storage.sqlite_inline import InlineConnection

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
        source = await _sqlite_connection(connection)
        counts = await asyncio.to_thread(_copy, source, partial)
    os.replace(partial, target)
    return BackupReport(target, counts)


async def restore(db: Database, source: Path) -> BackupReport:
    """Replace the database's contents with a backup. Stop the bot first: this overwrites every table."""
    _require_sqlite(db)
    _require_file(source)
    async with db.connect() as connection:
        target = await _sqlite_connection(connection)
        counts = await asyncio.to_thread(_restore, source, target, Path(str(db.url.database)))
    return BackupReport(Path(str(db.url.database)), counts)


def _copy(source: sqlite3.Connection, partial: Path) -> dict[str, int]:
    with contextlib.closing(sqlite3.connect(partial)) as copy:
        source.backup(copy)
        return _checked_counts(copy, partial)


def _restore(source: Path, target: sqlite3.Connection, target_path: Path) -> dict[str, int]:
    with contextlib.closing(sqlite3.connect(source)) as backup_file:
        _checked_counts(backup_file, source)
        backup_file.backup(target)
    return _checked_counts(target, target_path)


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


async def _sqlite_connection(connection: Any) -> sqlite3.Connection:
    """The `sqlite3` connection under a pooled one, held by this caller alone until it is returned."""
    raw = await connection.get_raw_connection()
    driver: InlineConnection = raw.driver_connection
    return driver.sqlite_connection


def _checked_counts(connection: sqlite3.Connection, path: Path) -> dict[str, int]:
    verdict = [row[0] for row in connection.execute("PRAGMA integrity_check").fetchall()]
    if verdict != ["ok"]:
        raise BackupError(f"{path} failed its integrity check: {'; '.join(verdict[:5])}")
    counts = {}
    for table in SQLModel.metadata.sorted_tables:
        row = connection.execute(f'SELECT count(*) FROM "{table.name}"').fetchone()
        counts[table.name] = row[0] if row else 0
    return counts
