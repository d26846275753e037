"""Each interaction is handled once, however often it is delivered.

Discord may deliver an interaction more than once (a gateway RESUME replays events), and every process
connected with the bot's token receives every interaction. Before doing any work the bot claims the
interaction id; a delivery that loses the claim is dropped without a word (the winner answers).

Within a process the claim is a set of recent ids. On PostgreSQL, where several processes may share the
database, it is also an insert into `bot_state` that only one caller can win (bookkeeping, not league data;
pruned once older than any redelivery could be). SQLite serves one bot process, and there a claim write per
interaction would queue every read command behind every score entry on the single writer.
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete
from sqlalchemy.dialects.postgresql import insert
from sqlmodel import col

from bot.clock import Clock
from storage.db import Database
from storage.models import BotState

PREFIX = "interaction:"
KEPT_FOR = timedelta(hours=1)  # an interaction token lives 15 minutes; nothing is redelivered after that
PRUNE_EVERY = 500  # claims between two prunings
RECENT = 10_000  # ids remembered in memory


class InteractionClaims:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self._since_prune = 0
        self._recent: OrderedDict[int, None] = OrderedDict()

    async def claim(self, interaction_id: int) -> bool:
        """True for the first delivery of `interaction_id` (across processes sharing a PostgreSQL database)."""
        if interaction_id in self._recent:
            return False
        self._recent[interaction_id] = None
        if len(self._recent) > RECENT:
            self._recent.popitem(last=False)
        if self.db.is_sqlite:
            return True
        now = self.clock.now()
        statement = (
            insert(BotState)
            .values(key=f"{PREFIX}{interaction_id}", value=_stamp(now))
            .on_conflict_do_nothing(index_elements=["key"])
        )
        # A connection of its own rather than `db.writing()`: a claim is not a change to the league, and
        # must not count as one for the caches keyed on the database's commits.
        async with self.db.engine.begin() as connection:
            won = (await connection.execute(statement)).rowcount == 1
            self._since_prune += 1
            if self._since_prune >= PRUNE_EVERY:
                self._since_prune = 0
                key, value = col(BotState.key), col(BotState.value)
                await connection.execute(delete(BotState).where(key.startswith(PREFIX), value < _stamp(now - KEPT_FOR)))
        return won


def _stamp(moment: datetime) -> str:
    """Sortable as text: UTC, fixed width."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")
