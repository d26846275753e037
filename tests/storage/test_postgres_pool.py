"""PostgreSQL connections from the pool: reads run without a transaction of their own (READ COMMITTED sees the same
rows), and a pooled connection that sat idle is checked before use, so one the server dropped is replaced instead
of failing the next command."""

from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg
import pytest
from sqlalchemy import text
from sqlmodel import select

import storage.db
from storage.db import Database
from storage.models import League
from tests.conftest import ThrowawayPostgres, _asyncpg_dsn
from tests.storage import helpers as make


@pytest.fixture
async def pg(throwaway_postgres: ThrowawayPostgres) -> AsyncIterator[Database]:
    database = Database(await throwaway_postgres.url())
    try:
        yield database
    finally:
        await database.dispose()


async def backend_pid(db: Database) -> int:
    async with db.reading() as session:
        return int((await session.exec(text("SELECT pg_backend_pid()"))).one()[0])  # type: ignore[call-overload]


async def test_a_read_holds_no_transaction_and_sees_what_was_committed_meanwhile(pg: Database) -> None:
    async with pg.reading() as session:
        first = (await session.exec(text("SELECT transaction_timestamp()"))).one()[0]  # type: ignore[call-overload]
        second = (await session.exec(text("SELECT transaction_timestamp()"))).one()[0]  # type: ignore[call-overload]
        assert first != second, "each statement is its own transaction"
        async with pg.writing() as writer:
            writer.add(make.league(guild_id=77, name="Committed meanwhile"))
        names = (await session.exec(select(League.name).where(League.guild_id == 77))).all()
        assert names == ["Committed meanwhile"]


async def test_an_idle_connection_the_server_dropped_is_replaced(
    pg: Database, throwaway_postgres: ThrowawayPostgres, monkeypatch: pytest.MonkeyPatch
) -> None:
    dropped = await backend_pid(pg)  # the pool keeps this connection
    admin = await asyncpg.connect(_asyncpg_dsn(await throwaway_postgres.url()))
    try:  # the server ends it, as a restart or an idle timeout would
        assert await admin.fetchval("SELECT pg_terminate_backend($1)", dropped)
    finally:
        await admin.close()
    monkeypatch.setattr(storage.db, "PING_AFTER_IDLE", 0.0)  # every pooled connection counts as idle
    assert await backend_pid(pg) != dropped
