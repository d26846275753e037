"""/standings reuses a season's results while nothing changed, and never shows a stale table: a change made
through this process, or an audited change made by another process, is in the next /standings. Final results
are stored once computed; a commissioner's override of a final match is in the next /standings all the same."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from sqlalchemy import event
from sqlmodel import select

from bot.rules.team.model import Side
from storage.db import Database
from storage.models import AuditEntry
from storage.results import MatchFinalResult
from tests.e2e.harness import RunningBot
from tests.e2e.season import NEW_YORK, Facts, stored_matches, teams_by_name


async def standings_after_generating(league: RunningBot) -> str:
    await league.run("/schedule generate weeks:3 start:2027-03-01", as_member="alice")
    league.bot.clock.set(datetime(2027, 3, 22, 9, 0, tzinfo=NEW_YORK))  # type: ignore[attr-defined]
    return (await league.run("/standings", as_member="fk3")).text()


async def test_unchanged_standings_are_not_recomputed(season_league: RunningBot) -> None:
    """TEAM-STAND-1: the second /standings of the same minute reads no match facts."""
    league = season_league
    first = await standings_after_generating(league)
    statements: list[str] = []
    event.listen(league.db.engine.sync_engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    second = (await league.run("/standings", as_member="fk3")).text()
    assert second == first
    assert not [s for s in statements if "game_score" in s], statements


async def test_a_change_in_this_process_shows_at_once(season_league: RunningBot) -> None:
    """TEAM-STAND-1: a match becoming final between two /standings in the same minute is in the second."""
    league = season_league
    assert "0 of 9 regular-season matches final" in await standings_after_generating(league)
    facts = await Facts.load(league)
    await facts.venue_forfeit((await stored_matches(league))[0], Side.HOME)
    assert "1 of 9 regular-season matches final" in (await league.run("/standings", as_member="fk3")).text()


async def test_an_audited_change_by_another_process_shows_at_once(season_league: RunningBot) -> None:
    """TEAM-STAND-1: another process (its own Database) records a forfeit and its audit entry."""
    league = season_league
    assert "0 of 9 regular-season matches final" in await standings_after_generating(league)
    other = Database(league.db.url.render_as_string(hide_password=False))
    try:
        match = (await stored_matches(league))[0]
        async with other.writing() as session:
            match.venue_forfeit = Side.HOME
            session.add(match)
            session.add(
                AuditEntry(guild_id=1, actor_id=1, command="/match forfeit", action="update", entity="match",
                           entity_id=match.id, at=datetime.now(UTC))
            )  # fmt: skip
    finally:
        await other.dispose()
    assert "1 of 9 regular-season matches final" in (await league.run("/standings", as_member="fk3")).text()


async def test_an_override_of_a_stored_final_result_shows_at_once(season_league: RunningBot) -> None:
    """TEAM-STAND-1, COMMON-SCORE-3: /standings stores a final result; the commissioner's venue-forfeit override
    of that match makes the stored copy stale, and the next /standings (another minute: computed again) shows
    the new winner and stores the new result."""
    league = season_league
    await standings_after_generating(league)
    match = (await stored_matches(league))[0]
    await (await Facts.load(league)).played(match, "H" * 12)
    league.bot.clock.set(datetime(2027, 3, 22, 9, 5, tzinfo=NEW_YORK))  # type: ignore[attr-defined]
    assert "1 of 9 regular-season matches final" in (await league.run("/standings", as_member="fk3")).text()
    async with league.db.reading() as session:
        before = (await session.exec(select(MatchFinalResult))).one()
    assert (before.match_id, before.home_points, before.away_points) == (match.id, 16, 0)

    forfeit = f'/admin override forfeit match:{match.id} side:home reason:"Played at an unapproved venue"'
    assert "forfeiting team: none → home" in (await league.run(forfeit, as_member="alice")).text()
    league.bot.clock.set(datetime(2027, 3, 22, 9, 6, tzinfo=NEW_YORK))  # type: ignore[attr-defined]
    table = (await league.run("/standings", as_member="fk3")).text()
    assert "1 of 9 regular-season matches final" in table
    away = next(team.name for team in (await teams_by_name(league)).values() if team.id == match.away_team_id)
    assert re.search(rf"1\s+{away}\s+1-0", table), table
    async with league.db.reading() as session:
        after = (await session.exec(select(MatchFinalResult))).one()
    assert (after.home_points, after.away_points) == (0, 12) and after.facts_version > before.facts_version
