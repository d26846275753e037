"""Ladder services on SQLite and PostgreSQL: a 3-player night from join to close, refusals that change
nothing, and races that leave one row (LADDER-REG-1, LADDER-ATT-1, LADDER-GSEL-4, LADDER-BONUS-4,
LADDER-NORM-1, LADDER-PAY-1, COMMON-SCORE-1)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from fractions import Fraction

import pytest
from sqlalchemy import func
from sqlmodel import SQLModel, select

from bot.clock import ManualClock
from bot.rules.refusals import Conflict, InvalidInput, Refusal, RuleViolation
from bot.services import Services
from bot.services.actor import Actor
from bot.services.ladder.nights import GroupsView
from bot.services.players import Member
from storage.db import Database
from storage.ladder import LadderAttendance, LadderLedger, LadderResult

GUILD = 500
MACHINES = ["Attack from Mars", "Black Knight", "Cirqus Voltaire", "Demolition Man", "Elvira"]
WEDNESDAY = datetime(2027, 3, 3, 23, 0, tzinfo=UTC)  # 18:00 in New York


def actor(user_id: int, *, admin: bool = False) -> Actor:
    return Actor(GUILD, user_id, f"user{user_id}", frozenset(), admin, "/ladder")


ADMIN = actor(1, admin=True)


def member(user_id: int) -> Member:
    return Member(user_id, f"user{user_id}")


@pytest.fixture
async def services(db: Database) -> Services:
    built = Services.build(db, ManualClock(WEDNESDAY), default_timezone="America/New_York")
    await built.leagues.create(ADMIN, name="Ladder", league_format="ladder", timezone=None, commissioner_role_id=None)
    await built.venues.add_venue(ADMIN, None, name="The Break", address=None)
    for model in MACHINES:
        await built.venues.add_machine(
            ADMIN, None, venue_name="The Break", model=model, variant=None, max_players=4, balls=3
        )
    return built


async def counts(db: Database) -> dict[str, int]:
    async with db.reading() as session:
        return {
            table.name: (await session.exec(select(func.count()).select_from(table))).one()
            for table in SQLModel.metadata.sorted_tables
        }


async def test_a_night_from_join_to_close(services: Services, db: Database) -> None:
    """LADDER-NORM-1 (open refuses a machine without a normalizer), LADDER-ATT-1, LADDER-GSEL-4 (P = 5: the
    slots are set at open), COMMON-SCORE-1, LADDER-BONUS-4, LADDER-PAY-1; a refused close changes nothing."""
    for user in (11, 12, 13):
        await services.ladder_players.join(actor(user), None, skill=20 - user, member=None)
    with pytest.raises(RuleViolation, match="Set a normalizer for Attack from Mars first"):
        await services.ladder_nights.open(ADMIN, None, play_on=None)
    for model in MACHINES:
        await services.ladder_nights.set_normalizer(ADMIN, None, machine=model, value="10,000,000")
    opened = await services.ladder_nights.open(ADMIN, None, play_on=None)
    assert opened.groups[0].games == MACHINES
    for user in (11, 12, 13):
        await services.ladder_players.checkin(actor(user), None, member=None)
    with pytest.raises(Conflict):
        await services.ladder_players.checkin(actor(11), None, member=None)
    with pytest.raises(RuleViolation):  # COMMON-SCORE-1
        await services.ladder_play.score(actor(11), None, game=1, score="50M", member=None)
    await services.ladder_play.score(actor(11), None, game=1, score="30,000,000 " * 5, member=None)
    await services.ladder_play.score(actor(12), None, game=1, score="20000000 " * 5, member=None)
    await services.ladder_play.score(actor(13), None, game=1, score="1,000,000 " * 4, member=None)

    before = await counts(db)
    with pytest.raises(InvalidInput, match="has no score for game 5"):
        await services.ladder_nights.close(ADMIN, None)
    assert await counts(db) == before

    await services.ladder_play.score(actor(13), None, game=5, score="1,000,000", member=None)
    summary = await services.ladder_nights.close(ADMIN, None)
    lines = summary.groups[0].lines
    assert [(line.game_points, line.bonus, line.week_tlp) for line in lines] == [(20, 4, 24), (10, 2, 12), (0, 0, 0)]
    assert lines[0].tns == 15
    async with db.reading() as session:
        results = (await session.exec(select(LadderResult))).all()
        ledger = (await session.exec(select(LadderLedger))).all()
    assert sorted(Fraction(r.tns) for r in results) == [Fraction(1, 2), 10, 15]
    assert sum(row.cents for row in ledger if row.kind.value == "dues") == 1_800
    assert summary.pot_cents == 900 and summary.payouts == [(lines[0].name, 900)]  # one group: all (AMB-20)


async def test_registration_closes_when_week_three_opens(services: Services) -> None:
    """LADDER-REG-1: after two nights, the third night's opening closes registration."""
    for user in (11, 12, 13):
        await services.ladder_players.join(actor(user), None, skill=5, member=None)
    for model in MACHINES:
        await services.ladder_nights.set_normalizer(ADMIN, None, machine=model, value="10,000,000")
    for _ in range(3):
        await services.ladder_nights.open(ADMIN, None, play_on=None)
        for user in (11, 12, 13):
            await services.ladder_players.checkin(actor(user), None, member=None)
            await services.ladder_play.score(actor(user), None, game=1, score=f"{user} " * 5, member=None)
        if _ < 2:
            await services.ladder_nights.close(ADMIN, None)
    with pytest.raises(RuleViolation, match="Registration closed"):
        await services.ladder_players.join(actor(14), None, skill=5, member=None)


async def play_night(services: Services, users: list[int]) -> None:
    """Everyone checks in and scores by their number (higher plays better), then the night closes."""
    await services.ladder_nights.open(ADMIN, None, play_on=None)
    for user in users:
        await services.ladder_players.checkin(actor(user), None, member=None)
        await services.ladder_play.score(actor(user), None, game=1, score=f"{user * 1_000_000} " * 5, member=None)
    await services.ladder_nights.close(ADMIN, None)


async def test_a_week_two_newcomer_starts_at_the_bottom(services: Services) -> None:
    """LADDER-AMB-26 / LADDER-GROUP-7: a player joining before week 3 is dealt in at the bottom and the sizes
    follow the new count (9 → 3,3,3; 10 → 3,3,4)."""
    users = list(range(11, 20))
    for user in users:
        await services.ladder_players.join(actor(user), None, skill=user - 10, member=None)
    for model in MACHINES:
        await services.ladder_nights.set_normalizer(ADMIN, None, machine=model, value="10,000,000")
    await play_night(services, users)
    await services.ladder_players.join(actor(30), None, skill=10, member=None)
    week2 = await services.ladder_nights.open(ADMIN, None, play_on=None)
    assert [len(g.players) for g in week2.groups] == [3, 3, 4]
    assert week2.groups[-1].players[-1][0] == "user30"  # skill 10, but no results yet: the bottom


async def test_commissioner_swaps_players_between_groups(services: Services) -> None:
    """LADDER-GROUP-7 / LADDER-GROUP-8: a swap in next week's plan and in tonight's groups keeps the sizes;
    once a group has scores its players stay."""
    users = list(range(11, 20))
    for user in users:
        await services.ladder_players.join(actor(user), None, skill=user - 10, member=None)
    for model in MACHINES:
        await services.ladder_nights.set_normalizer(ADMIN, None, machine=model, value="10,000,000")
    await play_night(services, users)
    planned = await services.ladder_nights.swap(ADMIN, None, first=member(19), second=member(11))
    assert planned.planned and "user11" in [name for name, _, _ in planned.groups[0].players]
    opened = await services.ladder_nights.open(ADMIN, None, play_on=None)
    assert [len(g.players) for g in opened.groups] == [3, 3, 3]
    assert "user11" in [name for name, _, _ in opened.groups[0].players]
    tonight = await services.ladder_nights.swap(ADMIN, None, first=member(11), second=member(12))
    assert sorted(len(g.players) for g in tonight.groups) == [3, 3, 3]
    where = {name: g.number for g in tonight.groups for name, _, _ in g.players}
    assert (where["user11"], where["user12"]) == (opened_group(opened, "user12"), opened_group(opened, "user11"))
    await services.ladder_players.checkin(actor(11), None, member=None)
    await services.ladder_play.score(actor(11), None, game=1, score="1", member=None)
    with pytest.raises(Conflict, match="already picked or played"):
        await services.ladder_nights.swap(ADMIN, None, first=member(11), second=member(13))


def opened_group(view: GroupsView, name: str) -> int:
    return next(g.number for g in view.groups for player, _, _ in g.players if player == name)


async def test_concurrent_check_ins_leave_one_row(services: Services, db: Database) -> None:
    """Two check-ins of the same player at once: one is stored, the other refused (no duplicate row)."""
    await services.ladder_players.join(actor(11), None, skill=5, member=None)
    results = await asyncio.gather(
        *(services.ladder_players.checkin(actor(11), None, member=None) for _ in range(2)), return_exceptions=True
    )
    assert sum(isinstance(r, Refusal) for r in results) == 1
    async with db.reading() as session:
        assert len((await session.exec(select(LadderAttendance))).all()) == 1
