"""Apply or write Alembic migrations on the bot's own connection (no alembic.ini needed).

`fileConfig` is never called, so migrating at start leaves the bot's logging alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, text

from storage.db import Database

MIGRATIONS = Path(__file__).parent / "migrations"
MIGRATION_LOCK_KEY = 0x70696E6C  # "pinl": one advisory lock id for migrations on PostgreSQL


def _config(connection: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


async def upgrade(db: Database, revision: str = "head") -> None:
    """Migrate to `revision`. Safe when several processes start at once: they migrate one at a time
    (a writer transaction on SQLite, an advisory lock on PostgreSQL) and the later ones find nothing to do."""
    async with db.writer_connection() as connection:
        if db.is_sqlite:
            # Batch migrations rebuild tables, and with foreign keys on, dropping the old parent table
            # would cascade-delete its children. The pragma is ignored inside a transaction, so it goes
            # straight to the driver before SQLAlchemy begins one.
            await connection.run_sync(_sqlite_foreign_keys, False)
        try:
            if db.is_sqlite:
                # Begin (BEGIN IMMEDIATE) before Alembic looks: finding a transaction already open, it runs every
                # migration in it instead of committing after each one, when another process could slip in.
                await connection.execute(text("SELECT 1"))
            else:
                await connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
            await connection.run_sync(lambda sync: command.upgrade(_config(sync), revision))
            await connection.commit()
        finally:
            if db.is_sqlite:
                await connection.rollback()
                await connection.run_sync(_sqlite_foreign_keys, True)


def _sqlite_foreign_keys(sync: Connection, enabled: bool) -> None:
    cursor = sync.connection.cursor()
    cursor.execute(f"PRAGMA foreign_keys={'ON' if enabled else 'OFF'}")
    cursor.close()


async def current_revision(db: Database) -> str | None:
    async with db.connect() as connection:

        def read(sync: Connection) -> Any:
            if not sync.dialect.has_table(sync, "alembic_version"):
                return None
            return sync.execute(text("SELECT version_num FROM alembic_version")).scalar()

        return await connection.run_sync(read)


async def write_revision(db: Database, message: str) -> None:
    """Autogenerate a new migration from the models (developers: `pinleague db revision -m …`)."""
    async with db.connect() as connection:
        await connection.run_sync(lambda sync: command.revision(_config(sync), message=message, autogenerate=True))
