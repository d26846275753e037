"""SQLite tuning (DESIGN.md §4) is applied on every pooled connection, not just the first one."""

from __future__ import annotations

from contextlib import AsyncExitStack
from pathlib import Path

from sqlalchemy.ext.asyncio import AsyncConnection

from storage.db import Database
from storage.migrate import upgrade
from storage.models import League
from tests.storage import helpers as make
from tests.storage.helpers import count, insert

EXPECTED = {"journal_mode": "wal", "foreign_keys": 1, "busy_timeout": 15_000, "synchronous": 1}


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
