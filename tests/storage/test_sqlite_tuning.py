"""SQLite tuning (DESIGN.md §4) is applied on every pooled connection, not just the first one."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from contextlib import AsyncExitStack, closing
from pathlib import Path

from sqlalchemy.ext.asyncio import AsyncConnection

from storage.db import Database
from storage.migrate import upgrade
from storage.models import League
from tests.storage import helpers as make
from tests.storage.helpers import count, insert

# busy_timeout 0: a lock held by another process is waited for by sleeping on the event loop
# (storage/sqlite_inline.py), never inside SQLite, which would stop the loop.
EXPECTED = {"journal_mode": "wal", "foreign_keys": 1, "busy_timeout": 0, "synchronous": 1}


async def pragmas(connection: AsyncConnection) -> dict[str, object]:
    values = {}
    for name in EXPECTED:
        values[name] = (await connection.exec_driver_sql(f"PRAGMA {name}")).scalar_one()
    return values


async def driver_connection_id(connection: AsyncConnection) -> int:
    return id((await connection.get_raw_connection()).driver_connection)


async def test_every_concurrently_held_connection_is_tuned(sqlite_db: Database) -> None:
    """Eight connections held at once are eight pooled DBAPI connections, including the one that ran
    the migrations (migrating toggles foreign_keys)."""
    async with AsyncExitStack() as stack:
        connections: list[AsyncConnection] = []
        writer = await stack.enter_async_context(sqlite_db.writing())
        connections.append(await writer.connection())
        for _ in range(3):
            reader = await stack.enter_async_context(sqlite_db.reading())
            connections.append(await reader.connection())
        for _ in range(4):
            connections.append(await stack.enter_async_context(sqlite_db.connect()))

        assert len({await driver_connection_id(c) for c in connections}) == len(connections)
        for connection in connections:
            assert await pragmas(connection) == EXPECTED


async def test_connections_opened_after_the_pool_is_disposed_are_tuned_too(sqlite_db: Database) -> None:
    await sqlite_db.dispose()

    async with sqlite_db.connect() as first, sqlite_db.connect() as second:
        assert await driver_connection_id(first) != await driver_connection_id(second)
        assert await pragmas(first) == EXPECTED
        assert await pragmas(second) == EXPECTED


async def test_the_database_file_really_is_in_wal_mode(sqlite_db: Database) -> None:
    await insert(sqlite_db, make.audit())

    path = Path(str(sqlite_db.url.database))
    assert path.with_name(path.name + "-wal").exists()


async def test_a_database_in_a_missing_directory_is_created_with_it(tmp_path: Path) -> None:
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'nested' / 'deeper' / 'league.db'}")
    try:
        await upgrade(database)
        await insert(database, make.league())

        assert (tmp_path / "nested" / "deeper" / "league.db").is_file()
        assert await count(database, League) == 1
        async with database.connect() as connection:
            assert await pragmas(connection) == EXPECTED
    finally:
        await database.dispose()


async def test_a_write_waits_for_another_process_lock_without_stopping_the_loop(sqlite_db: Database) -> None:
    """Another process (here a plain sqlite3 connection) holds the write lock for 0.3 s: the bot's write waits
    and then lands, while the event loop goes on serving other work the whole time."""
    await upgrade(sqlite_db)
    with closing(sqlite3.connect(str(sqlite_db.url.database), isolation_level=None)) as other_process:
        other_process.execute("BEGIN IMMEDIATE")
        write = asyncio.create_task(insert(sqlite_db, make.league()))
        ticks, began = 0, time.monotonic()
        while time.monotonic() - began < 0.3:
            await asyncio.sleep(0.01)
            ticks += 1
        assert not write.done()
        other_process.execute("COMMIT")
    await asyncio.wait_for(write, 5)
    assert ticks >= 15  # about 30 ticks of 10 ms: a blocked loop would have ticked once
    assert await count(sqlite_db, League) == 1
