"""Field finals through Discord: entry (FIELD-FIN-1), seeds and the bracket with byes (FIELD-FIN-2/3), best of
three with machine and order picks (FIELD-FIN-4/5/6, FIELD-AMB-9), and the refusals that change nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlmodel import select

from storage.db import Database
from storage.field import FieldCheckin, FieldFinalsGame, FieldNight, FieldScore, NightState
from storage.models import League, Player, Season
from tests.e2e.harness import RunningBot, running_bot

PLAYERS = ["ann", "ben", "cat", "dov", "eve"]  # eve plays two weeks only
MACHINES = ["Godzilla", "Medieval Madness", "Attack from Mars", "Twilight Zone", "Deadpool", "Jaws"]


Week = dict[str, int]  # player → place on every machine that night (1 = the top score); absent players left out


@pytest.fixture
async def finals_league(sqlite_db: Database) -> AsyncIterator[RunningBot]:
    """Four closed nights written straight into storage, as the night commands would record them."""
    weeks = [dict(zip(PLAYERS if week <= 2 else PLAYERS[:4], range(1, 6), strict=False)) for week in range(1, 5)]
    async with finals_setup(sqlite_db, weeks) as league:
        yield league


@asynccontextmanager
async def finals_setup(sqlite_db: Database, weeks: list[Week]) -> AsyncIterator[RunningBot]:
    async with running_bot(sqlite_db) as league:
        league.emulator.quiet_window = 0.001
        await league.run(
            '/league create name:"LPL" format:field timezone:America/Chicago commissioner_role:@Commissioner',
            as_member="owner",
        )
        await league.run('/venue add name:"MSA"', as_member="alice")
        for model in MACHINES:
            await league.run(f'/machine add venue:"MSA" model:"{model}"', as_member="alice")
        for name in sorted({name for week in weeks for name in week}):
            league.emulator.add_member(name)
            await league.run(f"/player register member:@{name}", as_member="alice")
        async with league.db.writing() as session:
            the_league = (await session.exec(select(League))).one()
            season = (await session.exec(select(Season))).one()
            players = {p.display_name.lower(): p.id or 0 for p in (await session.exec(select(Player))).all()}
            now = datetime(2027, 6, 1, tzinfo=UTC)
            for week, places in enumerate(weeks, start=1):
                night = FieldNight(
                    league_id=the_league.id or 0,
                    season_id=season.id or 0,
                    week=week,
                    play_on=date(2027, 6, 1) + timedelta(weeks=week - 1),
                    state=NightState.CLOSED,
                    machine_ids=[1, 2, 3, 4, 5],
                    opened_by=0,
                )
                session.add(night)
                await session.flush()
                for name, place in places.items():
                    session.add(FieldCheckin(night_id=night.id or 0, player_id=players[name], arrived_at=now))
                    for machine in range(1, 6):
                        session.add(
                            FieldScore(
                                night_id=night.id or 0,
                                player_id=players[name],
                                machine_id=machine,
                                score=(11 - place) * 1000 + machine,
                                entered_by=0,
                                entered_at=now,
                            )
                        )
        yield league


async def games(league: RunningBot) -> list[FieldFinalsGame]:
    async with league.db.reading() as session:
        return list((await session.exec(select(FieldFinalsGame))).all())


async def test_finals_entry_seeding_and_best_of_three_picks(finals_league: RunningBot) -> None:
    league = finals_league
    few = await league.run("/field finals entry member:@eve paid:true", as_member="alice")
    assert few.ephemeral and "FIELD-FIN-1" in few.content and "played 2" in few.content
    unpaid = await league.run("/field finals entry member:@ann paid:false", as_member="alice")
    assert unpaid.ephemeral and "no dough, no show" in unpaid.content
    for name in PLAYERS[:4]:
        entered = await league.run(f"/field finals entry member:@{name} paid:true", as_member="alice")
        assert "is in the finals" in entered.content, entered.content
    seeded = (await league.run("/field finals seed", as_member="alice")).text()
    assert "1. Ann" in seeded and "4. Dov" in seeded and "Pool $0.00" in seeded  # 4 × $10 − $40 plaques
    assert "`W3-1` (1) Ann v (4) Dov" in seeded  # byes carry the top seeds through the 16-slot bracket

    wrong_chooser = await league.run("/field finals pick pairing:W3-1 machine:1", as_member="dov")
    assert wrong_chooser.ephemeral and "Seed 1 chooses first in game 1" in wrong_chooser.content
    await league.run("/field finals pick pairing:W3-1 machine:1", as_member="ann")
    second_pick = await league.run("/field finals pick pairing:W3-1 first:true", as_member="ann")
    assert second_pick.ephemeral and "Opponent picks the order this game." in second_pick.content
    await league.run("/field finals pick pairing:W3-1 first:false", as_member="dov")
    outsider = await league.run("/field finals result pairing:W3-1 winner:@cat", as_member="cat")
    assert outsider.ephemeral and "two players of this pairing" in outsider.content
    won = await league.run("/field finals result pairing:W3-1 winner:@ann", as_member="dov")
    assert "Ann wins the game" in won.content, won.content

    before = await games(league)
    ann_first = await league.run("/field finals pick pairing:W3-1 machine:2", as_member="ann")
    assert ann_first.ephemeral and "Seed 4 chooses first in game 2" in ann_first.content  # FIELD-AMB-9
    again = await league.run("/field finals pick pairing:W3-1 machine:1", as_member="dov")
    assert again.ephemeral and "Godzilla already used in this match-up" in again.content
    assert await games(league) == before  # refusals change nothing
    await league.run("/field finals pick pairing:W3-1 machine:2", as_member="dov")
    await league.run("/field finals pick pairing:W3-1 first:true", as_member="ann")
    shown = (await league.run("/field finals result pairing:W3-1 winner:@ann", as_member="ann")).text()
    assert "W3-1" not in shown.split("Finals rules")[0].split("Seeds")[1]  # decided 2–0: the pairing is done
    decided = await league.run("/field finals result pairing:W3-1 winner:@dov", as_member="alice")
    assert decided.ephemeral and "W3-1" in decided.content  # no longer in play


async def test_seeds_count_the_weeks_left_after_the_two_lowest_are_dropped(sqlite_db: Database) -> None:
    """FIELD-FIN-2, FIELD-STAND-1: ann wins the two weeks she plays (2 × 150), ben is second all four weeks
    (4 × 120) and cat third (4 × 115). Raw totals would seed ben, cat, ann; after the two lowest weeks are dropped
    ann has 300, ben 240, cat 230."""
    weeks = [{"ann": 1, "ben": 2, "cat": 3}] * 2 + [{"dov": 1, "ben": 2, "cat": 3}] * 2
    async with finals_setup(sqlite_db, weeks) as league:
        changed = await league.run("/field config option:min_weeks_for_finals value:2", as_member="alice")
        assert "⛔" not in changed.content, changed.content
        for name in ("ann", "ben", "cat"):
            entered = await league.run(f"/field finals entry member:@{name} paid:true", as_member="alice")
            assert "is in the finals" in entered.content, entered.content
        seeded = (await league.run("/field finals seed", as_member="alice")).text()
        assert "1. Ann" in seeded and "2. Ben" in seeded and "3. Cat" in seeded, seeded
