"""Two processes answering a match's first commands at once post one living scoreboard between them: the first
post is claimed in the database, and the other process edits the message the claimer posted."""

from __future__ import annotations

import asyncio
from datetime import date

from bot.clock import ManualClock
from bot.services.team.match_night import MatchNightService
from storage.db import Database
from storage.matches import Match
from tests.storage import helpers

CHANNEL, MESSAGE = 501, 601


async def a_match(db: Database) -> int:
    league = await helpers.insert(db, helpers.league())
    season = await helpers.insert(db, helpers.season(league.id))
    home = await helpers.insert(db, helpers.team(league.id, "Tilt Warriors"))
    away = await helpers.insert(db, helpers.team(league.id, "Flipper Kings"))
    match = Match(
        league_id=league.id, season_id=season.id, week=1, play_on=date(2027, 3, 2), home_team_id=home.id,
        away_team_id=away.id,
    )  # fmt: skip
    return (await helpers.insert(db, match)).id


async def test_one_process_claims_the_first_post_and_the_other_edits_it(db: Database) -> None:
    match_id = await a_match(db)
    first, second = MatchNightService(db, ManualClock()), MatchNightService(db, ManualClock())
    claims = await asyncio.gather(first.claim_scoreboard(match_id, CHANNEL), second.claim_scoreboard(match_id, CHANNEL))
    assert sorted(claims) == [False, True]
    claimer, waiter = (first, second) if claims[0] else (second, first)

    async def post_a_moment_later() -> None:
        await asyncio.sleep(0.2)
        await claimer.scoreboard_posted(match_id, CHANNEL, MESSAGE)

    posting = asyncio.create_task(post_a_moment_later())
    assert await waiter.scoreboard_posted_elsewhere(match_id) == (CHANNEL, MESSAGE)
    await posting


async def test_a_refused_first_post_frees_the_claim(db: Database) -> None:
    match_id = await a_match(db)
    service = MatchNightService(db, ManualClock())
    assert await service.claim_scoreboard(match_id, CHANNEL)
    await service.release_scoreboard(match_id)  # Discord refused the post
    assert await service.claim_scoreboard(match_id, CHANNEL)
    await service.scoreboard_posted(match_id, CHANNEL, MESSAGE)
    await service.release_scoreboard(match_id)  # a posted board is not released
    assert not await service.claim_scoreboard(match_id, CHANNEL)
