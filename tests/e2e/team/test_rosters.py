"""Captains manage a team roster from Discord: TEAM-TV-12 and TEAM-TV-13 through the real client."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from sqlmodel import select

from bot.clock import ManualClock
from storage.db import Database
from storage.matches import Match, MatchKind
from storage.models import Player, RosterEnd, RosterEntry, RosterRole, Team
from tests.e2e.harness import RunningBot, running_bot

NEW_YORK = ZoneInfo("America/New_York")
WEDNESDAY = datetime(2027, 3, 3, 15, 0, tzinfo=NEW_YORK)  # a match evening
TEAM = 'team:"Flipper Kings"'
STARTERS = ["s2", "s3", "s4", "s5", "s6", "s7"]
RESERVES = ["r1", "r2", "r3", "r4"]


def at(hour: int, minute: int = 0) -> datetime:
    return WEDNESDAY.replace(hour=hour, minute=minute)


@pytest.fixture
async def team_league(sqlite_db: Database) -> AsyncIterator[RunningBot]:
    """Flipper Kings (Wednesdays) with S1 captain, S2–S7 starters, R1–R4 reserves: 11 players."""
    async with running_bot(sqlite_db) as league:
        for name in ["s1", *STARTERS, *RESERVES, "r5", "r6", "x1"]:
            league.emulator.add_member(name)
        clock = league.bot.clock
        assert isinstance(clock, ManualClock)
        clock.set(datetime(2027, 2, 26, 12, 0, tzinfo=NEW_YORK))
        run = league.run
        await run('/league create name:"NYC" format:team commissioner_role:@Commissioner', as_member="owner")
        await run('/team create name:"Flipper Kings" evening:Wednesday', as_member="alice")
        await run(f"/roster add {TEAM} member:@s1 role:captain adult:true", as_member="alice")
        await run(f"/roster add {TEAM} member:@s2 role:starter adult:true ifpa_rank:120", as_member="alice")
        await run(f"/roster add {TEAM} member:@s3 role:starter adult:true ifpa_rank:480", as_member="alice")
        for name in STARTERS[2:]:
            await run(f"/roster add {TEAM} member:@{name} role:starter adult:true", as_member="s1")  # captain helps
        for name in RESERVES:
            await run(f"/roster add {TEAM} member:@{name} role:reserve adult:true", as_member="s1")
        submitted = await run(f"/roster submit {TEAM} effective:2027-03-01", as_member="s1")
        assert "Roster submitted" in submitted.text() and not submitted.ephemeral
        assert "In force on Mon 2027-03-01: 11 players" in submitted.text()
        clock.set(at(15))
        yield league


async def entries(league: RunningBot) -> list[RosterEntry]:
    async with league.db.reading() as session:
        return list((await session.exec(select(RosterEntry).order_by(RosterEntry.id))).all())


async def refused(league: RunningBot, line: str, *, as_member: str, rule: str, message: str) -> None:
    before = await league.row_counts()
    result = await league.run(line, as_member=as_member)
    assert result.ephemeral and result.content.startswith("⛔"), result.content
    # one broken rule is named under the message; several are listed, each with its rule
    named = f"Rule {rule}" in result.content or f"• {rule}: " in result.content
    assert message in result.content and named, result.content
    assert await league.row_counts() == before


async def test_captain_walks_through_the_roster_vectors(team_league: RunningBot) -> None:
    """TEAM-TV-12 (a)–(h) and TEAM-TV-13 (a) through Discord, on a Wednesday match day in New York."""
    league, run = team_league, team_league.run

    await refused(
        league,
        f"/roster add {TEAM} member:@x1 role:reserve adult:true ifpa_rank:300",
        as_member="s1",
        rule="TEAM-ROSTER-5",
        message="would have 3 players in IFPA top 500 (max 2)",
    )  # TV-13 (a); TEAM-AMB-13: S2 #120 and S3 #480, already on the roster, count against the new #300
    added = await run(f"/roster add {TEAM} member:@r5 role:reserve adult:true", as_member="s1")  # (a)
    assert "12 players" in added.text()
    await refused(
        league,
        f"/roster add {TEAM} member:@r6 role:reserve adult:true",
        as_member="s1",
        rule="TEAM-ROSTER-1",
        message="Roster is full (max 12)",
    )  # (b)
    dropped = await run(f"/roster drop {TEAM} member:@s2", as_member="s1")  # (c) 6 starters left
    assert "S2 dropped" in dropped.text()
    await refused(
        league,
        f"/roster drop {TEAM} member:@s3",
        as_member="s1",
        rule="TEAM-ROSTER-3",
        message="Team must keep at least 6 starters",
    )  # (c)
    await refused(
        league,
        f"/roster role {TEAM} member:@s1 role:reserve",
        as_member="s1",
        rule="TEAM-ROSTER-2",
        message="Captains must be starters",
    )  # (d)
    assert "now captain" in (await run(f"/roster role {TEAM} member:@s4 role:captain", as_member="s1")).text()
    await refused(
        league,
        f"/roster role {TEAM} member:@s3 role:captain",
        as_member="s1",
        rule="TEAM-ROSTER-2",
        message="one or two captains",
    )  # (e)
    await refused(
        league,
        f"/roster drop {TEAM} member:@r1",
        as_member="r2",
        rule="TEAM-ROSTER-6",
        message="Only a captain may change the roster",
    )  # (h)

    league.bot.clock.set(at(16, 5))  # type: ignore[attr-defined]
    await refused(
        league,
        f"/roster drop {TEAM} member:@r1",
        as_member="s1",
        rule="TEAM-ROSTER-7",
        message="Roster changes for today closed at 4:00 PM; earliest effective date is Thu 2027-03-04",
    )  # (f)
    await refused(
        league,
        f"/roster add {TEAM} member:@s2 role:starter effective:2027-03-04",
        as_member="s1",
        rule="TEAM-ROSTER-8",
        message="was dropped from this team on Wed 2027-03-03 and cannot return this season",
    )  # (g)
    tomorrow = await run(f"/roster drop {TEAM} member:@r1 effective:2027-03-04", as_member="s1")
    assert "In force on Thu 2027-03-04: 10 players" in tomorrow.text()

    rows = await entries(league)
    s2 = league.emulator.member("s2").id
    async with league.db.reading() as session:
        s2_player = (await session.exec(select(Player).where(Player.discord_user_id == s2))).one()
    s2_rows = [row for row in rows if row.player_id == s2_player.id]
    assert [
        (
            row.starts_on.isoformat() if row.starts_on else None,
            row.ends_on.isoformat() if row.ends_on else None,
            row.end_reason,
        )
        for row in s2_rows
    ] == [("2027-03-01", "2027-03-03", RosterEnd.DROPPED)]
    captains_on_wednesday = {
        row.player_id for row in rows if row.role is RosterRole.CAPTAIN and row.applies_on(at(15).date())
    }
    assert len(captains_on_wednesday) == 2

    on_monday = await run(f"/roster show {TEAM} on:2027-03-01", as_member="carol")
    assert "11 players" in on_monday.text() and "S2 · IFPA #120" in on_monday.text()


async def test_first_roster_must_pass_as_a_whole(sqlite_db: Database) -> None:
    """TEAM-ROSTER-9: a roster of five cannot be submitted; the draft stays a draft."""
    async with running_bot(sqlite_db) as league:
        run = league.run
        for name in ["p1", "p2", "p3", "p4", "p5"]:
            league.emulator.add_member(name)
        await run('/league create name:"NYC" format:team commissioner_role:@Commissioner', as_member="owner")
        await run('/team create name:"Flipper Kings" evening:Wednesday', as_member="alice")
        await run(f"/roster add {TEAM} member:@p1 role:captain adult:true", as_member="alice")
        for name in ["p2", "p3", "p4", "p5"]:
            await run(f"/roster add {TEAM} member:@{name} role:starter adult:true", as_member="p1")
        result = await run(f"/roster submit {TEAM}", as_member="p1")
        assert "• TEAM-ROSTER-1: Roster must have at least 6 players" in result.content and result.ephemeral
        assert all(row.starts_on is None for row in await entries(league))
        not_adult = await run(f"/roster add {TEAM} member:@carol role:starter", as_member="p1")
        shown = await run(f"/roster show {TEAM}", as_member="p1")
        assert "Being put together: 6 players" in shown.text(), not_adult.text()
        refused_submit = await run(f"/roster submit {TEAM}", as_member="p1")
        assert "Rule TEAM-ROSTER-11" in refused_submit.content
        outsider = await run(f"/roster add {TEAM} member:@dan role:starter adult:true", as_member="bob")
        assert "Rule TEAM-ROSTER-6" in outsider.content


async def test_rosters_freeze_after_the_regular_season(team_league: RunningBot) -> None:
    """TEAM-ROSTER-10, TEAM-TV-21: after the last scheduled regular-season match, no change takes effect."""
    async with team_league.db.writing() as session:
        team = (await session.exec(select(Team))).one()
        last_night = Match(
            league_id=team.league_id, season_id=1, week=1, play_on=at(15).date(),
            home_team_id=team.id or 0, away_team_id=team.id or 0, kind=MatchKind.REGULAR,
        )  # fmt: skip
        session.add(last_night)
    await refused(
        team_league, f"/roster add {TEAM} member:@r5 role:reserve adult:true effective:2027-03-04", as_member="s1",
        rule="TEAM-ROSTER-10", message="Rosters are frozen after the regular season",
    )  # fmt: skip
    on_the_night = await team_league.run(f"/roster add {TEAM} member:@r5 role:reserve adult:true", as_member="s1")
    assert "12 players" in on_the_night.text()  # the last match day itself is still open until 4 p.m.


async def test_submit_lists_every_problem_and_an_adult_record_is_corrected_in_place(sqlite_db: Database) -> None:
    """TEAM-ROSTER-9: `/roster submit` names every broken rule at once (TEAM-ROSTER-11, -1, -3, -5), each with
    its players; TEAM-ROSTER-11: a missing adult confirmation is then recorded with `/roster edit`, audited."""
    async with running_bot(sqlite_db) as league:
        run = league.run
        for name in ["p1", "p2", "p3", "p4"]:
            league.emulator.add_member(name)
        await run('/league create name:"NYC" format:team commissioner_role:@Commissioner', as_member="owner")
        await run('/team create name:"Flipper Kings" evening:Wednesday', as_member="alice")
        await run(f"/roster add {TEAM} member:@p1 role:captain adult:true", as_member="alice")
        await run(f"/roster add {TEAM} member:@p2 role:starter adult:true ifpa_rank:100", as_member="p1")
        await run(f"/roster add {TEAM} member:@p3 role:starter adult:true ifpa_rank:120", as_member="p1")
        await run(f"/roster add {TEAM} member:@p4 role:starter adult:true", as_member="p1")
        added = await run(f"/roster add {TEAM} member:@carol role:starter", as_member="p1")  # adult left out
        assert "Carol · ⚠️ adult not confirmed (`/roster edit`)" in added.text(), added.text()

        before = await league.row_counts()
        result = await run(f"/roster submit {TEAM}", as_member="p1")
        assert result.ephemeral and result.content.startswith("⛔ The roster breaks 4 rules"), result.content
        for problem in [
            "• TEAM-ROSTER-11: Carol must confirm they are 18 or older",  # TEAM-AMB-18: a minor is under 18
            "• TEAM-ROSTER-1: Roster must have at least 6 players; it would have 5.",
            "• TEAM-ROSTER-3: Team must keep at least 6 starters; it would have 5.",
            "• TEAM-ROSTER-5: Team would have 2 players in IFPA top 150 (max 1): P2 #100, P3 #120.",
        ]:
            assert problem in result.content, result.content
        assert await league.row_counts() == before

        outsider = await run(f"/roster edit {TEAM} member:@carol adult:true", as_member="p4")
        assert "Rule TEAM-ROSTER-6" in outsider.content and await league.row_counts() == before
        corrected = await run(f"/roster edit {TEAM} member:@carol adult:true", as_member="p1")
        assert "Carol is now recorded as an adult" in corrected.text(), corrected.text()
        assert "adult not confirmed" not in corrected.text() and "Being put together: 5 players" in corrected.text()
        again = await run(f"/roster edit {TEAM} member:@carol adult:true", as_member="p1")
        assert "Carol is already recorded as an adult; nothing changed" in again.content

        entry = [e for e in await league.audit() if e.entity == "player" and e.action == "update"][-1]
        assert entry.before is not None and entry.after is not None
        assert entry.before["adult_attested_at"] is None and entry.after["adult_attested_at"] is not None
        assert entry.command == "/roster edit" and entry.actor_id == league.emulator.member("p1").id
        resubmitted = await run(f"/roster submit {TEAM}", as_member="p1")
        assert "TEAM-ROSTER-11" not in resubmitted.content and "The roster breaks 3 rules" in resubmitted.content


async def test_a_wrong_adult_confirmation_is_withdrawn_without_a_drop(team_league: RunningBot) -> None:
    """TEAM-ROSTER-11: a captain withdraws a wrong `adult:true`; the player stays on the roster, audited."""
    rows_before = await entries(team_league)
    withdrawn = await team_league.run(f"/roster edit {TEAM} member:@r4 adult:false", as_member="s1")
    assert withdrawn.ephemeral and "R4 is no longer recorded as an adult" in withdrawn.text(), withdrawn.text()
    assert "`/roster drop`" in withdrawn.text() and "R4 · ⚠️ adult not confirmed" in withdrawn.text()
    assert await entries(team_league) == rows_before  # no roster entry closed or opened
    async with team_league.db.reading() as session:
        r4 = (await session.exec(select(Player).where(Player.display_name == "R4"))).one()
    assert r4.adult_attested_at is None
    entry = (await team_league.audit())[-1]
    assert (entry.entity, entry.entity_id, entry.command) == ("player", r4.id, "/roster edit")
    stranger = await team_league.run(f"/roster edit {TEAM} member:@x1 adult:true", as_member="s1")
    assert "is not a player in NYC" in stranger.content


async def test_cutoff_refusal_says_how_to_take_effect_later(team_league: RunningBot) -> None:
    """TEAM-ROSTER-7: after 4 p.m. the refusal names `effective:` with the earliest date, which then works."""
    team_league.bot.clock.set(at(16, 1))  # type: ignore[attr-defined]
    await refused(
        team_league,
        f"/roster add {TEAM} member:@r5 role:reserve adult:true",
        as_member="s1",
        rule="TEAM-ROSTER-7",
        message="earliest effective date is Thu 2027-03-04. To make this change take effect then (or later), "
        "send it again with `effective:2027-03-04`.",
    )
    later = await team_league.run(
        f"/roster add {TEAM} member:@r5 role:reserve adult:true effective:2027-03-04", as_member="s1"
    )
    assert "In force on Thu 2027-03-04: 12 players" in later.text(), later.text()


async def test_a_captain_corrects_a_roster_submitted_for_a_later_date(sqlite_db: Database) -> None:
    """TEAM-ROSTER-11, TEAM-ROSTER-6: before a submitted roster takes effect, its captain may already correct it."""
    async with running_bot(sqlite_db) as league:
        run = league.run
        clock = league.bot.clock
        assert isinstance(clock, ManualClock)
        clock.set(datetime(2027, 2, 26, 12, 0, tzinfo=NEW_YORK))
        for name in STARTERS:
            league.emulator.add_member(name)
        await run('/league create name:"NYC" format:team commissioner_role:@Commissioner', as_member="owner")
        await run('/team create name:"Flipper Kings" evening:Wednesday', as_member="alice")
        await run(f"/roster add {TEAM} member:@s2 role:captain adult:true", as_member="alice")
        for name in STARTERS[1:]:
            await run(f"/roster add {TEAM} member:@{name} role:starter adult:true", as_member="s2")
        submitted = await run(f"/roster submit {TEAM} effective:2027-03-01", as_member="s2")
        assert "In force on Mon 2027-03-01: 6 players" in submitted.text(), submitted.text()
        withdrawn = await run(f"/roster edit {TEAM} member:@s7 adult:false", as_member="s2")
        assert "S7 is no longer recorded as an adult" in withdrawn.text(), withdrawn.text()
        assert "In force on Mon 2027-03-01: 6 players" in withdrawn.text()
        assert "S7 · ⚠️ adult not confirmed" in withdrawn.text()


async def _draft(league: RunningBot, team: str, evening: str, joining: str) -> str:
    """A new team's draft roster: a fresh captain and four fresh starters, plus `joining`; the submit's reply."""
    await league.run(f'/team create name:"{team}" evening:{evening}', as_member="alice")
    fresh = [f"{team[:2].lower()}{n}" for n in range(5)]
    for n, name in enumerate(fresh):
        league.emulator.add_member(name)
        role = "captain" if n == 0 else "starter"
        await league.run(f'/roster add team:"{team}" member:@{name} role:{role} adult:true', as_member="alice")
    await league.run(f'/roster add team:"{team}" member:@{joining} role:starter adult:true', as_member="alice")
    return (await league.run(f'/roster submit team:"{team}" effective:2027-03-04', as_member="alice")).text()


async def test_a_player_is_on_at_most_two_teams_on_different_evenings_team_multi_1(team_league: RunningBot) -> None:
    """S3 (Flipper Kings, Wednesdays) may not join another Wednesday team; S2 joins a Thursday team, but not a
    third team."""
    # TEAM-MULTI-1: the other team's evening is the same, so the roster is refused naming it.
    same_evening = await _draft(team_league, "Night Owls", "Wednesday", "s3")
    assert "S3's other team plays on the same evening: Flipper Kings" in same_evening, same_evening
    assert "Rule TEAM-MULTI-1" in same_evening
    assert "Roster submitted" in await _draft(team_league, "Drain Masters", "Thursday", "s2")
    # TEAM-MULTI-1: at most 2 teams a season.
    third = await _draft(team_league, "Spinners", "Friday", "s2")
    assert "S2 is already on 2 teams: Flipper Kings and Drain Masters" in third and "TEAM-MULTI-1" in third, third
