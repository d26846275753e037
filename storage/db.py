"""Engine and transactions for SQLite (embedded default) and PostgreSQL.

Services never build sessions themselves: they ask for `db.reading()` or `db.writing()`.

SQLite notes (DESIGN.md §4): pysqlite's implicit BEGIN is turned off so a writer can take the write
lock up front with `BEGIN IMMEDIATE`; a read-then-write transaction under a plain BEGIN fails with
"database is locked" when another writer got there first. Inside one process the writers also queue
on an asyncio lock, so they wait their turn on the event loop instead of in SQLite's sleeping busy
handler (which adds tens of milliseconds per collision). BEGIN IMMEDIATE still guards against other
processes, such as a CLI import next to the running bot.

PostgreSQL runs at READ COMMITTED; services rely on unique constraints and `SELECT … FOR UPDATE`
for races, never on read-modify-write in Python.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, async_sessionmaker, create_async_engine
from sqlmodel.ext.asyncio.session import AsyncSession

SQLITE_BUSY_TIMEOUT_MS = 15_000
_WRITER_OPTION = "pinleague_writer"


class Database:
    def __init__(self, url: str, *, echo: bool = False) -> None:
        self.url = make_url(url)
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        connect_args: dict[str, Any] = {}
        if self.is_sqlite:
            self._ensure_sqlite_directory()
            connect_args = {"isolation_level": None, "timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}
        self.engine: AsyncEngine = create_async_engine(
            self.url, echo=echo, connect_args=connect_args, pool_pre_ping=not self.is_sqlite
        )
        if self.is_sqlite:
            _tune_sqlite(self.engine)
        self._reader = async_sessionmaker(self.engine, class_=AsyncSession, expire_on_commit=False)
        self._writer = async_sessionmaker(
            self.engine.execution_options(**{_WRITER_OPTION: True}),
            class_=AsyncSession,
            expire_on_commit=False,
        )
        self._write_lock = asyncio.Lock() if self.is_sqlite else None
        self.commits = 0  # writer transactions committed through this object: a version for caches

    def _ensure_sqlite_directory(self) -> None:
        database = self.url.database
        if database and database != ":memory:" and not database.startswith("file:"):
            Path(database).parent.mkdir(parents=True, exist_ok=True)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[AsyncSession]:
        """A read-only unit of work; rolled back at the end."""
        async with self._reader() as session:
            yield session

    @asynccontextmanager
    async def writing(self, *, derived: bool = False) -> AsyncIterator[AsyncSession]:
        """One transaction that commits if the block finishes and rolls back if it raises. `derived` writes only
        store copies of what is computed from the league's rows (stored results): they leave `commits`, the
        version caches are keyed on, as it was."""
        if self._write_lock is None:
            async with self._writer() as session, session.begin():
                yield session
        else:
            async with self._write_lock, self._writer() as session, session.begin():
                yield session
        if not derived:
            self.commits += 1

    @asynccontextmanager
    async def writer_connection(self) -> AsyncIterator[AsyncConnection]:
        """A raw connection whose transactions take the write lock up front (BEGIN IMMEDIATE on SQLite)."""
        async with self.engine.execution_options(**{_WRITER_OPTION: True}).connect() as connection:
            yield connection

    @asynccontextmanager
    async def connect(self) -> AsyncIterator[AsyncConnection]:
        async with self.engine.connect() as connection:
            yield connection

    async def dispose(self) -> None:
        await self.engine.dispose()


def _tune_sqlite(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        for pragma in (
            "PRAGMA journal_mode=WAL",
            "PRAGMA foreign_keys=ON",
            "PRAGMA synchronous=NORMAL",
            f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}",
        ):
            cursor.execute(pragma)
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Any) -> None:
        writer = connection.get_execution_options().get(_WRITER_OPTION, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writer else "BEGIN")
