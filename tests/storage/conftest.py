"""Fixtures for storage tests that need a database nobody has migrated yet."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy.engine import make_url

from storage.db import Database
from tests.conftest import IN_CI, PG_ADMIN_URL, _asyncpg_dsn


async def _admin_connection() -> asyncpg.Connection:
    try:
        return await asyncpg.connect(_asyncpg_dsn(PG_ADMIN_URL), timeout=5)
    except (OSError, asyncpg.PostgresError) as exc:
        if IN_CI:
            pytest.fail(f"PostgreSQL is required in CI but {PG_ADMIN_URL} did not answer: {exc}")
        pytest.skip(f"no PostgreSQL at {PG_ADMIN_URL} ({exc}); set PINLEAGUE_TEST_PG_URL to run these")


@pytest.fixture(params=["sqlite", "postgresql"])
async def empty_db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    """A database with no tables at all: a new SQLite file, or a new PostgreSQL database dropped after."""
    if request.param == "sqlite":
        database = Database(f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}")
        try:
            yield database
        finally:
            await database.dispose()
        return

    admin = await _admin_connection()
    name = f"pinleague_empty_{uuid.uuid4().hex[:12]}"
    await admin.execute(f'CREATE DATABASE "{name}"')
    database = Database(make_url(PG_ADMIN_URL).set(database=name).render_as_string(hide_password=False))
    try:
        yield database
    finally:
        await database.dispose()
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
