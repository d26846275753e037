"""Throwaway databases for a benchmark run: a SQLite file in a temporary directory, or a PostgreSQL database
created on the server at PINLEAGUE_BENCH_PG_URL (default: the local one the tests use) and dropped after."""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
from sqlalchemy import text
from sqlalchemy.engine import make_url

from storage.db import Database
from storage.migrate import upgrade

PG_ADMIN_URL = os.environ.get("PINLEAGUE_BENCH_PG_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres")


@asynccontextmanager
async def scratch_database(kind: str) -> AsyncIterator[tuple[Database, str]]:
    """A migrated, empty database and the server's version."""
    if kind == "sqlite":
        with tempfile.TemporaryDirectory(prefix="pinleague-bench-") as directory:
            db = Database(f"sqlite+aiosqlite:///{Path(directory) / 'league.db'}")
            try:
                await upgrade(db)
                async with db.connect() as connection:
                    version = (await connection.execute(text("select sqlite_version()"))).scalar_one()
                yield db, f"SQLite {version}"
            finally:
                await db.dispose()
        return
    admin_url = make_url(PG_ADMIN_URL)
    admin = await asyncpg.connect(admin_url.set(drivername="postgresql").render_as_string(hide_password=False))
    name = f"pinleague_bench_{uuid.uuid4().hex[:10]}"
    await admin.execute(f'CREATE DATABASE "{name}"')
    db = Database(admin_url.set(database=name).render_as_string(hide_password=False))
    try:
        await upgrade(db)
        version = str(await admin.fetchval("show server_version"))
        yield db, f"PostgreSQL {version}"
    finally:
        await db.dispose()
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
