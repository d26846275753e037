"""Fixtures of the league-file tests."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from storage.db import Database
from storage.migrate import upgrade
from tests.conftest import PG_ADMIN_URL, fresh_sqlite
from tests.storage.conftest import _admin_connection


@pytest.fixture
async def empty_target(db: Database, tmp_path: Path, migrated_sqlite: Path) -> AsyncIterator[Database]:
    """A second migrated database with nothing in it, on the same kind of server as `db`."""
    if db.is_sqlite:
        target = fresh_sqlite(migrated_sqlite, tmp_path / "target.db")
        yield target
        await target.dispose()
        return
    admin = await _admin_connection()
    name = f"pinleague_target_{uuid.uuid4().hex[:12]}"
    await admin.execute(f'CREATE DATABASE "{name}"')
    target = Database(make_url(PG_ADMIN_URL).set(database=name).render_as_string(hide_password=False))
    try:
        await upgrade(target)
        yield target
    finally:
        await target.dispose()
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
