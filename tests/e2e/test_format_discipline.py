"""Discipline in the ladder and field formats through Discord: /admin suspends a ladder player, who is then
refused at check-in and score entry naming the ruling (COMMON-PLAYER-2); the field format's interference
ladder reaches its season step and the player is refused at the next check-in (FIELD-PEN-3); /admin history
lists the automatic entries (COMMON-DISC-1), and a team cannot be warned where there are no teams."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlmodel import select

from bot.clock import ManualClock
from storage.db import Database
from storage.ladder import LadderPlayer
from tests.e2e.harness import RunningBot, running_bot
from tests.e2e.season import refused

NEW_YORK = ZoneInfo("America/New_York")
NIGHT = datetime(2027, 3, 3, 12, 0, tzinfo=NEW_YORK)  # a Wednesday
MACHINES = ["Attack from Mars", "Black Knight", "Cirqus Voltaire", "Demolition Man", "Elvira"]
PLAYERS = ["p1", "p2", "p3", "p4"]


async def ok(league: RunningBot, line: str, member: str) -> str:
    result = await league.run(line, as_member=member)
    assert not result.content.startswith("⛔") and "Something went wrong" not in result.text(), (line, result.text())
    return result.text()


@pytest.fixture
async def league_of(sqlite_db: Database) -> AsyncIterator[tuple[RunningBot, ManualClock]]:
    async with running_bot(sqlite_db) as league:
        clock = league.bot.clock
        assert isinstance(clock, ManualClock)
        clock.set(NIGHT)
        league.emulator.quiet_window = 0.001
        for name in PLAYERS:
            league.emulator.add_member(name)
        yield league, clock


async def machines(league: RunningBot, ladder: bool) -> None:
    await ok(league, '/venue add name:"The Break"', "alice")
    for machine in MACHINES:
        await ok(league, f'/machine add venue:"The Break" model:"{machine}"', "alice")
        if ladder:
            await ok(league, f'/ladder normalizer machine:"{machine}" value:20,000,000', "alice")


async def test_a_suspended_ladder_player_is_refused_at_check_in_and_score_entry(
    league_of: tuple[RunningBot, ManualClock],
) -> None:
    """COMMON-PLAYER-2: a suspension through a date refuses check-in; a player suspended after being placed
    in tonight's group can no longer enter scores, and the group plays on. A warning suspends nobody in a
    ladder league (TEAM-DISC-2 is the team format's), and /admin refuses a team (COMMON-DISC-1)."""
    league, _ = league_of
    await ok(league, '/league create name:"Ladder" format:ladder commissioner_role:@Commissioner', "owner")
    await machines(league, ladder=True)
    for number, name in enumerate(PLAYERS):
        await ok(league, f"/ladder join skill:{10 - number}", name)
    await ok(league, "/ladder night open", "alice")
    await ok(league, "/ladder checkin", "p1")

    until = (NIGHT + timedelta(days=6)).date().isoformat()
    suspended = await ok(league, f'/admin suspend member:@p2 until:{until} reason:"Abusive to the host"', "alice")
    ruling = re.search(r"ruling #(\d+), COMMON-DISC-1", suspended)
    assert ruling, suspended
    await refused(
        league, "/ladder checkin", as_member="p2", rule="COMMON-PLAYER-2",
        message=f"is suspended through {until} (ruling #{ruling[1]}) and cannot check in",
    )  # fmt: skip

    later = await ok(league, '/admin suspend member:@p1 reason:"Threatened a player"', "alice")
    second = re.search(r"ruling #(\d+)", later)
    assert second, later
    # COMMON-TV-3: suspended to the end of this season, P1 is refused naming the ruling.
    await refused(
        league, "/ladder score game:1 score:1,000,000", as_member="p1", rule="COMMON-PLAYER-2",
        message=f"suspended for the rest of the season (ruling #{second[1]}) and cannot have a score entered",
    )  # fmt: skip
    for million, name in ((1, "p3"), (2, "p4")):  # the group plays on
        await ok(league, "/ladder checkin", name)
        await ok(league, f'/ladder score game:1 score:"{" ".join([f"{million},000,000"] * 5)}"', name)
    await ok(league, "/ladder night close", "alice")  # p1 checked in but closes as an absentee
    async with league.db.reading() as session:
        assert [e.no_shows for e in (await session.exec(select(LadderPlayer))).all()] == [0] * 4  # barred: no No-Show

    for reason in ("Language", "Language again"):
        assert "suspended" not in await ok(league, f'/admin warn member:@p4 reason:"{reason}"', "alice")
    await refused(
        league, '/admin warn team:"Anyone" reason:"Ignored the rules"', as_member="alice", rule="COMMON-DISC-1",
        message="has no teams",
    )  # fmt: skip
    history = await ok(league, "/admin history member:@p2", "alice")
    assert f"#{ruling[1]}" in history and f"suspension through {until}" in history


async def test_the_season_step_of_the_interference_ladder_refuses_the_next_check_in(
    league_of: tuple[RunningBot, ManualClock],
) -> None:
    """FIELD-PEN-3: the fourth interference offence of the season forfeits it and suspends the player; every
    offence and the suspension are automatic entries in /admin history (COMMON-DISC-1), and the next week's
    check-in is refused naming the suspension's ruling (COMMON-PLAYER-2)."""
    league, clock = league_of
    await ok(
        league,
        '/league create name:"LPL" format:field timezone:America/New_York commissioner_role:@Commissioner',
        "owner",
    )
    await machines(league, ladder=False)
    for name in PLAYERS:
        await ok(league, f"/player register member:@{name}", "alice")
    await ok(league, "/field night open m1:1 m2:2 m3:3 m4:4 m5:5", "alice")
    for name in PLAYERS:
        await ok(league, "/field checkin", name)
    texts = [
        await ok(league, f"/field penalty member:@p1 offence:interference machine:{n} note:shove", "alice")
        for n in range(1, 5)
    ]
    assert "Suspension recorded" not in "".join(texts[:3])
    suspension = re.search(r"Suspension recorded as ruling #(\d+)", texts[3])
    assert suspension and "season forfeited" in texts[3], texts[3]

    history = await ok(league, "/admin history member:@p1", "alice")
    assert history.count("offence (automatic) [FIELD-PEN-3]") == 4, history
    assert f"#{suspension[1]}" in history and "suspension to the end of the season (automatic) [FIELD-PEN-3]" in history

    await ok(league, "/field night close missing_scores:accept", "alice")
    clock.set(NIGHT + timedelta(days=7))
    await ok(league, "/field night open m1:1 m2:2 m3:3 m4:4 m5:5", "alice")
    await refused(
        league, "/field checkin", as_member="p1", rule="COMMON-PLAYER-2",
        message=f"suspended for the rest of the season (ruling #{suspension[1]}) and cannot check in",
    )  # fmt: skip
    await ok(league, "/field checkin", "p2")
