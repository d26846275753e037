"""A league's standings, computed once and reused while nothing could have changed them.

A computation is reused for the same key (the season, and whatever else it was computed for) while its
version is not older than the caller's: no write committed through this process's database, no audited change
from any process (every league write is audited), and any further parts the caller adds (the team format adds
the minute: its results depend on the time). The version is read before the computation's own reads, so a
change racing them makes the next call recompute. Members asking at once wait for one computation, and a
waiter takes it when it began after the waiter arrived.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Generic, TypeVar

from sqlalchemy import func
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.db import Database
from storage.models import AuditEntry

T = TypeVar("T")
Version = tuple[Any, ...]


class ReusedPerLeague(Generic[T]):
    def __init__(self, db: Database) -> None:
        self.db = db
        self._recent: dict[int, tuple[object, Version, T]] = {}  # league id → (key, version, computed)
        self._computing: dict[int, asyncio.Lock] = {}

    async def get(
        self,
        session: AsyncSession,
        league_id: int,
        key: object,
        compute: Callable[[], Awaitable[T]],
        *,
        growing: Version = (),
    ) -> T:
        """The league's computation for `key`, reused or made by `compute`. `growing`: further version parts
        that only ever grow (compared one by one)."""
        last_change = (await session.exec(select(func.max(AuditEntry.id)))).one() or 0
        version = (*growing, self.db.commits, last_change)
        async with self._computing.setdefault(league_id, asyncio.Lock()):  # many asking at once: one computes
            recent = self._recent.get(league_id)
            if recent is not None and recent[0] == key and _not_older(recent[1], version):
                return recent[2]
            computed = await compute()
            self._recent[league_id] = (key, version, computed)
            return computed


def _not_older(version: Version, than: Version) -> bool:
    return len(version) == len(than) and all(mine >= theirs for mine, theirs in zip(version, than, strict=True))
