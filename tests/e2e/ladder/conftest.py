"""A ladder league of ten players at The Break, set up through Discord, for the ladder night tests that need
no night of their own yet."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import timedelta

import pytest

from bot.clock import ManualClock
from storage.db import Database
from tests.e2e.harness import RunningBot, running_bot
from tests.e2e.ladder.test_night import MACHINES, NIGHT, PLAYERS, ok


@asynccontextmanager
async def ladder_league(db: Database, players: Sequence[str], normalizer: str) -> AsyncIterator[RunningBot]:
    """Jersey Ladder: six machines, each with this normalizer, and these players joined (the first the best by
    skill), the clock at noon of league night (Wednesday 2027-03-03)."""
    async with running_bot(db) as league:
        clock = league.bot.clock
        assert isinstance(clock, ManualClock)
        clock.set(NIGHT)
        league.emulator.quiet_window = 0.001
        await ok(league, '/league create name:"Jersey Ladder" format:ladder commissioner_role:@Commissioner', "owner")
        await ok(league, '/venue add name:"The Break"', "alice")
        for machine in MACHINES:
            await ok(league, f'/machine add venue:"The Break" model:"{machine}"', "alice")
            await ok(league, f'/ladder normalizer machine:"{machine}" value:{normalizer}', "alice")
        for number, name in enumerate(players):
            league.emulator.add_member(name)
            await ok(league, f"/ladder join skill:{10 - number}", name)
        yield league


FIVE = ("Attack from Mars", "Black Knight", "Cirqus Voltaire", "Demolition Man", "Funhouse")


async def open_night(league: RunningBot, week: int, groups: int) -> None:
    """Open week `week`'s night (a week after the last) with the same five games in each of its groups."""
    if week > 1:
        clock = league.bot.clock
        assert isinstance(clock, ManualClock)
        clock.advance(timedelta(days=7))
    await ok(league, "/ladder night open", "alice")
    for group in range(1, groups + 1):
        await ok(league, f'/ladder games set group:{group} games:"{", ".join(FIVE)}"', "alice")


@pytest.fixture
async def ten_players(sqlite_db: Database) -> AsyncIterator[RunningBot]:
    """The ten players, every normalizer 20,000,000."""
    async with ladder_league(sqlite_db, PLAYERS, "20,000,000") as league:
        yield league
