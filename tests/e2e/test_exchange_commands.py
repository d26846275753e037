"""Spreadsheets in and files out through Discord: /league import, /standings export, /schedule ics."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlmodel import select

from bot.clock import ManualClock
from storage.db import Database
from storage.models import Machine, RosterEntry
from tests.e2e.harness import RunningBot, running_bot
from tests.e2e.season import SETUP_DAY, refused


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
