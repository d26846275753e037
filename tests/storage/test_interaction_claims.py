"""Interaction claims: the first delivery of an interaction wins, in one process and (PostgreSQL) across
processes sharing the database; old claims are pruned."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import col, select

from bot import interaction_claims
from bot.clock import ManualClock
from bot.interaction_claims import InteractionClaims
from storage.db import Database
from storage.models import BotState

NOW = datetime(2027, 3, 2, 20, 0, tzinfo=UTC)


async def claims_stored(db: Database) -> list[str]:
    async with db.reading() as session:
        query = select(BotState.key).where(col(BotState.key).startswith(interaction_claims.PREFIX))
        return sorted((await session.exec(query)).all())


async def test_the_first_delivery_wins_and_a_replay_loses(db: Database) -> None:
    claims = InteractionClaims(db, ManualClock(NOW))
    assert await claims.claim(42) is True
    assert await claims.claim(42) is False
    assert await claims.claim(43) is True


async def test_a_second_process_loses_on_postgresql_only(db: Database) -> None:
    """Two processes (two claim books) sharing one database: PostgreSQL decides in the database; a SQLite
    database serves one bot process and keeps no claims."""
    first, second = InteractionClaims(db, ManualClock(NOW)), InteractionClaims(db, ManualClock(NOW))
    assert await first.claim(7) is True
    assert await second.claim(7) is db.is_sqlite
    assert await claims_stored(db) == ([] if db.is_sqlite else ["interaction:7"])


@pytest.mark.parametrize("db", ["postgresql"], indirect=True)
async def test_claims_older_than_an_hour_are_pruned(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(interaction_claims, "PRUNE_EVERY", 3)
    clock = ManualClock(NOW)
    claims = InteractionClaims(db, clock)
    await claims.claim(1)
    clock.advance(timedelta(minutes=30))
    await claims.claim(2)
    clock.advance(timedelta(minutes=45))
    await claims.claim(3)  # the third claim prunes: #1 is 75 minutes old, #2 only 45
    assert await claims_stored(db) == ["interaction:2", "interaction:3"]
