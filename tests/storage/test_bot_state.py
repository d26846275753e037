"""The bot's own facts (BotState) are written with an upsert: two processes starting together both record the
hash of the commands they synced, and neither may fail on the primary key (a two-process test found the
read-then-insert of `session.merge` doing exactly that on PostgreSQL)."""

from __future__ import annotations

import asyncio

from sqlmodel import col, select

from storage.db import Database
from storage.models import BotState, remember

KEYS = 20


async def test_writers_of_a_new_key_on_separate_engines_all_succeed(db: Database) -> None:
    # Separate engines, as separate processes would have: no shared session and no in-process write lock.
    engines = [db, *(Database(db.url.render_as_string(hide_password=False)) for _ in range(3))]

    async def write(engine: Database, key: str, value: str) -> None:
        async with engine.writing() as session:
            await session.exec(remember(key, value, sqlite=engine.is_sqlite))

    try:
        for k in range(KEYS):  # every key is new, so every round is a race to insert it first
            await asyncio.gather(*(write(engine, f"commands:{k}", f"hash-{n}") for n, engine in enumerate(engines)))
    finally:
        for engine in engines[1:]:
            await engine.dispose()
    async with db.reading() as session:
        rows = (await session.exec(select(BotState).where(col(BotState.key).startswith("commands:")))).all()
    assert len(rows) == KEYS and {row.value for row in rows} <= {f"hash-{n}" for n in range(len(engines))}
