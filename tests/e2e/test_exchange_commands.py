"""Spreadsheets in and files out through Discord: /league import, /standings export, /schedule ics."""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator
from datetime import UTC, datetime, time, timedelta
from pathlib import Path

import icalendar
import pytest
from sqlmodel import select

from bot.clock import ManualClock
from bot.rules.team.model import ScoreStatus
from bot.services.actor import Actor
from storage.db import Database
from storage.matches import GameScore
from storage.models import Machine, Player, RosterEntry
from tests.e2e.harness import RunningBot, running_bot
from tests.e2e.season import NEW_YORK, SETUP_DAY, TEAMS, VENUES, refused, stored_matches, teams_by_name
from tests.exchange.history import build_history


@pytest.fixture
async def league_bot(sqlite_db: Database) -> AsyncIterator[RunningBot]:
    async with running_bot(sqlite_db) as league:
        yield league


async def _new_league(league: RunningBot) -> None:
    clock = league.bot.clock
    assert isinstance(clock, ManualClock)
    clock.set(SETUP_DAY)
    await league.run('/league create name:"NYC" format:team commissioner_role:@Commissioner', as_member="owner")
    for line in ('/venue add name:"Ace Arcade"', '/team create name:"Flipper Kings" evening:Tuesday'):
        assert "⛔" not in (await league.run(line, as_member="alice")).content


def actor(league: RunningBot) -> Actor:
    member = league.emulator.member("carol")
    return Actor(league.emulator.guild.id, member.id, member.display_name, frozenset(), False, "/standings")


def _roster_csv(league: RunningBot, path: Path, *, team: str, prefix: str) -> Path:
    lines = ["team,discord_id,name,role,ifpa_number,ifpa_rank,adult"]
    for n in range(1, 7):
        member = league.emulator.add_member(f"{prefix}{n}")
        lines.append(f"{team},{member.id},{member.display_name},{'captain' if n == 1 else 'starter'},,,yes")
    path.write_text("\n".join(lines) + "\n")
    return path


async def test_commissioner_imports_rosters_and_machines_from_csv(league_bot: RunningBot, tmp_path: Path) -> None:
    """TEAM-ROSTER-9: an imported roster is the roster being put together, which /roster submit then checks and
    puts in force; COMMON-MACH-2 machines arrive with their venue; COMMON-ROLE-1 only commissioners import."""
    league = league_bot
    await _new_league(league)
    rosters = _roster_csv(league, tmp_path / "rosters.csv", team="Flipper Kings", prefix="fk")
    machines = tmp_path / "machines.csv"
    machines.write_text("venue,model,variant,players,balls\nAce Arcade,Godzilla,Premium,4,3\nBarcade,Twilight Zone\n")

    await refused(league, f"/league import kind:rosters file:{rosters}", as_member="carol", rule="COMMON-ROLE-1",
                  message="Only commissioners of NYC can import rosters")  # fmt: skip
    checked = await league.run(f"/league import kind:rosters file:{rosters} dry_run:true", as_member="alice")
    assert checked.ephemeral and "would import 6 player, 6 roster_entry" in checked.content, checked.content
    done = await league.run(f"/league import kind:rosters file:{rosters}", as_member="alice")
    assert "📥 NYC: imported 6 player, 6 roster_entry" in done.content, done.content
    assert "`/roster submit`" in done.content
    submitted = await league.run('/roster submit team:"Flipper Kings" effective:2027-02-26', as_member="alice")
    assert "Roster submitted" in submitted.text(), submitted.content
    done = await league.run(f"/league import kind:machines file:{machines}", as_member="alice")
    assert "imported 1 venue, 2 machine" in done.content, done.content

    async with league.db.reading() as session:
        entries = (await session.exec(select(RosterEntry))).all()
        titles = sorted(m.title for m in (await session.exec(select(Machine))).all())
    assert len(entries) == 6 and all(entry.starts_on is not None for entry in entries)
    assert titles == ["Godzilla (Premium)", "Twilight Zone"]


async def test_a_broken_csv_is_reported_row_by_row_and_changes_nothing(league_bot: RunningBot, tmp_path: Path) -> None:
    """COMMON-MACH-2: capacities and balls are checked per row; every bad row is named, nothing is imported."""
    league = league_bot
    await _new_league(league)
    machines = tmp_path / "machines.csv"
    machines.write_text("venue,model,players,balls\nAce Arcade,Godzilla,3,3\nAce Arcade,,4,3\nAce Arcade,Jaws,4,4\n")
    await refused(league, f"/league import kind:machines file:{machines}", as_member="alice", rule=None,
                  message="3 problem(s); nothing was imported")  # fmt: skip
    reply = await league.run(f"/league import kind:machines file:{machines}", as_member="alice")
    assert reply.content.splitlines()[1:] == [
        "• machines.csv:2: A machine takes 1, 2 or 4 players, not 3. Set `players` to one of those. "
        "(rule COMMON-MACH-2)",
        "• machines.csv:3: `model` cannot be empty. Give it a name people will recognise.",
        "• machines.csv:4: Games are 3 or 5 balls, not 4. Set `balls` to 3 or 5. (rule COMMON-MACH-2)",
    ]


@pytest.fixture
async def history(sqlite_db: Database) -> AsyncIterator[RunningBot]:
    """NYC with a three-week schedule from Mon 2027-03-01 (across the DST change of 14 March); week 1 played."""
    async with running_bot(sqlite_db) as league:
        await build_history(league)
        clock = league.bot.clock
        assert isinstance(clock, ManualClock)
        clock.set(datetime(2027, 3, 20, 12, 0, tzinfo=NEW_YORK))
        yield league


async def test_schedule_ics_of_a_team_and_a_player_parses_back_in_league_time(history: RunningBot) -> None:
    """The calendar holds exactly the team's matches, starting 20:00 New York time before and after the change
    to daylight saving time (01:00Z, then 00:00Z), at the HOME venue; a player's calendar is their team's."""
    league = history
    reply = await league.run('/schedule ics team:"Flipper Kings"', as_member="carol")
    assert reply.ephemeral and reply.answer is not None
    [attachment] = reply.answer.attachments
    assert attachment.filename == "nyc-flipper-kings.ics" and attachment.content_type.startswith("text/calendar")
    calendar = icalendar.Calendar.from_ical(attachment.data)
    events = sorted(calendar.walk("VEVENT"), key=lambda event: event.decoded("DTSTART"))

    teams = await teams_by_name(league)
    kings = teams["Flipper Kings"]
    mine = [m for m in await stored_matches(league) if kings.id in (m.home_team_id, m.away_team_id)]
    assert len(events) == len(mine) == 3
    by_id = {team.id: team.name for team in teams.values()}
    for event, match in zip(events, sorted(mine, key=lambda m: m.play_on), strict=True):
        starts = event.decoded("DTSTART")
        assert starts.tzinfo is not None and starts.astimezone(NEW_YORK) == datetime.combine(
            match.play_on, time(20), tzinfo=NEW_YORK
        )
        assert event.decoded("DTEND") - starts == timedelta(hours=3)
        assert str(event["SUMMARY"]) == f"{by_id[match.home_team_id]} v {by_id[match.away_team_id]}"
        assert str(event["LOCATION"]) in VENUES
    utc_starts = [event.decoded("DTSTART").astimezone(UTC).strftime("%m-%d %H:%M") for event in events]
    assert [s[-5:] for s in utc_starts] == ["01:00", "01:00", "00:00"], utc_starts  # EST, EST, then EDT
    assert f"{len(events)} event(s)" in reply.content

    fk1 = league.emulator.member("fk1")
    players = await league.run("/schedule ics player:@fk1", as_member="fk1")
    [player_file] = players.answer.attachments if players.answer else []
    player_events = icalendar.Calendar.from_ical(player_file.data).walk("VEVENT")
    assert sorted(str(e["UID"]) for e in player_events) == sorted(str(e["UID"]) for e in events)
    assert fk1.display_name.casefold() in player_file.filename
    await refused(league, "/schedule ics player:@carol", as_member="carol", rule=None,
                  message="is not a player in NYC")  # fmt: skip


async def test_standings_export_attaches_the_table_and_ifpa_results(history: RunningBot) -> None:
    """TEAM-STAND-1's table as CSV, and per conference an IFPA results CSV (FIELD-IFPA-1's order: shared places
    for tied teams) listing exactly the players with a score that counts, each team's players sharing its place."""
    league = history
    reply = await league.run("/standings export:true", as_member="carol")
    assert reply.ephemeral and reply.answer is not None
    files = {attachment.filename: attachment.data.decode() for attachment in reply.answer.attachments}
    assert set(files) == {"nyc-standings.csv", "nyc-east-ifpa.csv", "nyc-west-ifpa.csv"}

    table = list(csv.DictReader(io.StringIO(files["nyc-standings.csv"])))
    assert {row["team"] for row in table} == {name for name, *_ in TEAMS}
    view = await league.bot.services.standings.table(actor(league), None, conference=None)
    assert len(table) == sum(len(t.rows) for t in view.tables)
    for row in table:
        team = next(team for team in view.tables if team.name == row["conference"])
        standing = next(r for r in team.rows if team.teams[r.team].name == row["team"])
        assert (int(row["rank"]), int(row["played"]), int(row["wins"]), int(row["match_points"])) == (
            standing.rank, standing.played, standing.wins, standing.match_points
        )  # fmt: skip
    assert sum(int(row["played"]) for row in table) == 2 * view.final_matches > 0

    async with league.db.reading() as session:
        counted = (await session.exec(select(GameScore).where(GameScore.status != ScoreStatus.VOID))).all()
        players = {p.id: p for p in (await session.exec(select(Player))).all()}
    scorers = {players[score.player_id].display_name for score in counted}
    listed = set()
    for name in ("nyc-east-ifpa.csv", "nyc-west-ifpa.csv"):
        rows = list(csv.DictReader(io.StringIO(files[name])))
        listed |= {row["name"] for row in rows}
        positions = [int(row["position"]) for row in rows]
        assert positions[0] == 1 and positions == sorted(positions)
        for index, position in enumerate(positions):  # a place counts everyone above it (1, 1, 1, 1, 5, …)
            assert position == 1 + next(i for i, p in enumerate(positions) if p == position)
            assert position <= index + 1
    assert listed == scorers
