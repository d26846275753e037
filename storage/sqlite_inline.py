"""SQLite run on the event loop's own thread, for SQLAlchemy's async engine (in aiosqlite's place).

aiosqlite runs each statement on a thread of its own and hands the result back through the event loop, so each
statement of a transaction waits for the loop, and for the GIL (Python's switch interval is 5 ms), while
other commands run. Under load the ~25 statements of a score entry held SQLite's one writer for tens of
milliseconds, and every other writer queued behind it. A statement on a local SQLite file takes tens of
microseconds: run inline, a transaction holds the writer for its own work only, and costs no thread hops.

SQLite can still be locked by another process (the `pinleague` command line on the same file): statements
then fail at once (busy_timeout 0) and are retried after short sleeps, so the loop is never blocked waiting.
A statement that failed with SQLITE_BUSY did nothing, so retrying it is safe.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

T = TypeVar("T")
FIRST_RETRY_S = 0.001
LONGEST_RETRY_S = 0.05


class InlineCursor:
    """The part of aiosqlite's cursor SQLAlchemy's adapter uses, each coroutine finishing without suspending."""

    def __init__(self, connection: InlineConnection, cursor: sqlite3.Cursor) -> None:
        self._connection = connection
        self._cursor = cursor

    async def __aenter__(self) -> InlineCursor:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        self._cursor.close()

    @property
    def description(self) -> Any:
        return self._cursor.description

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    @property
    def lastrowid(self) -> int | None:
        return self._cursor.lastrowid

    @property
    def arraysize(self) -> int:
        return self._cursor.arraysize

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        self._cursor.arraysize = value

    async def execute(self, sql: str, parameters: Any = ()) -> InlineCursor:
        await self._connection.when_unlocked(lambda: self._cursor.execute(sql, parameters))
        return self

    async def executemany(self, sql: str, parameters: Iterable[Any]) -> InlineCursor:
        rows = list(parameters)
        await self._connection.when_unlocked(lambda: self._cursor.executemany(sql, rows))
        return self

    async def fetchall(self) -> list[Any]:
        return self._cursor.fetchall()

    async def fetchone(self) -> Any:
        return self._cursor.fetchone()

    async def fetchmany(self, size: int | None = None) -> list[Any]:
        return self._cursor.fetchmany(size if size is not None else self._cursor.arraysize)

    async def close(self) -> None:
        self._cursor.close()


class _RunAtOnce:
    """aiosqlite's request queue, as SQLAlchemy's adapter uses it to set the isolation level."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection

    def put_nowait(self, request: tuple[asyncio.Future[Any], Callable[[], Any]]) -> None:
        future, function = request
        try:
            future.set_result(function())
        except Exception as error:
            future.set_exception(error)


class InlineConnection:
    """The part of aiosqlite's connection SQLAlchemy's adapter uses, over a `sqlite3` connection."""

    def __init__(self, connection: sqlite3.Connection, *, busy_timeout_s: float) -> None:
        self._conn = self._connection = connection
        self._tx = _RunAtOnce(connection)
        self._busy_timeout_s = busy_timeout_s

    @property
    def isolation_level(self) -> str | None:
        return self._conn.isolation_level

    @property
    def sqlite_connection(self) -> sqlite3.Connection:
        """The `sqlite3` connection itself (backups run it on a thread: they may take a while)."""
        return self._conn

    async def when_unlocked(self, statement: Callable[[], T]) -> T:
        """Run `statement`; while another process holds the database locked, retry it after a sleep."""
        deadline = time.monotonic() + self._busy_timeout_s
        pause = FIRST_RETRY_S
        while True:
            try:
                return statement()
            except sqlite3.OperationalError as error:
                if error.sqlite_errorcode not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                    raise
                if time.monotonic() + pause > deadline:
                    raise
            await asyncio.sleep(pause)
            pause = min(pause * 2, LONGEST_RETRY_S)

    def cursor(self) -> InlineCursor:
        return InlineCursor(self, self._conn.cursor())

    async def execute(self, sql: str, parameters: Any = ()) -> InlineCursor:
        return await self.cursor().execute(sql, parameters)

    async def commit(self) -> None:
        await self.when_unlocked(self._conn.commit)

    async def rollback(self) -> None:
        self._conn.rollback()

    async def close(self) -> None:
        self._conn.close()

    def stop(self) -> None:
        self._conn.close()

    async def create_function(self, *args: Any, **kwargs: Any) -> None:
        self._conn.create_function(*args, **kwargs)


def inline_connector(path: str, *, busy_timeout_s: float) -> Callable[[], Any]:
    """An `async_creator` for `create_async_engine`: a new inline connection to the SQLite file at `path`."""

    async def connect() -> InlineConnection:
        # autocommit mode (isolation_level None): SQLAlchemy issues BEGIN itself; check_same_thread off so a
        # backup may use the connection from a worker thread while nothing else holds it.
        connection = sqlite3.connect(path, timeout=0, isolation_level=None, check_same_thread=False)
        return InlineConnection(connection, busy_timeout_s=busy_timeout_s)

    return connect
