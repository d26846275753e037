"""A team match night set up through Discord: two teams of six at Ace Arcade, three machines, one match on
Wednesday 2027-03-03 (Tilt Warriors at Flipper Kings), and what its tests do with it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from sqlmodel import select

from bot.clock import ManualClock
from bot.local.emulator import Output
from bot.rules.team.model import Side
from bot.services.team import match_facts
from storage.db import Database
from storage.matches import Match
from storage.models import League, Machine, Team, Venue
from tests.e2e.harness import RunningBot, running_bot

NEW_YORK = ZoneInfo("America/New_York")
MATCH_DAY = date(2027, 3, 3)  # a Wednesday
HOME = ["h1", "h2", "h3", "h4", "h5", "h6"]
AWAY = ["a1", "a2", "a3", "a4", "a5", "a6"]


@dataclass
class Night:
    league: RunningBot
    match_id: int
    machines: list[int]

    async def run(self, line: str, who: str) -> str:
        result = await self.league.run(line.replace("MATCH", str(self.match_id)), as_member=who)
        await self.league.scoreboards_published()
        return result.text()

    def ids(self, *names: str) -> list[int]:
        return [self.league.emulator.member(name).id for name in names]


def at(hour: int, minute: int = 0) -> datetime:
    return datetime(MATCH_DAY.year, MATCH_DAY.month, MATCH_DAY.day, hour, minute, tzinfo=NEW_YORK)


@pytest.fixture
async def night(sqlite_db: Database) -> AsyncIterator[Night]:
    async with running_bot(sqlite_db) as league:
        clock = league.bot.clock
        assert isinstance(clock, ManualClock)
        clock.set(datetime(2027, 2, 26, 12, 0, tzinfo=NEW_YORK))
        for name in HOME + AWAY:
            league.emulator.add_member(name)
        run = league.run
        await run('/league create name:"NYC" format:team commissioner_role:@Commissioner', as_member="owner")
        await run('/venue add name:"Ace Arcade"', as_member="alice")
        for model in ("Godzilla", "Medieval Madness", "Attack from Mars"):
            await run(f'/machine add venue:"Ace Arcade" model:"{model}"', as_member="alice")
        for team, names in (("Flipper Kings", HOME), ("Tilt Warriors", AWAY)):
            await run(f'/team create name:"{team}" evening:Wednesday home_venue:"Ace Arcade"', as_member="alice")
            await run(f'/roster add team:"{team}" member:@{names[0]} role:captain adult:true', as_member="alice")
            for name in names[1:]:
                await run(f'/roster add team:"{team}" member:@{name} role:starter adult:true', as_member=names[0])
            submitted = await run(f'/roster submit team:"{team}" effective:2027-03-01', as_member=names[0])
            assert "Roster submitted" in submitted.text(), submitted.text()
        async with sqlite_db.writing() as session:
            league_row = (await session.exec(select(League))).one()
            teams = {t.name: t for t in (await session.exec(select(Team))).all()}
            venue = (await session.exec(select(Venue))).one()
            match = Match(
                league_id=league_row.id or 0, season_id=1, week=1, play_on=MATCH_DAY,
                home_team_id=teams["Flipper Kings"].id or 0, away_team_id=teams["Tilt Warriors"].id or 0,
                venue_id=venue.id,
            )  # fmt: skip
            session.add(match)
            await session.flush()
            machines = [m.id or 0 for m in (await session.exec(select(Machine).order_by(Machine.id))).all()]
            match_id = match.id or 0
        yield Night(league, match_id, machines)


async def four_each_checked_in(night: Night) -> None:
    """Four players a side check in before 20:00; the clock then moves past the start (TEAM-SCHED-3)."""
    await checked_in(night, *HOME[:4], *AWAY[:4])


async def checked_in(night: Night, *names: str) -> None:
    """These players check in before 20:00; the clock then moves past the start (TEAM-SCHED-3)."""
    clock = night.league.bot.clock
    assert isinstance(clock, ManualClock)
    clock.set(at(19, 50))
    for name in names:
        await night.run("/checkin match:MATCH", name)
    clock.set(at(20, 1))


async def scoreboard(night: Night) -> Output:
    """The match's living scoreboard, once every change so far is published on it."""
    await night.league.scoreboards_published()
    boards = [
        o for o in night.league.emulator.messages_in("general")
        if o.embeds and str(o.embeds[0].get("title", "")).startswith("Week 1")
    ]  # fmt: skip
    return boards[-1]


async def enter_and_confirm(
    night: Night, round_index: int, game: int, home: tuple[str, ...], away: tuple[str, ...]
) -> str:
    options = " ".join(
        [f"home{n}:{score}" for n, score in enumerate(home, start=1)]
        + [f"away{n}:{score}" for n, score in enumerate(away, start=1)]
    )
    entered = await night.league.run(
        f"/score match:{night.match_id} round:{round_index} game:{game} {options}", as_member="h1"
    )
    assert entered.content.startswith("📝"), entered.text()
    assert not entered.ephemeral
    self_confirm = await night.league.emulator.click(
        entered, f"score:confirm:{night.match_id}:{round_index}:{game}", as_member="h1"
    )
    assert "opposing captain confirms" in self_confirm.text()
    confirmed = await night.league.emulator.click(
        entered, f"score:confirm:{night.match_id}:{round_index}:{game}", as_member="a1"
    )
    assert "confirmed by A1" in confirmed.text(), confirmed.text()
    return entered.text()


async def match_points(night: Night) -> dict[Side, int]:
    async with night.league.db.reading() as session:
        match = await session.get(Match, night.match_id)
        assert match is not None
        context = await match_facts.context_for(session, (await session.exec(select(League))).one(), match)
        result = await match_facts.result(session, context, night.league.bot.clock.now())
    return dict(result.points)
