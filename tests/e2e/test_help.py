"""/help through Discord: what each member can do in the league and what is due for them now (DESIGN.md §2c).

One guild holds a team league with tonight's match, a ladder and a field league with tonight's night open
(`tests/e2e/command_table.py`'s seed); each test asks as a member in a different part of the league.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.local.emulator import InteractionResult
from storage.db import Database
from storage.matches import Match, MatchChallenge
from tests.e2e.command_table import MATCH_DAY, NEW_YORK, Seeded, seed
from tests.e2e.harness import RunningBot, running_bot

LABEL = "Tilt Warriors at Flipper Kings"


@pytest.fixture
async def seeded(sqlite_db: Database, tmp_path: Path) -> AsyncIterator[tuple[RunningBot, Seeded]]:
    async with running_bot(sqlite_db) as running:
        yield running, await seed(running, "NYC", tmp_path)


async def ask(running: RunningBot, member: str, league: str | None = None) -> tuple[InteractionResult, dict[str, Any]]:
    """/help as `member`: the reply, checked to be private and inside Discord's 3 s, and its one embed."""
    line = f'/help league:"{league}"' if league else "/help"
    result = await running.run(line, as_member=member)
    assert result.ephemeral, result.text()
    assert result.ack_latency is not None and result.ack_latency < 3.0
    assert len(result.embeds) == 1, result.text()
    return result, result.embeds[0]


def due_lines(embed: dict[str, Any]) -> list[str]:
    description = embed["description"]
    if "**Due now**" not in description:
        return []
    return [line for line in description.split("**Due now**")[1].splitlines() if line.startswith("•")]


def field_names(embed: dict[str, Any]) -> list[str]:
    return [field["name"] for field in embed.get("fields", [])]


def field_value(embed: dict[str, Any], name: str) -> str:
    return next(field["value"] for field in embed["fields"] if field["name"] == name)


async def ok(running: RunningBot, line: str, member: str) -> None:
    result = await running.run(line, as_member=member)
    assert not result.content.startswith("⛔"), (line, result.text())


async def test_a_member_of_a_server_without_a_league_is_told_how_to_start_one(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as running:
        _, embed = await ask(running, "carol")
        assert "runs no league yet" in embed["description"] and "`/league create name format`" in embed["description"]
        assert "A server admin (Administrator or Manage Server) starts one" in embed["description"]
        for choice in ("team — Pinball NYC", "ladder — Jersey PA", "field — Lafayette"):
            assert choice in embed["description"]
        _, admin = await ask(running, "owner")
        assert "You can start one now" in admin["description"]
        assert await running.row_counts() == dict.fromkeys(await running.row_counts(), 0)  # asking changes nothing


async def test_before_the_first_night(sqlite_db: Database) -> None:
    """LADDER-REG-1: members join the ladder until week 3; the officials open each night (LADDER-GSEL-1,
    FIELD-MSEL-1); a field league's newcomer is registered or plays as a guest (FIELD-ATT-3)."""
    async with running_bot(sqlite_db) as running:
        for name, league_format in (("Ladder", "ladder"), ("Field", "field")):
            created = f"/league create name:{name} format:{league_format} timezone:America/New_York"
            await ok(running, f"{created} commissioner_role:@Commissioner", "owner")
        _, official = await ask(running, "alice", "Ladder")
        assert due_lines(official) == ["• Open week 1's night when players arrive — `/ladder night open`"]
        _, newcomer = await ask(running, "carol", "Ladder")
        assert due_lines(newcomer) == ["• Join Season 1's ladder with your skill from 1 to 10 — `/ladder join`"]
        await ok(running, "/ladder join skill:5 league:Ladder", "carol")
        _, joined = await ask(running, "carol", "Ladder")
        assert "• No night is open; week 1's groups — `/ladder groups`" in due_lines(joined)
        _, field_official = await ask(running, "alice", "Field")
        assert due_lines(field_official) == ["• Open week 1's night with its five machines — `/field night open`"]
        _, field_newcomer = await ask(running, "carol", "Field")
        assert "`/field guest`" in due_lines(field_newcomer)[0] and "To get started" in field_names(field_newcomer)


async def test_a_commissioner_sees_the_official_commands_and_the_disputes_to_rule(
    seeded: tuple[RunningBot, Seeded],
) -> None:
    """COMMON-ROLE-1: the league's Commissioner role makes alice an official; TEAM-DISP-1: open disputes wait
    for her ruling."""
    running, league = seeded
    await _raise_disputes(running, league, matches=1, per_match=1)
    _, embed = await ask(running, "alice", "NYC")
    assert embed["description"].startswith("You are one of NYC's officials.")
    assert "As an official" in field_names(embed) and "How a night goes" in field_names(embed)
    assert any("`/match ruling`" in line and LABEL in line for line in due_lines(embed))
    _, player = await ask(running, "hp3", "NYC")
    assert "As an official" not in field_names(player)
    assert not any("`/match ruling`" in line for line in due_lines(player))


async def test_captains_see_whose_lineup_is_due(seeded: tuple[RunningBot, Seeded]) -> None:
    """TEAM-LINEUP-2: AWAY declares round 1 first, then HOME; TEAM-SCHED-2: both still have to check in."""
    running, league = seeded
    _, away = await ask(running, "ac", "NYC")
    assert "captain of Tilt Warriors" in away["description"] and "As a captain" in field_names(away)
    assert f"• Your lineup for round 1 of {LABEL} is due — `/lineup`" in due_lines(away)
    assert f"• Check in for tonight's match, {LABEL} — `/checkin`" in due_lines(away)
    _, home = await ask(running, "hc", "NYC")
    assert f"• Round 1 of {LABEL}: Tilt Warriors declares first, then your lineup — `/lineup`" in due_lines(home)
    await _away_declares_round_one(running, league)
    _, after = await ask(running, "hc", "NYC")
    assert f"• Your lineup for round 1 of {LABEL} is due — `/lineup`" in due_lines(after)
    _, declared = await ask(running, "ac", "NYC")
    assert not any("lineup" in line for line in due_lines(declared))


async def test_a_game_awaiting_confirmation(seeded: tuple[RunningBot, Seeded]) -> None:
    """COMMON-SCORE-1: the opposing captain confirms a game's scores; the players in it see that it waits."""
    running, league = seeded
    match = league.match
    await _away_declares_round_one(running, league)
    await ok(running, f"/lineup match:{match} p1:HC p2:HP2 p3:HP3 p4:HP4", "hc")
    await ok(
        running,
        f"/score match:{match} round:1 game:1 home1:30,000,000 home2:20,000,000 away1:10,000,000 away2:9,000,000",
        "hc",
    )
    _, away_captain = await ask(running, "ac", "NYC")
    assert f"• {LABEL}: round 1 game 1 awaits your confirmation — **Confirm** under its scores" in due_lines(
        away_captain
    )
    assert f"• {LABEL}: round 1 game(s) 2 need scores — `/score`" in due_lines(away_captain)
    _, player = await ask(running, "hp2", "NYC")
    assert "starter of Flipper Kings" in player["description"] and "As a player" in field_names(player)
    waiting = f"• {LABEL}: round 1 game 1 waits for the captain of Tilt Warriors — their **Confirm**"
    assert due_lines(player) == [waiting]
    _, not_in_it = await ask(running, "hp4", "NYC")
    assert not_in_it["description"].endswith("Nothing is due for you right now. `/standings` shows the league table.")
    clock = running.bot.clock
    assert isinstance(clock, ManualClock)
    clock.set(datetime.combine(MATCH_DAY + timedelta(days=1), time(10, 0), tzinfo=NEW_YORK))
    _, next_morning = await ask(running, "ac", "NYC")
    assert due_lines(next_morning)[0] == (
        f"• {LABEL} (Wed 3 Mar): round 1 game 1 awaits your confirmation — **Confirm** under its scores"
    )
    assert not any("Check in" in line for line in due_lines(next_morning))


async def test_captains_are_asked_to_sign_once_every_game_is_confirmed(seeded: tuple[RunningBot, Seeded]) -> None:
    """TEAM-MATCH-4: with every game entered and confirmed, each captain who has not signed is asked to."""
    running, league = seeded
    await _away_declares_round_one(running, league)
    m1, m2, m3 = league.machines
    rounds = {  # round: the lineups still to declare, in turn (TEAM-LINEUP-2), and how many games it has
        1: ([("hc", "p1:HC p2:HP2 p3:HP3 p4:HP4")], 2),
        2: ([("hc", f"p1:HC p2:HP3 p3:HP2 p4:HP4 m1:{m1} m2:{m3}"), ("ac", "p1:AC p2:AP3 p3:AP2 p4:AP4")], 2),
        3: (
            [
                ("ac", f"p1:AC p2:AP2 p3:AP3 p4:AP4 m1:{m1} m2:{m1} m3:{m2} m4:{m3}"),
                ("hc", "p1:HC p2:HP2 p3:HP3 p4:HP4"),
            ],
            4,
        ),
        4: (
            [
                ("hc", f"p1:HP4 p2:HP3 p3:HP2 p4:HC m1:{m2} m2:{m2} m3:{m3} m4:{m1}"),
                ("ac", "p1:AP4 p2:AP3 p3:AP2 p4:AC"),
            ],
            4,
        ),
    }
    for round_index, (declarations, games) in rounds.items():
        for captain, players in declarations:
            await ok(running, f"/lineup match:{league.match} {players}", captain)
        for game in range(1, games + 1):
            await _enter_and_confirm(running, league.match, round_index, game, players=2 if round_index < 3 else 1)
    _, home = await ask(running, "hc", "NYC")
    sign = f"• Check the scoresheet of {LABEL} and sign it — **Sign scoresheet** on the scoreboard"
    assert due_lines(home) == [sign]
    await running.scoreboards_published()
    async with running.db.reading() as session:
        match = await session.get(Match, league.match)
        assert match is not None and match.scoreboard_message_id is not None
    signed = await running.emulator.click(match.scoreboard_message_id, f"match:sign:{league.match}", as_member="hc")
    assert "signed the scoresheet" in signed.text()
    _, after = await ask(running, "hc", "NYC")
    _, away = await ask(running, "ac", "NYC")
    assert due_lines(after) == [] and due_lines(away) == [sign]


async def test_captains_are_reminded_of_the_roster_cutoff_on_match_day(seeded: tuple[RunningBot, Seeded]) -> None:
    """TEAM-ROSTER-7: changes for tonight must be in by 16:00 league time; only the captains of tonight's teams are
    told, and only before the cutoff."""
    running, league = seeded
    next_week = MATCH_DAY + timedelta(days=7)
    await _more_matches(running, league, 1, next_week)
    clock = running.bot.clock
    assert isinstance(clock, ManualClock)
    clock.set(datetime.combine(next_week, time(14, 0), tzinfo=NEW_YORK))
    cutoff = "• Roster changes for tonight close at 16:00 — `/roster add` · `/roster drop`"
    _, captain = await ask(running, "hc", "NYC")
    assert due_lines(captain)[0] == cutoff
    assert f"• Check in for tonight's match, {LABEL} — `/checkin`" in due_lines(captain)
    _, player = await ask(running, "hp2", "NYC")
    _, other_team = await ask(running, "oc", "NYC")
    assert cutoff not in due_lines(player) and cutoff not in due_lines(other_team)
    clock.set(datetime.combine(next_week, time(16, 1), tzinfo=NEW_YORK))
    _, late = await ask(running, "hc", "NYC")
    assert cutoff not in due_lines(late)


async def test_a_member_not_in_the_league(seeded: tuple[RunningBot, Seeded]) -> None:
    running, _ = seeded
    several = await running.run("/help", as_member="carol")
    assert several.ephemeral and several.content.startswith("⛔ This server runs several leagues")
    assert "pick one with `league:`" in several.content
    _, embed = await ask(running, "carol", "NYC")
    assert "not a player of this league yet" in embed["description"]
    assert field_names(embed)[0] == "To get started" and "Every command" in field_names(embed)


async def test_a_ladder_player_mid_night(seeded: tuple[RunningBot, Seeded]) -> None:
    """LADDER-SCORE-1: the games awaiting the player's scores; LADDER-AMB-5: a tie waiting for its playoff."""
    running, league = seeded
    night = league.ladder
    _, embed = await ask(running, night.concerned, night.league)
    lines = due_lines(embed)
    assert "playing in Season 1's ladder" in embed["description"]
    assert (
        "• Your score for game 1 (Attack from Mars) — **Enter scores** on the group's board · `/ladder score game:1`"
        in lines
    )
    tie = "• Ld1 and Ld2 are level in game 2 (Black Knight): enter the one-ball playoff's winner — `/ladder tiebreak`"
    assert tie in lines
    assert not any("game 2 (Black Knight) —" in line for line in lines)  # scored already
    assert "How a night goes" in field_names(embed) and "`/ladder score`" in field_value(embed, "As a player")
    _, official = await ask(running, "alice", night.league)
    assert "• Close week 1's night once every group has played — `/ladder night close`" in due_lines(official)


async def test_a_field_player_mid_night(seeded: tuple[RunningBot, Seeded]) -> None:
    """FIELD-SCORE-3: a tie awaiting its one-ball playoff; FIELD-SCORE-4: a correction awaiting the group's votes."""
    running, league = seeded
    night = league.field_league
    _, concerned = await ask(running, night.concerned, night.league)
    lines = due_lines(concerned)
    assert any(line.startswith("• Your scores still to enter: ") and "`/field score`" in line for line in lines)
    assert any(line.startswith("• You are tied on ") and "`/field tiebreak`" in line for line in lines)
    _, groupmate = await ask(running, night.groupmate, night.league)
    vote = f"`/field confirm correction:{night.correction}`"
    assert any(f"Correction #{night.correction}" in line and vote in line for line in due_lines(groupmate))
    _, official = await ask(running, "alice", night.league)
    assert any("are tied on" in line and "`/field tiebreak`" in line for line in due_lines(official))
    assert "• Close week 1's night once every score is in — `/field night close`" in due_lines(official)


async def test_a_large_league_stays_within_discord_limits(seeded: tuple[RunningBot, Seeded]) -> None:
    """Hundreds of disputes to rule: the emulator refuses an embed over Discord's limits, so a reply at all is
    the check; the items that do not fit are counted."""
    running, league = seeded
    await _raise_disputes(running, league, matches=40, per_match=5)
    _, embed = await ask(running, "alice", "NYC")
    assert len(embed["description"]) <= 4096 and len(embed.get("fields", [])) <= 25
    shown = [line for line in due_lines(embed) if "`/match ruling`" in line]
    assert 10 <= len(shown) < 200 and embed["description"].endswith(f"…and {200 - len(shown)} more")


async def _away_declares_round_one(running: RunningBot, league: Seeded) -> None:
    """Four players of each team check in; Tilt Warriors (AWAY) declare round 1 and pick its machines."""
    for member in ("hc", "hp2", "hp3", "hp4", "ac", "ap2", "ap3", "ap4"):
        await ok(running, f"/checkin match:{league.match}", member)
    machines = f"m1:{league.machines[0]} m2:{league.machines[1]}"
    await ok(running, f"/lineup match:{league.match} p1:AC p2:AP2 p3:AP3 p4:AP4 {machines}", "ac")


async def _enter_and_confirm(running: RunningBot, match: int, round_index: int, game: int, *, players: int) -> None:
    """HOME's captain enters a game HOME wins; AWAY's captain confirms it (COMMON-SCORE-1)."""
    scores = [f"home{n}:2,000,000 away{n}:1,000,000" for n in range(1, players + 1)]
    line = f"/score match:{match} round:{round_index} game:{game} {' '.join(scores)}"
    entered = await running.run(line, as_member="hc")
    assert entered.content.startswith("📝"), entered.text()
    confirmed = await running.emulator.click(entered, f"score:confirm:{match}:{round_index}:{game}", as_member="ac")
    assert "confirmed by" in confirmed.text(), confirmed.text()


async def _more_matches(running: RunningBot, league: Seeded, count: int, on: date) -> list[int]:
    """`count` more matches between the seeded match's teams on `on`, written as the schedule writes them."""
    async with running.db.writing() as session:
        seeded = await session.get(Match, league.match)
        assert seeded is not None
        rows = [
            Match(
                league_id=seeded.league_id,
                season_id=seeded.season_id,
                week=1 + (on - MATCH_DAY).days // 7,
                play_on=on,
                home_team_id=seeded.home_team_id,
                away_team_id=seeded.away_team_id,
                venue_id=seeded.venue_id,
            )
            for _ in range(count)
        ]
        session.add_all(rows)
        await session.flush()
        return [row.id or 0 for row in rows]


async def _raise_disputes(running: RunningBot, league: Seeded, *, matches: int, per_match: int) -> None:
    """`matches` matches tonight (the seeded one and more), each with `per_match` open disputes (TEAM-DISP-1)."""
    ids = [league.match, *await _more_matches(running, league, matches - 1, MATCH_DAY)]
    raised = datetime(2027, 3, 3, 23, 0, tzinfo=UTC)
    async with running.db.writing() as session:
        session.add_all(
            MatchChallenge(match_id=match, side="home", reason=f"Misread ({n})", raised_by=1, raised_at=raised)
            for match in ids
            for n in range(per_match)
        )
