"""Concurrent writers never fail with "database is locked" and never lose an update.

SQLite: `db.writing()` takes the write lock up front (`BEGIN IMMEDIATE`) and, within one process, queues
writers on an asyncio lock. PostgreSQL runs at READ COMMITTED, so the safe patterns are
`SELECT … FOR UPDATE` and `INSERT … ON CONFLICT DO NOTHING`. The control tests show that the hazards
are real here, so the tests that pass are not passing by luck.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from sqlalchemy import func, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import OperationalError
from sqlmodel import col, select

from storage.db import Database
from storage.models import AuditEntry, Player
from tests.storage import helpers as make
from tests.storage.helpers import count, insert

TASKS = 40
DEADLINE_S = 20  # a hang (say, a lock never released) fails the test instead of stalling the run

postgres_only = pytest.mark.parametrize("db", ["postgresql"], indirect=True)


async def run_all(n: int, work: Callable[[int], Awaitable[Any]]) -> list[Any]:
    """Run `work(0)` … `work(n-1)` concurrently; return results and exceptions, in order."""
    async with asyncio.timeout(DEADLINE_S):
        return await asyncio.gather(*(work(i) for i in range(n)), return_exceptions=True)


def failures(results: list[Any]) -> list[BaseException]:
    return [r for r in results if isinstance(r, BaseException)]


async def observed_counts(db: Database) -> list[int]:
    async with db.reading() as session:
        return sorted((await session.exec(select(AuditEntry.entity_id))).all())  # type: ignore[arg-type]


# --- SQLite: read-then-write transactions -----------------------------------------------------------


async def test_sqlite_plain_begin_read_then_write_fails_with_database_is_locked(sqlite_db: Database) -> None:
    """Control: the hazard from DESIGN.md §4, reproduced without `writing()` (plain deferred BEGIN)."""
    n = 10
    everyone_has_read = asyncio.Barrier(n)

    async def read_then_insert(i: int) -> None:
        async with sqlite_db.engine.connect() as connection:  # emits a plain BEGIN
            seen = (await connection.execute(text("SELECT count(*) FROM audit_entry"))).scalar_one()
            await everyone_has_read.wait()
            await connection.execute(
                text(
                    "INSERT INTO audit_entry (guild_id, actor_id, command, action, entity, entity_id, at) "
                    "VALUES (1, 1, 'c', 'a', 'e', :seen, '2026-01-01 00:00:00.000000')"
                ),
                {"seen": seen},
            )
            await connection.commit()

    errors = failures(await run_all(n, read_then_insert))

    assert errors, "expected plain BEGIN read-then-write to collide"
    assert all(isinstance(e, OperationalError) and "database is locked" in str(e) for e in errors), errors
    assert await count(sqlite_db, AuditEntry) == n - len(errors) < n


async def test_sqlite_concurrent_read_then_insert_writers_all_succeed(sqlite_db: Database) -> None:
    async def read_then_insert(i: int) -> None:
        async with sqlite_db.writing() as session:
            seen = (await session.exec(select(func.count()).select_from(AuditEntry))).one()
            await asyncio.sleep(0)  # let every other task try to get in
            session.add(make.audit(actor_id=i, entity_id=seen))

    results = await run_all(TASKS, read_then_insert)

    assert failures(results) == []
    assert await count(sqlite_db, AuditEntry) == TASKS
    # Serialised: each writer saw all earlier commits, so the counts read are exactly 0 … n-1.
    assert await observed_counts(sqlite_db) == list(range(TASKS))


async def test_sqlite_read_modify_write_increments_all_survive(sqlite_db: Database) -> None:
    counter = await insert(sqlite_db, make.audit(entity_id=0))

    async def increment(i: int) -> None:
        async with sqlite_db.writing() as session:
            row = await session.get(AuditEntry, counter.id)
            assert row is not None and row.entity_id is not None
            value = row.entity_id
            await asyncio.sleep(0)
            row.entity_id = value + 1

    results = await run_all(TASKS, increment)

    assert failures(results) == []
    async with sqlite_db.reading() as session:
        assert (await session.get(AuditEntry, counter.id)).entity_id == TASKS  # type: ignore[union-attr]


async def test_sqlite_two_database_objects_on_one_file_serialise_their_writers(sqlite_db: Database) -> None:
    """Two `Database` objects share no asyncio lock, like two processes: BEGIN IMMEDIATE plus the busy
    timeout make their writers wait for each other instead of failing."""
    other_process = Database(sqlite_db.url.render_as_string(hide_password=False))
    per_database = 20

    async def read_then_insert(i: int) -> None:
        database = sqlite_db if i % 2 else other_process
        async with database.writing() as session:
            seen = (await session.exec(select(func.count()).select_from(AuditEntry))).one()
            await asyncio.sleep(0.001)  # hold the write lock while the other side wants it
            session.add(make.audit(actor_id=i, entity_id=seen))

    try:
        results = await run_all(2 * per_database, read_then_insert)
    finally:
        await other_process.dispose()

    assert failures(results) == []
    assert await count(sqlite_db, AuditEntry) == 2 * per_database
    assert await observed_counts(sqlite_db) == list(range(2 * per_database))


async def test_sqlite_writer_holds_the_write_lock_from_its_first_statement(sqlite_db: Database) -> None:
    """The block has only read, yet another connection cannot start writing: BEGIN IMMEDIATE took the
    lock. Readers elsewhere still proceed (WAL)."""
    path = sqlite_db.url.database
    assert path is not None
    async with sqlite_db.writing() as session:
        await session.exec(select(func.count()).select_from(AuditEntry))

        outsider = sqlite3.connect(path, timeout=0, isolation_level=None)
        try:
            with pytest.raises(sqlite3.OperationalError, match="database is locked"):
                outsider.execute("BEGIN IMMEDIATE")
            assert outsider.execute("SELECT count(*) FROM audit_entry").fetchone() == (0,)
        finally:
            outsider.close()


async def test_sqlite_writers_in_one_process_wait_their_turn_before_entering_the_block(
    sqlite_db: Database,
) -> None:
    """In-process writers queue on the event loop (the asyncio lock), not in SQLite's busy handler."""
    second_entered = asyncio.Event()

    async def second_writer() -> None:
        async with sqlite_db.writing() as session:
            second_entered.set()
            session.add(make.audit(action="second"))

    async with sqlite_db.writing() as session:
        session.add(make.audit(action="first"))
        await session.flush()
        second = asyncio.create_task(second_writer())
        await asyncio.sleep(0.05)
        assert not second_entered.is_set(), "a second writer started while the first was still open"

    async with asyncio.timeout(5):
        await second
    async with sqlite_db.reading() as session:
        assert (await session.exec(select(AuditEntry.action).order_by(col(AuditEntry.id)))).all() == [
            "first",
            "second",
        ]


async def test_sqlite_failed_writer_releases_the_lock_for_the_next(sqlite_db: Database) -> None:
    with pytest.raises(RuntimeError):
        async with sqlite_db.writing() as session:
            session.add(make.audit())
            await session.flush()
            raise RuntimeError("boom")

    async with asyncio.timeout(5):
        await insert(sqlite_db, make.audit(action="after"))

    async with sqlite_db.reading() as session:
        assert (await session.exec(select(AuditEntry.action))).all() == ["after"]


async def test_reading_is_not_blocked_by_an_open_writer(db: Database) -> None:
    async with db.writing() as session:
        session.add(make.audit())
        await session.flush()
        async with asyncio.timeout(5):
            assert await count(db, AuditEntry) == 0

    assert await count(db, AuditEntry) == 1


# --- PostgreSQL: read-modify-write --------------------------------------------------------------------


async def _seed_counter(db: Database) -> int:
    counter = await insert(db, make.audit(entity_id=0))
    assert counter.id is not None
    return counter.id


async def _counter_value(db: Database, counter_id: int) -> int | None:
    async with db.reading() as session:
        row = await session.get(AuditEntry, counter_id)
    assert row is not None
    return row.entity_id


@postgres_only
async def test_postgres_plain_read_modify_write_loses_updates(db: Database) -> None:
    """Control: at READ COMMITTED, read-modify-write without a row lock loses increments."""
    counter_id = await _seed_counter(db)
    n = 10
    everyone_has_read = asyncio.Barrier(n)

    async def increment(i: int) -> None:
        async with db.writing() as session:
            row = await session.get(AuditEntry, counter_id)
            assert row is not None and row.entity_id is not None
            value = row.entity_id
            await everyone_has_read.wait()
            row.entity_id = value + 1

    assert failures(await run_all(n, increment)) == []
    assert await _counter_value(db, counter_id) == 1


@postgres_only
async def test_postgres_select_for_update_increments_all_survive(db: Database) -> None:
    counter_id = await _seed_counter(db)
    n = 30

    async def increment(i: int) -> None:
        async with db.writing() as session:
            statement = select(AuditEntry).where(col(AuditEntry.id) == counter_id).with_for_update()
            row = (await session.exec(statement)).one()
            assert row.entity_id is not None
            value = row.entity_id
            await asyncio.sleep(0.001)  # others queue on the row lock meanwhile
            row.entity_id = value + 1

    assert failures(await run_all(n, increment)) == []
    assert await _counter_value(db, counter_id) == n


# --- both: idempotent inserts ---------------------------------------------------------------------------


async def test_concurrent_insert_on_conflict_do_nothing_has_exactly_one_winner(db: Database) -> None:
    lg = await insert(db, make.league())
    n = 30
    dialect_insert = sqlite.insert if db.is_sqlite else postgresql.insert

    async def register(i: int) -> int | None:
        statement = (
            dialect_insert(Player)
            .values(
                league_id=lg.id,
                discord_user_id=1234567890123456789,
                display_name=f"attempt {i}",
                status="active",
                registered_at=make.WHEN,
            )
            .on_conflict_do_nothing(index_elements=["league_id", "discord_user_id"])
            .returning(col(Player.id))
        )
        async with db.writing() as session:
            new_id = (await session.exec(statement)).scalar_one_or_none()
            await asyncio.sleep(0.001)  # keep the transaction open while others try the same key
            return new_id

    results = await run_all(n, register)

    assert failures(results) == []
    winners = [r for r in results if r is not None]
    assert len(winners) == 1, results
    async with db.reading() as session:
        stored = (await session.exec(select(Player))).all()
    assert [p.id for p in stored] == winners
