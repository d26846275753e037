"""A ladder's playoff field on playoff night (LADDER-PO-1/2/3) and its season prizes (LADDER-PAY-5, LADDER-AMB-23/34),
read through `/ladder playoffs` and `/ladder payouts` after one closed night of ten players."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.e2e.harness import RunningBot
from tests.e2e.ladder.test_night import PLAYERS, ok
from tests.e2e.season import refused

FIVE = "Attack from Mars, Black Knight, Cirqus Voltaire, Demolition Man, Funhouse"


@pytest.fixture
async def closed(ten_players: RunningBot) -> AsyncIterator[RunningBot]:
    """One night played and closed: each player scores the same on all five games, p1 best, p10 worst."""
    league = ten_players
    await ok(league, "/ladder night open", "alice")
    for group in (1, 2, 3):
        await ok(league, f'/ladder games set group:{group} games:"{FIVE}"', "alice")
    for number, name in enumerate(PLAYERS):
        await ok(league, "/ladder checkin", name)
        await ok(league, f'/ladder score game:1 score:"{" ".join([f"{20 - number},000,000"] * 5)}"', name)
    await ok(league, "/ladder night close", "alice")
    yield league


async def _standings(league: RunningBot) -> list[str]:
    """The standings' names, best first."""
    table = (await league.run("/ladder standings", as_member="p1")).embeds[0]
    rows = next(f["value"] for f in table["fields"]).strip("`").splitlines()
    names = [row.split()[1].rstrip("★") for row in rows if row[:1].isdigit()]
    assert len(names) == len(PLAYERS), rows
    return names


async def _field(league: RunningBot, options: str = "") -> str:
    embed = (await league.run(f"/ladder playoffs {options}".strip(), as_member="alice")).embeds[0]
    return next(f["value"] for f in embed["fields"] if f["name"] == "League")


async def test_a_missing_qualifier_is_replaced_by_the_next_runner_up_present_ladder_po_2(closed: RunningBot) -> None:
    """LADDER-PO-1: the top clamp(10 // 3, 2, 6) = 3 of the standings qualify. LADDER-PO-2: at 19:30 a missing
    qualifier's seed goes to the first runner-up present (a missing runner-up is passed over). LADDER-PO-3: a
    qualifier who gave notice is first a reschedule task; rescheduled, they keep their place."""
    order = await _standings(closed)
    first, second, third, fourth, fifth = order[:5]
    assert await _field(closed) == f"1. {first}\n2. {second}\n3. {third}\nAlternates: {', '.join(order[3:])}"

    field = await _field(closed, f'missing:"{second}, {fourth}"')
    assert field.splitlines()[:3] == [f"1. {first}", f"2. {fifth}", f"3. {third}"]
    assert f"{second} is missing: {fifth} plays (LADDER-PO-2)" in field
    assert f"Alternates: {', '.join([fourth, *order[5:]])}" in field

    noticed = await _field(closed, f'notified:"{first}"')
    assert noticed.splitlines()[:3] == [f"1. {fourth}", f"2. {second}", f"3. {third}"]
    assert f"{first} gave notice: try to reschedule, else the alternate plays (LADDER-PO-3)" in noticed
    kept = await _field(closed, f'notified:"{first}" rescheduled:"{first}"')
    assert kept.splitlines()[:3] == [f"1. {first}", f"2. {second}", f"3. {third}"] and "LADDER-PO-3" in kept

    await refused(
        closed, '/ladder playoffs missing:"Nobody"', as_member="alice", rule=None,
        message="`missing`: Nobody is not a player of this ladder",
    )  # fmt: skip


async def test_season_prizes_follow_the_commissioners_table_ladder_pay_5(closed: RunningBot) -> None:
    """LADDER-PAY-5 / LADDER-AMB-23: the commissioner's prize table, paid down the standings with
    `prizes_by=standings` (LADDER-AMB-34), and the consolation of 20 % of division A's 2nd place; by default the
    places wait for the playoff finish."""
    payouts = (await closed.run("/ladder payouts", as_member="p1")).embeds[0]
    assert "Season prizes (LADDER-PAY-5)" not in {f["name"] for f in payouts["fields"]}  # no table yet
    await ok(closed, "/ladder option name:prizes_a_cents value:10000,6000,4000", "alice")
    prizes = await _prizes(closed)
    assert prizes.splitlines()[0] == "League: 1st $100.00, 2nd $60.00, 3rd $40.00"
    assert "Consolation prizes (LADDER-AMB-23): A $12.00" in prizes and "the playoff finish" in prizes

    await ok(closed, "/ladder option name:prizes_by value:standings", "alice")
    first, second, third = (await _standings(closed))[:3]
    prizes = await _prizes(closed)
    assert prizes.splitlines()[0] == f"League: 1st $100.00 {first}, 2nd $60.00 {second}, 3rd $40.00 {third}"
    assert "the standings; so far, they may still change" in prizes
    await refused(
        closed, "/ladder option name:prizes_b_cents value:-5,3", as_member="alice", rule=None,
        message="prizes_b_cents cannot be",
    )  # fmt: skip


async def _prizes(league: RunningBot) -> str:
    embed = (await league.run("/ladder payouts", as_member="p1")).embeds[0]
    return next(f["value"] for f in embed["fields"] if f["name"] == "Season prizes (LADDER-PAY-5)")
