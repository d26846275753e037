"""COMMON-LEAGUE-2 in a ladder league through Discord: the dues and the payout split changed after week 1 apply
from week 2; week 1's stored results, its money and the table as it stood keep the options it was played
under. `/standings what-if:` marks the playoff places under another count and stores nothing."""

from __future__ import annotations

from datetime import timedelta
from fractions import Fraction
from typing import Any

from sqlmodel import col, select

from bot.clock import ManualClock
from bot.rules.ladder.scoring import show
from storage.ladder import LadderLedger, LadderNight, LadderResult, LedgerKind
from tests.e2e.harness import RunningBot
from tests.e2e.ladder.test_night import PLAYERS, ladder, ok  # noqa: F401 (the fixture)

FIVE = "Attack from Mars, Black Knight, Cirqus Voltaire, Demolition Man, Funhouse"


async def play_week(league: RunningBot, week: int) -> str:
    if week > 1:
        clock = league.bot.clock
        assert isinstance(clock, ManualClock)
        clock.advance(timedelta(days=7))
    await ok(league, "/ladder night open", "alice")
    for group in (1, 2, 3):
        await ok(league, f'/ladder games set group:{group} games:"{FIVE}"', "alice")
    for number, name in enumerate(PLAYERS):
        await ok(league, "/ladder checkin", name)
        millions = 30 - (number * 3 + week) % 10  # every player a different score, another order each week
        await ok(league, f'/ladder score game:1 score:"{" ".join([f"{millions},000,000"] * 5)}"', name)
    return await ok(league, "/ladder night close", "alice")


def ans_by_name(table: str) -> dict[str, str]:
    rows = [line.split() for line in table.replace("`", "").splitlines()]
    return {row[1].rstrip("★"): row[-2] for row in rows if len(row) == 5 and row[0].isdigit() and row[4].isdigit()}


def week_line(payouts: str, week: int) -> str:
    return next((line for line in payouts.splitlines() if f"Week {week}: pot" in line), "")


async def week_facts(league: RunningBot, week: int) -> tuple[list[tuple[int, ...] | Any], list[tuple[str, int]], int]:
    """What closing the week stored: each player's result, the money moved, and the pot."""
    async with league.db.reading() as session:
        night = (await session.exec(select(LadderNight).where(LadderNight.week == week))).one()
        results = (await session.exec(select(LadderResult).where(LadderResult.night_id == night.id))).all()
        ledger = (
            await session.exec(
                select(LadderLedger).where(LadderLedger.night_id == night.id).order_by(col(LadderLedger.id))
            )
        ).all()
    stored = sorted(
        (row.ladder_player_id, row.finish, row.game_points, row.bonus, row.tns, repr(row.games)) for row in results
    )
    return stored, [(row.kind.value, row.cents) for row in ledger], night.pot_cents


async def test_a_change_after_week_one_leaves_week_one_alone(ladder: RunningBot) -> None:  # noqa: F811
    league = ladder
    await play_week(league, 1)
    week_one = await week_facts(league, 1)
    table = (await league.run("/standings", as_member="p1")).text()
    money = (await league.run("/ladder payouts", as_member="p1")).text()

    dues = await ok(league, "/ladder option name:weekly_dues_cents value:1000", "alice")
    assert "It applies from 2027-03-04, the next week not yet played" in dues, dues
    split = await ok(league, "/ladder option name:small_league_split value:50,50", "alice")
    assert "small_league_split: 75,25 until 2027-03-04, 50,50 since 2027-03-04" in split, split
    listed = await ok(league, "/ladder option name:weekly_dues_cents", "p1")
    assert "weekly_dues_cents: 600 until 2027-03-04, 1000 since 2027-03-04" in listed, listed
    assert (await league.run("/standings", as_member="p1")).text() == table
    assert (await league.run("/ladder payouts", as_member="p1")).text() == money

    await play_week(league, 2)
    assert await week_facts(league, 1) == week_one
    results, ledger, pot = await week_facts(league, 2)
    # LADDER-NORM-3: each player's ANS in the table is the average of their two weekly TNS values
    tns = {
        row[0]: [Fraction(week[4]) for week in (row, *[r for r in week_one[0] if r[0] == row[0]])] for row in results
    }
    shown = ans_by_name((await league.run("/standings", as_member="p1")).text())
    assert shown == {f"P{n}": show(sum(tns[n], Fraction(0)) / 2) for n in range(1, 11)}, shown
    dues_paid = [cents for kind, cents in ledger if kind == LedgerKind.DUES.value]
    assert dues_paid and set(dues_paid) == {1000} and {c for k, c in week_one[1] if k == LedgerKind.DUES.value} == {600}
    assert pot == sum(dues_paid) // 2  # half the new dues (LADDER-PAY-1)
    paid = [cents for kind, cents in ledger if kind == LedgerKind.PAYOUT.value]
    paid_before = [cents for kind, cents in week_one[1] if kind == LedgerKind.PAYOUT.value]
    assert len(set(paid)) == 1 and len(set(paid_before)) == 2, (paid, paid_before)  # 50/50 now, 75/25 then
    after = (await league.run("/ladder payouts", as_member="p1")).text()
    assert week_line(after, 1) == week_line(money, 1) != "" and week_line(after, 2) != "", after


async def test_what_if_marks_other_playoff_places_and_stores_nothing(ladder: RunningBot) -> None:  # noqa: F811
    league = ladder
    await play_week(league, 1)
    real = (await league.run("/standings", as_member="p1")).text()
    counts, before = await league.row_counts(), await league.digest()
    hypothetical = await league.run('/standings what-if:"4 playoff places per division"', as_member="p1")
    assert hypothetical.ephemeral and "What if: 4 playoff places per division" in hypothetical.text()
    # One ★ in the legend, then one per playoff place: clamp(10 // 3, 2, 6) = 3 by default (LADDER-PO-1).
    assert real.count("★") - 1 == 3 and hypothetical.text().count("★") - 1 == 4, hypothetical.text()
    assert "Hypothetical" in hypothetical.text() and "playoff place (LADDER-PO-1)" in hypothetical.text()
    assert await league.row_counts() == counts and await league.digest() == before
    assert (await league.run("/standings", as_member="p1")).text() == real
