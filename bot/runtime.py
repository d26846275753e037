"""Start-up: the database a runtime (the bot, the local chat) runs on, reached and migrated to the newest revision
before use and disposed of after. The runtimes reach storage through here alone."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from alembic.util.exc import CommandError

from bot.startup import StartupError
from storage.db import Database, DatabaseUnavailable
from storage.migrate import upgrade

_UNKNOWN_REVISION = re.compile(r"Can't locate revision identified by '([^']+)'")


@asynccontextmanager
async def migrated_database(url: str) -> AsyncIterator[Database]:
    """The database at `url`, migrated; StartupError when it cannot be reached or migrated."""
    async with reached_database(url) as db:
        try:
            await upgrade(db)
        except Exception as exc:
            raise StartupError(migration_problem(exc)) from exc
        yield db


@asynccontextmanager
async def reached_database(url: str) -> AsyncIterator[Database]:
    """The database at `url`, once it has answered; StartupError naming the cause and fix when it does not."""
    try:
        db = Database(url)
    except DatabaseUnavailable as exc:
        raise StartupError(str(exc)) from exc
    try:
        try:
            await db.ping()
        except DatabaseUnavailable as exc:
            raise StartupError(str(exc)) from exc
        yield db
    finally:
        await db.dispose()


def migration_problem(exc: Exception) -> str:
    unknown = _UNKNOWN_REVISION.search(str(exc)) if isinstance(exc, CommandError) else None
    if unknown:
        return (
            f"the database is at migration {unknown[1]}, which this version of pinleague does not know (a newer "
            "version migrated it): run that version again, or restore a backup taken before the upgrade"
        )
    first_line = (str(exc).splitlines() or [""])[0]
    return (
        f"migrating the database failed ({type(exc).__name__}: {first_line}) and left it as it was; run "
        "`pinleague db upgrade` with PINLEAGUE_LOG_LEVEL=DEBUG for the whole error and report it"
    )
