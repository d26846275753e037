"""A scheduled post is claimed once: many concurrent claimers (two engines = two processes) get one winner, on
SQLite and PostgreSQL; a released claim can be taken again; the message id is stored after sending."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from sqlmodel import select

from bot.clock import ManualClock
from bot.services.posts import PostService
from storage.db import Database
from storage.posts import PostClaim
from tests.storage import helpers as make
from tests.storage.helpers import insert

NOW = datetime(2027, 3, 14, 18, 0, tzinfo=UTC)


async def test_concurrent_claims_from_two_engines_have_exactly_one_winner(db: Database) -> None:
    league = await insert(db, make.league())
    other_process = Database(db.url.render_as_string(hide_password=False))
    try:
        services = [PostService(engine, ManualClock(NOW)) for engine in (db, other_process)]
        claims = await asyncio.gather(
            *(services[n % 2].claim(league.id or 0, "roster_cutoff", "2027-03-14", channel_id=555) for n in range(20))
        )
    finally:
        await other_process.dispose()
    winners = [claim for claim in claims if claim is not None]
    assert len(winners) == 1
    async with db.reading() as session:
        rows = (await session.exec(select(PostClaim))).all()
    assert [(row.id, row.kind, row.period, row.message_id) for row in rows] == [
        (winners[0], "roster_cutoff", "2027-03-14", None)
    ]


async def test_a_claim_records_its_message_and_a_released_claim_can_be_taken_again(db: Database) -> None:
    league = await insert(db, make.league())
    service = PostService(db, ManualClock(NOW))
    first = await service.claim(league.id or 0, "roll_call", "match-1", channel_id=555)
    assert first is not None
    await service.release(first)
    again = await service.claim(league.id or 0, "roll_call", "match-1", channel_id=555)
    assert again is not None
    await service.sent(again, 987654321987654321, digest="abc")
    claim = await service.find_claim(league.id or 0, "roll_call", "match-1")
    assert claim is not None and claim.message_id == 987654321987654321 and claim.sent_at == NOW
    assert await service.claim(league.id or 0, "roll_call", "match-1", channel_id=555) is None
