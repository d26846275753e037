"""A ladder league of ten players at The Break, set up through Discord, for the ladder night tests that need
no night of their own yet."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.clock import ManualClock
from storage.db import Database
from tests.e2e.harness import RunningBot, running_bot
from tests.e2e.ladder.test_night import MACHINES, NIGHT, PLAYERS, ok


@pytest.fixture
async def ten_players(sqlite_db: Database) -> AsyncIterator[RunningBot]:
    """Jersey Ladder: six machines with normalizers, ten players joined (p1 the best by skill), the clock at noon
    of league night (Wednesday 2027-03-03)."""
    async with running_bot(sqlite_db) as league:
        clock = league.bot.clock
        assert isinstance(clock, ManualClock)
        clock.set(NIGHT)
        league.emulator.quiet_window = 0.001
        await ok(league, '/league create name:"Jersey Ladder" format:ladder commissioner_role:@Commissioner', "owner")
        await ok(league, '/venue add name:"The Break"', "alice")
        for machine in MACHINES:
            await ok(league, f'/machine add venue:"The Break" model:"{machine}"', "alice")
            await ok(league, f'/ladder normalizer machine:"{machine}" value:20,000,000', "alice")
        for number, name in enumerate(PLAYERS):
            league.emulator.add_member(name)
            await ok(league, f"/ladder join skill:{10 - number}", name)
        yield league
