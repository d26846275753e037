"""Many members submitting setup commands at once: nothing lost, nothing duplicated, every one answered."""

from __future__ import annotations

import asyncio
from collections import Counter

from sqlmodel import select

from storage.db import Database
from storage.models import AuditEntry, Team
from tests.e2e.harness import running_bot

TEAMS = 12
COPIES = 3  # each team name submitted this many times at once


async def test_racing_team_creations_have_one_winner_per_name(db: Database) -> None:
    async with running_bot(db) as league:
        await league.run('/league create name:"Rush" format:team commissioner_role:@Commissioner', as_member="owner")
        lines = [f'/team create name:"Team {n}" evening:Tuesday' for n in range(TEAMS) for _ in range(COPIES)]
        results = await asyncio.gather(*(league.emulator.run(line, as_member="alice", timeout=15) for line in lines))
        outcomes = Counter(
            "created" if "created" in r.content else "duplicate" if "already has" in r.content else r.content
            for r in results
        )
        assert outcomes == {"created": TEAMS, "duplicate": TEAMS * (COPIES - 1)}
        assert all(r.ack_latency is not None and r.ack_latency < 3.0 for r in results)
        async with db.reading() as session:
            names = (await session.exec(select(Team.name))).all()
            audited = (await session.exec(select(AuditEntry).where(AuditEntry.entity == "team"))).all()
        assert sorted(names) == sorted(f"Team {n}" for n in range(TEAMS))
        assert len(audited) == TEAMS  # refused attempts leave no audit entry behind
