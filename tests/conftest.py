"""Fixtures shared by every test layer: databases on SQLite and PostgreSQL.

PostgreSQL cases skip with a reason when no server answers, except in CI (`CI=true`), where a missing
PostgreSQL fails the run.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
from hypothesis import HealthCheck, settings
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlmodel import SQLModel

from storage.db import Database
from storage.migrate import upgrade

PG_ADMIN_URL = os.environ.get("PINLEAGUE_TEST_PG_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
IN_CI = os.environ.get("CI", "").lower() == "true"

# Property tests check what the rules return, not how fast: a per-example deadline only fails a test whose machine
# is busy (parallel workers, a mutation run). Speed is the benchmark's business (bench/). A mutation run calls each
# test more than once in one process, with a new instance of its class each time: nothing a test relies on.
settings.register_profile("pinleague", deadline=None, suppress_health_check=[HealthCheck.differing_executors])
settings.load_profile("pinleague")

ALONE_LIST = "PINLEAGUE_TEST_ALONE_LIST"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Where `manage.py test` asks (ALONE_LIST names a file), the first worker of the parallel part writes the ids
    of the `alone` tests it collected, before `-m` deselects them: the `alone` part then runs those ids and
    collects their files only, not the whole suite again (about 6 s of imports and collection in one process)."""
    target = os.environ.get(ALONE_LIST)
    if target and os.environ.get("PYTEST_XDIST_WORKER", "gw0") == "gw0":
        alone = [item.nodeid for item in items if item.get_closest_marker("alone")]
        Path(target).write_text("".join(f"{nodeid}\n" for nodeid in alone))


def _asyncpg_dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class ThrowawayPostgres:
    """Creates one PostgreSQL database for the test session on first use, migrated to head."""

    def __init__(self) -> None:
        self._admin: asyncpg.Connection | None = None
        self._url: str | None = None
        self._name = f"pinleague_test_{uuid.uuid4().hex[:12]}"

    async def url(self) -> str:
        if self._url is None:
            try:
                self._admin = await asyncpg.connect(_asyncpg_dsn(PG_ADMIN_URL), timeout=5)
            except (OSError, asyncpg.PostgresError) as exc:
                if IN_CI:
                    pytest.fail(f"PostgreSQL is required in CI but {PG_ADMIN_URL} did not answer: {exc}")
                pytest.skip(f"no PostgreSQL at {PG_ADMIN_URL} ({exc}); set PINLEAGUE_TEST_PG_URL to run these")
            await self._admin.execute(f'CREATE DATABASE "{self._name}"')
            # A commit then returns before its WAL record reaches the disk (about 1.5 ms less per commit here).
            # Nothing a test checks depends on surviving a crash of PostgreSQL itself: the crash tests kill
            # the bot, and what PostgreSQL acknowledged stays visible to every other connection.
            await self._admin.execute(f'ALTER DATABASE "{self._name}" SET synchronous_commit = off')
            url = make_url(PG_ADMIN_URL).set(database=self._name).render_as_string(hide_password=False)
            migrated = Database(url)
            await upgrade(migrated)
            await migrated.dispose()
            self._url = url
        return self._url

    async def drop(self) -> None:
        if self._admin is not None:
            await self._admin.execute(f'DROP DATABASE IF EXISTS "{self._name}" WITH (FORCE)')
            await self._admin.close()


@pytest.fixture(scope="session")
async def throwaway_postgres() -> AsyncIterator[ThrowawayPostgres]:
    server = ThrowawayPostgres()
    try:
        yield server
    finally:
        await server.drop()


@pytest.fixture(scope="session")
async def second_postgres() -> AsyncIterator[ThrowawayPostgres]:
    """Another session database, for tests that copy a league from one database into another."""
    server = ThrowawayPostgres()
    try:
        yield server
    finally:
        await server.drop()


def _emptying_script() -> str:
    """One statement that deletes every row, dependents first, and restarts every id sequence at 1. (TRUNCATE
    of the ~50 tables takes PostgreSQL about half a second, as it replaces each table's files; deleting the
    few rows a test leaves takes milliseconds.)"""
    deletes = " ".join(f'DELETE FROM "{table.name}";' for table in reversed(SQLModel.metadata.sorted_tables))
    restarts = "PERFORM setval(c.oid, 1, false) FROM pg_class c WHERE c.relkind = 'S';"
    return f"DO $$ BEGIN {deletes} {restarts} END $$"


async def empty_all(db: Database) -> None:
    async with db.engine.begin() as connection:
        await connection.execute(text(_emptying_script()))


@pytest.fixture(scope="session")
async def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to head once per session: tests get a copy, as migrating takes half a second and
    copying a millisecond (the migrations themselves are tested from empty databases in test_migrations)."""
    path = tmp_path_factory.mktemp("migrated") / "league.db"
    database = Database(f"sqlite+aiosqlite:///{path}")
    await upgrade(database)
    await database.dispose()
    assert not path.with_name(f"{path.name}-wal").exists(), "closing the last connection checkpoints the WAL"
    return path


def fresh_sqlite(migrated: Path, path: Path) -> Database:
    """A migrated, empty SQLite database at `path`, copied from the session's migrated file."""
    shutil.copyfile(migrated, path)
    return Database(f"sqlite+aiosqlite:///{path}")


@pytest.fixture(params=["sqlite", "postgresql"])
async def db(
    request: pytest.FixtureRequest, tmp_path: Path, throwaway_postgres: ThrowawayPostgres, migrated_sqlite: Path
) -> AsyncIterator[Database]:
    """A migrated, empty database: a fresh SQLite file, or the session's PostgreSQL database emptied."""
    if request.param == "sqlite":
        database = fresh_sqlite(migrated_sqlite, tmp_path / "league.db")
    else:
        database = Database(await throwaway_postgres.url())
        await empty_all(database)
    try:
        yield database
    finally:
        await database.dispose()


@pytest.fixture
async def sqlite_db(tmp_path: Path, migrated_sqlite: Path) -> AsyncIterator[Database]:
    database = fresh_sqlite(migrated_sqlite, tmp_path / "league.db")
    try:
        yield database
    finally:
        await database.dispose()
