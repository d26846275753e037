"""Fixtures for the e2e tests of the season: a team league set up through Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from storage.db import Database
from tests.e2e.harness import RunningBot, running_bot
from tests.e2e.season import set_up_season_league
from tests.e2e.team_night import night  # noqa: F401 - the team match night fixture, for every e2e test


@pytest.fixture
async def season_league(sqlite_db: Database) -> AsyncIterator[RunningBot]:
    """NYC: East (4 teams on Tue/Tue/Wed/Thu) and West (2 teams on Mondays), every roster submitted."""
    async with running_bot(sqlite_db) as league:
        await set_up_season_league(league)
        yield league
