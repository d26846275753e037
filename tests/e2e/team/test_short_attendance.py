"""TEAM-SCHED-4: a team that repeatedly begins its matches with fewer than 4 players is flagged to the commissioner."""

from __future__ import annotations

from datetime import datetime, time

from bot.clock import ManualClock
from tests.e2e.harness import RunningBot
from tests.e2e.season import NEW_YORK, Facts, between, side_of, stored_matches, teams_by_name


async def test_two_short_matches_flag_the_team_team_sched_4(season_league: RunningBot) -> None:
    """TEAM-SCHED-4 (`short_attendance_flag` = 2): Rollovers do not come in week 1, and the flag waits; nor in
    week 2, and once that match's window has closed `/admin history team:` flags them; Spinners, who came, are
    not flagged."""
    league = season_league
    clock = league.bot.clock
    assert isinstance(clock, ManualClock)
    await league.run("/schedule generate weeks:2 start:2027-03-01", as_member="alice")
    teams, matches, facts = await teams_by_name(league), await stored_matches(league), await Facts.load(league)
    first, second = (between(matches, teams, "Spinners", "Rollovers", week=week) for week in (1, 2))
    for match in (first, second):
        await facts.attendance_forfeit(match, side_of(match, teams["Spinners"]))

    clock.set(datetime.combine(second.play_on, time(19, 0), tzinfo=NEW_YORK))  # week 2's window still open
    once = await league.run('/admin history team:"Rollovers"', as_member="alice")
    assert "TEAM-SCHED-4" not in once.text(), once.text()
    clock.set(datetime.combine(second.play_on, time(23, 0), tzinfo=NEW_YORK))
    flagged = await league.run('/admin history team:"Rollovers"', as_member="alice")
    assert "2 matches this season begun with fewer than 4 players" in flagged.text(), flagged.text()
    assert "(flagged after week 2)" in flagged.text(), flagged.text()  # the match that reached the threshold
    assert "(TEAM-SCHED-4)" in flagged.text() and flagged.ephemeral
    came = await league.run('/admin history team:"Spinners"', as_member="alice")
    assert "TEAM-SCHED-4" not in came.text(), came.text()
