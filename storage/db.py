"""Engine and transactions for SQLite (embedded default) and PostgreSQL.

Services never build sessions themselves: they ask for `db.reading()` or `db.writing()`.

SQLite notes (DESIGN.md §4): pysqlite's implicit BEGIN is turned off so a writer can take the write
lock up front with `BEGIN IMMEDIATE`; a read-then-write transaction under a plain BEGIN fails with
"database is locked" when another writer got there first. Inside one process the writers also queue
on an asyncio lock, so they wait their turn on the event loop instead of in SQLite's sleeping busy
handler (which adds tens of milliseconds per collision). BEGIN IMMEDIATE still guards against other
processes, such as a CLI import next to the running bot. Statements run on the event loop's thread
(`storage/sqlite_inline.py`), not on aiosqlite's: a transaction holds the write lock only for its own work.

PostgreSQL runs at READ COMMITTED; services rely on unique constraints and `SELECT … FOR UPDATE`
for races, never on read-modify-write in Python.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, async_sessionmaker, create_async_engine
from sqlmodel import Session
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.sqlite_inline import inline_connector

SQLITE_BUSY_TIMEOUT_MS = 15_000
POSTGRES_CONNECT_TIMEOUT = 10  # seconds; asyncpg's own 60 s leaves a start against a silent host hanging
_WRITER_OPTION = "pinleague_writer"
PING_AFTER_IDLE = 10.0  # seconds a pooled PostgreSQL connection may sit unused before it is pinged
_RETURNED_AT = "pinleague_returned_at"
# PostgreSQL's SQLSTATEs for what a wrong URL causes
_BAD_PASSWORD, _BAD_ROLE, _NO_DATABASE = "28P01", "28000", "3D000"


class DatabaseUnavailable(Exception):
    """The database cannot be opened or reached; the message is one line naming the cause and the fix."""


class WriteInReadingBlock(Exception):
    """A change flushed inside `db.reading()`: changes belong in `db.writing()`."""


class ReadingSession(Session):
    """The session of `db.reading()`. It refuses to flush a change: on PostgreSQL reads run in autocommit, where a
    flushed change would stay, and anywhere a change made in a read would otherwise vanish without a word."""


@event.listens_for(ReadingSession, "before_flush")
def _refuse_changes(session: Session, _context: Any, _instances: Any) -> None:
    changed = [*session.new, *session.deleted, *(row for row in session.dirty if session.is_modified(row))]
    if changed:
        raise WriteInReadingBlock(f"db.reading() cannot change rows ({type(changed[0]).__name__}): use db.writing()")


class Database:
    def __init__(self, url: str, *, echo: bool = False) -> None:
        self.url = make_url(url)
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        engine_args: dict[str, Any] = {"connect_args": {"timeout": POSTGRES_CONNECT_TIMEOUT}}
        if self.is_sqlite:
            self._ensure_sqlite_directory()
            busy_timeout_s = SQLITE_BUSY_TIMEOUT_MS / 1000
            engine_args = {"async_creator": inline_connector(str(self.url.database), busy_timeout_s=busy_timeout_s)}
        self.engine: AsyncEngine = create_async_engine(self.url, echo=echo, **engine_args)
        if self.is_sqlite:
            _tune_sqlite(self.engine)
            reader = self.engine
        else:
            _ping_when_idle(self.engine)
            # At READ COMMITTED every statement sees what was committed before it, in a transaction or not: a
            # read in autocommit sees the same rows and saves the BEGIN and ROLLBACK round trips.
            reader = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        self._reader = async_sessionmaker(
            reader, class_=AsyncSession, sync_session_class=ReadingSession, expire_on_commit=False
        )
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
            folder = Path(database).parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise DatabaseUnavailable(
                    f"cannot create {folder} for the SQLite database ({exc.strerror}): make it a folder this user may "
                    "write to, or change PINLEAGUE_DATABASE_URL"
                ) from exc

    async def ping(self) -> None:
        """One round trip to the database; a failure to connect raises DatabaseUnavailable."""
        try:
            async with self.engine.connect() as connection:
                await connection.execute(text("SELECT 1"))
        except (OSError, DBAPIError) as exc:
            raise DatabaseUnavailable(connection_problem(self.url, exc)) from exc

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


def _ping_when_idle(engine: AsyncEngine) -> None:
    """Check a pooled PostgreSQL connection before use only if it sat idle a while (SQLAlchemy's pool_pre_ping
    pings at every checkout: a round trip per unit of work). A server restart or an idle timeout finds idle
    connections; a failed ping makes the pool open a fresh one, as pre_ping does."""

    @event.listens_for(engine.sync_engine, "checkin")
    def _on_checkin(_dbapi_connection: Any, record: Any) -> None:
        record.info[_RETURNED_AT] = time.monotonic()

    @event.listens_for(engine.sync_engine, "checkout")
    def _on_checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        returned_at = record.info.get(_RETURNED_AT)
        if returned_at is None or time.monotonic() - returned_at < PING_AFTER_IDLE:
            return  # new, or used a moment ago
        try:
            dbapi_connection.ping()
        except Exception as exc:  # whatever the driver raises for a dead connection
            raise DisconnectionError(f"a pooled connection failed its ping: {exc}") from exc


def _tune_sqlite(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        for pragma in (
            "PRAGMA journal_mode=WAL",
            "PRAGMA foreign_keys=ON",
            "PRAGMA synchronous=NORMAL",
        ):
            cursor.execute(pragma)
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Any) -> None:
        writer = connection.get_execution_options().get(_WRITER_OPTION, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writer else "BEGIN")


def connection_problem(url: URL, exc: OSError | DBAPIError) -> str:
    """What a failure to connect means for whoever set PINLEAGUE_DATABASE_URL, and what to change."""
    shown = url.render_as_string(hide_password=True)
    if url.get_backend_name() == "sqlite":
        return f"cannot open the SQLite database {url.database} ({_reason(exc)}): make its folder writable"
    where = f"{url.host or 'localhost'}:{url.port or 5432}"
    if isinstance(exc, socket.gaierror):
        return f"cannot find the database host {url.host!r} ({exc.strerror}): fix the host in PINLEAGUE_DATABASE_URL"
    if isinstance(exc, ConnectionRefusedError):
        return (
            f"nothing accepts connections at {where} (connection refused): start PostgreSQL there, or fix the host "
            f"and port in PINLEAGUE_DATABASE_URL ({shown})"
        )
    if isinstance(exc, TimeoutError):
        return f"PostgreSQL at {where} did not answer in {POSTGRES_CONNECT_TIMEOUT} s: check its host, port, firewall"
    if isinstance(exc, OSError):
        return f"cannot connect to PostgreSQL at {where} ({exc}): check the host and port in PINLEAGUE_DATABASE_URL"
    state = getattr(exc.orig, "sqlstate", None)
    if state == _BAD_PASSWORD:
        return (
            f"PostgreSQL at {where} refused the password of user {url.username!r}: fix the password in "
            "PINLEAGUE_DATABASE_URL (postgresql+asyncpg://USER:PASSWORD@HOST:PORT/DATABASE)"
        )
    if state == _BAD_ROLE:
        return (
            f"PostgreSQL at {where} refused user {url.username!r} ({_reason(exc)}): create the role or fix the user "
            "in PINLEAGUE_DATABASE_URL"
        )
    if state == _NO_DATABASE:
        return (
            f"PostgreSQL at {where} has no database {url.database!r}: create it (createdb -h {url.host} "
            f"-U {url.username} {url.database}) or fix its name in PINLEAGUE_DATABASE_URL"
        )
    return f"PostgreSQL at {where} refused the connection ({_reason(exc)}): check PINLEAGUE_DATABASE_URL ({shown})"


def _reason(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None) or exc
    return str(orig).splitlines()[0] if str(orig) else type(orig).__name__
