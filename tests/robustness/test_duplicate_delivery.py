"""The same interaction delivered twice (a gateway replay, or a second process of the bot) is handled once."""

from __future__ import annotations

import asyncio

from sqlalchemy import func
from sqlmodel import select

from bot.local.emulator.records import REPLY_KINDS
from bot.rules.team.model import Side
from storage.matches import MatchVisit
from tests.robustness.conftest import MatchNight

SETTLE = 0.5  # seconds for a redelivered interaction to have been handled, if it were


async def test_a_redelivered_score_is_not_entered_again(match_night: MatchNight) -> None:
    emulator, match = match_night.emulator, match_night.league.tonight[0]
    line = f"/score match:{match.match_id} round:3 game:1 home1:1,000,000 away1:2,000,000"
    first = await emulator.run(line, as_member=match.home_captain)
    assert "⛔" not in first.text(), first.text()
    before = await match_night.bot.row_counts()
    outputs = len(emulator.outputs)

    emulator.redeliver(first.interaction_id)
    emulator.redeliver(first.interaction_id)
    await asyncio.sleep(SETTLE)

    assert await match_night.bot.row_counts() == before
    assert len(emulator.outputs) == outputs  # no second reply, no refusal, no scoreboard edit
    assert emulator.interactions[first.interaction_id].rejections == []


async def test_duplicates_arriving_together_check_in_once(match_night: MatchNight) -> None:
    """The copies race: both arrive before either is handled; one check-in is stored and answered."""
    emulator, match = match_night.emulator, match_night.league.tonight[1]
    player = match.roster[Side.HOME][4]  # the fifth player, not yet here
    running = asyncio.create_task(emulator.run(f"/checkin match:{match.match_id}", as_member=player))
    await asyncio.sleep(0)  # dispatched
    newest = max(emulator.interactions)
    emulator.redeliver(newest)
    result = await running
    await asyncio.sleep(SETTLE)

    assert "is checked in" in result.text(), result.text()
    answers = [o.kind for o in emulator.interactions[newest].outputs if o.kind in REPLY_KINDS]
    assert len(answers) == 1, answers  # answered once: directly, or after a deferral when the machine is slow
    assert emulator.interactions[newest].rejections == []
    async with match_night.bot.db.reading() as session:
        visits = (
            await session.exec(
                select(func.count()).select_from(MatchVisit).where(MatchVisit.match_id == match.match_id)
            )
        ).one()
    assert visits == 4 + 4 + 1
