"""Start-up: the database a runtime (the bot, the local chat) runs on, migrated to the newest revision before use
and disposed of after. The runtimes reach storage through here alone."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from storage.db import Database
from storage.migrate import upgrade


@asynccontextmanager
async def migrated_database(url: str) -> AsyncIterator[Database]:
    db = Database(url)
    try:
        await upgrade(db)
        yield db
    finally:
        await db.dispose()
