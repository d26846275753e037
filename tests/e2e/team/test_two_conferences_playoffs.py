"""A player on two teams in different conferences in the playoffs (TEAM-MULTI-3), in a league set up through
Discord: East (Flipper Kings, Tuesdays; Drain Masters, Thursdays) and West (Spinners, Tuesdays; Rollovers,
Wednesdays). FK2 starts for Flipper Kings and for Rollovers; both conferences' finals fall on Tuesday 2027-03-23."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date, datetime, time

import pytest
from sqlmodel import select

from bot.clock import ManualClock
from storage.db import Database
from storage.matches import Match, MatchKind
from storage.models import Machine
from tests.e2e.harness import RunningBot, running_bot
from tests.e2e.season import NEW_YORK, SETUP_DAY, Facts, side_of, stored_matches, teams_by_name

# name, roster prefix, evening, home venue, conference; the better team in this order wins every meeting
TEAMS = [
    ("Flipper Kings", "fk", "Tuesday", "Ace Arcade", "East"),
    ("Spinners", "sp", "Tuesday", "Barcade", "West"),
    ("Drain Masters", "dm", "Thursday", "Barcade", "East"),
    ("Rollovers", "ro", "Wednesday", "Ace Arcade", "West"),
]
ORDER = [name for name, *_ in TEAMS]
EAST_AWAY, EAST_HOME = ["dm1", "dm2", "dm3", "dm4"], ["fk1", "fk2", "fk3", "fk4"]
WEST_AWAY, WEST_HOME = ["fk2", "ro1", "ro2", "ro3"], ["sp1", "sp2", "sp3", "sp4"]


@pytest.fixture
async def finals(sqlite_db: Database) -> AsyncIterator[RunningBot]:
    """The regular season played (FK2 plays for both of its teams), then each conference's final scheduled."""
    async with running_bot(sqlite_db) as league:
        clock = league.bot.clock
        assert isinstance(clock, ManualClock)
        clock.set(SETUP_DAY)
        await league.run('/league create name:"NYC" format:team commissioner_role:@Commissioner', as_member="owner")
        for venue in ("Ace Arcade", "Barcade"):
            await league.run(f'/venue add name:"{venue}"', as_member="alice")
            for model in ("Godzilla", "Medieval Madness", "Attack from Mars"):
                await league.run(f'/machine add venue:"{venue}" model:"{model}"', as_member="alice")
        for name, prefix, evening, venue, conference in TEAMS:
            await league.run(
                f'/team create name:"{name}" evening:{evening} home_venue:"{venue}" conference:{conference}',
                as_member="alice",
            )
            members = [f"{prefix}{n}" for n in range(1, 7)]
            if name == "Rollovers":
                members = ["fk2", *members[:5]]  # first on the roster: among the four who play each match
            for member in members:
                if not member.startswith("fk") or name == "Flipper Kings":
                    league.emulator.add_member(member)
                role = "captain" if member == f"{prefix}1" else "starter"
                added = await league.run(
                    f'/roster add team:"{name}" member:@{member} role:{role} adult:true', as_member="alice"
                )
                assert not added.content.startswith("⛔"), added.content
            submitted = await league.run(f'/roster submit team:"{name}" effective:2027-02-26', as_member="alice")
            assert "Roster submitted" in submitted.text(), submitted.content
        await league.run("/schedule generate weeks:3 start:2027-03-01", as_member="alice")
        teams, facts = await teams_by_name(league), await Facts.load(league)
        for match in await stored_matches(league):
            names = {n for n, t in teams.items() if t.id in (match.home_team_id, match.away_team_id)}
            winner = side_of(match, teams[min(names, key=ORDER.index)])
            if names == {"Flipper Kings", "Rollovers"}:  # FK2 would be on both sides
                await facts.venue_forfeit(match, winner.other)
            else:
                await facts.played(match, "HHHHHHHHAAAA" if winner.value == "home" else "AAAAAAAAHHHH")
        clock.set(datetime(2027, 3, 22, 9, 0, tzinfo=NEW_YORK))
        seeded = await league.run("/playoffs seed start:2027-03-22", as_member="alice")
        assert "scheduled" in seeded.text(), seeded.content
        yield league


async def final_of(league: RunningBot, home: str) -> Match:
    teams = await teams_by_name(league)
    return next(
        m for m in await stored_matches(league) if m.kind is MatchKind.PLAYOFF and m.home_team_id == teams[home].id
    )


async def check_in(league: RunningBot, day: date, *members_by_match: tuple[Match, list[str]]) -> None:
    """These players check in at 19:50 on `day`; the clock then moves past the start."""
    clock = league.bot.clock
    assert isinstance(clock, ManualClock)
    clock.set(datetime.combine(day, time(19, 50), tzinfo=NEW_YORK))
    for match, members in members_by_match:
        for member in members:
            await league.run(f"/checkin match:{match.id} member:@{member}", as_member="alice")
    clock.set(datetime.combine(day, time(20, 1), tzinfo=NEW_YORK))


async def lineup(league: RunningBot, match: Match, players: list[str], *, captain: str, machines: bool) -> str:
    """A round-1 lineup; the AWAY team declares first and picks two machines of the venue."""
    named = " ".join(f"p{n}:{player.upper()}" for n, player in enumerate(players, start=1))
    async with league.db.reading() as session:
        ids = (await session.exec(select(Machine.id).where(Machine.venue_id == match.venue_id))).all()
    picks = f" m1:{ids[0]} m2:{ids[1]}" if machines else ""
    return (await league.run(f"/lineup match:{match.id} {named}{picks}", as_member=captain)).content


async def test_a_player_plays_both_conferences_playoffs_on_different_nights(finals: RunningBot) -> None:
    """TEAM-MULTI-3: Flipper Kings and Rollovers are in different conferences, so FK2 plays both finals and is
    locked to neither (TEAM-MULTI-2 does not apply); the West final was moved to Wednesday 2027-03-24."""
    west = await final_of(finals, "Spinners")
    async with finals.db.writing() as session:
        west.play_on = date(2027, 3, 24)
        session.add(west)
    east = await final_of(finals, "Flipper Kings")
    assert east.play_on == date(2027, 3, 23)
    await check_in(finals, east.play_on, (east, [*EAST_AWAY, *EAST_HOME]))
    assert "declared round 1" in await lineup(finals, east, EAST_AWAY, captain="dm1", machines=True)
    assert "declared round 1" in await lineup(finals, east, EAST_HOME, captain="fk1", machines=False)
    await check_in(finals, west.play_on, (west, [*WEST_AWAY, *WEST_HOME]))
    assert "declared round 1" in await lineup(finals, west, WEST_AWAY, captain="ro1", machines=True)


async def test_a_player_plays_only_one_of_two_playoff_matches_on_the_same_night(finals: RunningBot) -> None:
    """TEAM-MULTI-3: both finals are on Tuesday 2027-03-23. FK2 is in Flipper Kings' lineup, so Rollovers'
    lineup naming FK2 is refused with the match FK2 already played tonight, and nothing is stored."""
    east, west = await final_of(finals, "Flipper Kings"), await final_of(finals, "Spinners")
    assert east.play_on == west.play_on == date(2027, 3, 23)
    await check_in(finals, east.play_on, (east, [*EAST_AWAY, *EAST_HOME]), (west, [*WEST_AWAY, *WEST_HOME]))
    assert "declared round 1" in await lineup(finals, east, EAST_AWAY, captain="dm1", machines=True)
    assert "declared round 1" in await lineup(finals, east, EAST_HOME, captain="fk1", machines=False)
    before = await finals.digest()
    second = await lineup(finals, west, WEST_AWAY, captain="ro1", machines=True)
    assert "Rule TEAM-MULTI-3" in second, second
    assert "Fk2 already played in Drain Masters at Flipper Kings (Tue 2027-03-23) tonight" in second, second
    assert "name another player" in second, second
    assert await finals.digest() == before
