"""Fixtures of the league-file tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.db import Database
from tests.conftest import ThrowawayPostgres, empty_all, fresh_sqlite


@pytest.fixture
async def empty_target(
    db: Database, tmp_path: Path, migrated_sqlite: Path, second_postgres: ThrowawayPostgres
) -> AsyncIterator[Database]:
    """A second migrated database with nothing in it, on the same kind of server as `db`."""
    if db.is_sqlite:
        target = fresh_sqlite(migrated_sqlite, tmp_path / "target.db")
    else:
        target = Database(await second_postgres.url())
        await empty_all(target)
    try:
        yield target
    finally:
        await target.dispose()
