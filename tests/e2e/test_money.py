"""Money through Discord: the weekly ladder pot paid in integer cents, its odd cent down the finishing order
(COMMON-AMB-2), as `/ladder night close` writes it to the league's ledger."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from sqlmodel import col, select

from bot.clock import ManualClock
from storage.db import Database
from storage.ladder import LadderLedger, LadderNight, LedgerKind
from tests.e2e.format_nights import FIVE_GAMES, MACHINES, ok
from tests.e2e.harness import RunningBot, running_bot

NIGHT = datetime(2027, 3, 3, 12, 0, tzinfo=ZoneInfo("America/New_York"))  # a Wednesday
PLAYERS = [f"p{n}" for n in range(1, 7)]  # skill 10 … 5: two groups of three


@pytest.fixture
async def ladder(sqlite_db: Database) -> AsyncIterator[RunningBot]:
    async with running_bot(sqlite_db) as league:
        assert isinstance(league.bot.clock, ManualClock)
        league.bot.clock.set(NIGHT)
        league.emulator.quiet_window = 0.001
        await ok(league, '/league create name:"Jersey" format:ladder commissioner_role:@Commissioner', "owner")
        await ok(league, '/venue add name:"The Break"')
        for machine in MACHINES:
            await ok(league, f'/machine add venue:"The Break" model:"{machine}"')
            await ok(league, f'/ladder normalizer machine:"{machine}" value:20,000,000')
        for number, name in enumerate(PLAYERS):
            league.emulator.add_member(name)
            await ok(league, f"/ladder join skill:{10 - number}", name)
        yield league


async def test_common_tv_4_a_4050_cent_pot_at_75_25_pays_3038_and_1012(ladder: RunningBot) -> None:
    await ok(ladder, "/ladder option name:weekly_dues_cents value:1350")
    await ok(ladder, "/ladder night open")
    for group in (1, 2):
        await ok(ladder, f'/ladder games set group:{group} games:"{FIVE_GAMES}"')
    for number, name in enumerate(PLAYERS):
        await ok(ladder, "/ladder checkin", name)
        await ok(ladder, f'/ladder score game:1 score:"{" ".join([f"{20 - number},000,000"] * 5)}"', name)
    await ok(ladder, "/ladder night close")
    async with ladder.db.reading() as session:
        night = (await session.exec(select(LadderNight))).one()
        ledger = (await session.exec(select(LadderLedger).order_by(col(LadderLedger.id)))).all()
    # COMMON-MONEY-1: the ledger holds each player's dues and each payout as a row of integer cents.
    assert [row.cents for row in ledger if row.kind is LedgerKind.DUES] == [1_350] * 6
    assert night.pot_cents == 4_050  # 6 × $13.50, half to the pot (LADDER-PAY-1)
    # COMMON-TV-4: 75/25 of $40.50 floors to 3037 + 1012 = 4049¢; the cent left goes to 1st: $30.38 / $10.12.
    assert [row.cents for row in ledger if row.kind is LedgerKind.PAYOUT] == [3_038, 1_012]
