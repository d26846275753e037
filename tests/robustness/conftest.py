"""A small seeded team league on match night, with the real bot connected through the emulator."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import pytest

from bench.team import TeamLeague, TeamLeagueSize, seed_team_league
from bot.clock import ManualClock
from bot.local.emulator import Emulator
from storage.db import Database
from tests.e2e.harness import RunningBot, running_bot

SMALL = TeamLeagueSize(teams=8, players=6, weeks_played=2, past_seasons=1, venues=2)


@dataclass
class MatchNight:
    bot: RunningBot
    league: TeamLeague

    @property
    def emulator(self) -> Emulator:
        return self.bot.emulator


@asynccontextmanager
async def match_night_of(db: Database, size: TeamLeagueSize) -> AsyncIterator[MatchNight]:
    """Tonight's matches have four players a side checked in and every round declared, so captains can enter
    any game's scores; the bot's clock is held at tonight, 20:05."""
    async with Emulator() as emulator:
        league = await seed_team_league(db, emulator, size)
        await league.reset_tonight(rounds_declared=4)
        async with running_bot(db, emulator) as bot:
            clock = bot.bot.clock
            assert isinstance(clock, ManualClock)
            clock.set(league.now)
            emulator.quiet_window = 0.001  # answers come in one piece; no followups to wait for
            yield MatchNight(bot, league)


@pytest.fixture
async def match_night(db: Database) -> AsyncIterator[MatchNight]:
    """8 teams in two conferences, two weeks played and a past season; 4 matches tonight."""
    async with match_night_of(db, SMALL) as night:
        yield night
