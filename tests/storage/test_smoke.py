from datetime import UTC, datetime

from sqlmodel import select

from storage.db import Database
from storage.models import AuditEntry


async def test_round_trip(db: Database) -> None:
    async with db.writing() as session:
        session.add(AuditEntry(guild_id=1, actor_id=2, command="c", action="a", entity="e", at=datetime.now(UTC)))
    async with db.reading() as session:
        rows = (await session.exec(select(AuditEntry))).all()
    assert len(rows) == 1 and rows[0].at.tzinfo is not None
