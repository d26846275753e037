"""Each interaction is handled once, however often it is delivered.

Discord may deliver an interaction more than once (a gateway RESUME replays events), and every process
connected with the bot's token receives every interaction. Before doing any work the bot claims the
interaction id in the database with an insert that only one caller can win; the others drop it without a
word (the winner answers). Claims are bookkeeping in `bot_state`, not league data, and are pruned once they
are older than any redelivery could be.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import delete
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlmodel import col

from bot.clock import Clock
from storage.db import Database
from storage.models import BotState

PREFIX = "interaction:"
KEPT_FOR = timedelta(hours=1)  # an interaction token lives 15 minutes; nothing is redelivered after that
PRUNE_EVERY = 500  # claims between two prunings


class InteractionClaims:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self._since_prune = 0

    async def claim(self, interaction_id: int) -> bool:
        """True for the first delivery of `interaction_id` (across processes sharing the database)."""
        now = self.clock.now()
        insert = sqlite_insert if self.db.is_sqlite else postgresql_insert
        statement = (
            insert(BotState)
            .values(key=f"{PREFIX}{interaction_id}", value=_stamp(now))
            .on_conflict_do_nothing(index_elements=["key"])
        )
        async with self.db.writing() as session:
            won = (await session.exec(statement)).rowcount == 1
            self._since_prune += 1
            if self._since_prune >= PRUNE_EVERY:
                self._since_prune = 0
                key, value = col(BotState.key), col(BotState.value)
                old = delete(BotState).where(key.startswith(PREFIX), value < _stamp(now - KEPT_FOR))
                await session.exec(old)
        return won


def _stamp(moment: datetime) -> str:
    """Sortable as text: UTC, fixed width."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")
