"""Commissioners record a match's new date or venue from Discord: /schedule reschedule (TEAM-VENUE-3) and
/schedule move (TEAM-VENUE-2), which set the match's state (TEAM-CFG-3), keep one match a week per team
(TEAM-SCHED-1), leave the reason in the audit log, and refuse without changing anything."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from sqlmodel import select

from bot.rules.team.model import Side
from storage.matches import Match, MatchState
from storage.models import AuditEntry, Venue
from tests.e2e.harness import RunningBot
from tests.e2e.season import NEW_YORK, START, Facts, between, refused, stored_matches, teams_by_name

GENERATE = "/schedule generate weeks:4 start:2027-03-01"


def week_start(week: int) -> date:
    return START + timedelta(weeks=week - 1)


async def reload(league: RunningBot, match: Match) -> Match:
    async with league.db.reading() as session:
        stored = await session.get(Match, match.id)
    assert stored is not None
    return stored


MATCH_CHANGES = ("update", "match_rescheduled", "match_moved")  # audit actions of a match's date or venue


async def match_audit(league: RunningBot, match: Match) -> list[AuditEntry]:
    return [
        e for e in await league.audit() if e.entity == "match" and e.entity_id == match.id and e.action in MATCH_CHANGES
    ]


async def refused_unchanged(
    league: RunningBot, match: Match, line: str, *, as_member: str, rule: str | None, message: str
) -> None:
    """`refused`, and the match row itself is as it was."""
    before = await reload(league, match)
    await refused(league, line, as_member=as_member, rule=rule, message=message)
    assert await reload(league, match) == before


async def test_reschedule_records_the_agreed_date(season_league: RunningBot) -> None:
    """TEAM-VENUE-3: a new date needs both captains' agreement (`agreed:true`); the state becomes RESCHEDULED
    (TEAM-CFG-3, TEAM-TV-8 (c): all machines dead, same bar, new date, no result yet), reported publicly and
    audited with before/after and the reason. Refused: non-commissioners (COMMON-ROLE-1), `agreed:false`, a
    past date, a week where either team already plays (TEAM-SCHED-1), and a final match."""
    league = season_league
    await league.run(GENERATE, as_member="alice")
    matches, teams = await stored_matches(league), await teams_by_name(league)
    kb = between(matches, teams, "Flipper Kings", "Ball Busters")
    week = kb.week
    league.bot.clock.set(datetime.combine(kb.play_on, time(21), tzinfo=NEW_YORK))  # type: ignore[attr-defined]
    friday = week_start(week) + timedelta(days=4)
    line = f'/schedule reschedule match:{kb.id} date:{friday} agreed:true reason:"All machines dead (TEAM-MACH-4)"'

    await refused_unchanged(league, kb, line, as_member="fk1", rule="COMMON-ROLE-1", message="Only commissioners")
    await refused_unchanged(
        league,
        kb,
        line.replace("agreed:true", "agreed:false"),
        as_member="alice",
        rule="TEAM-VENUE-3",
        message="needs both captains' agreement",
    )
    yesterday = kb.play_on - timedelta(days=1)
    await refused_unchanged(
        league, kb, line.replace(str(friday), str(yesterday)), as_member="alice", rule=None, message="in the past"
    )
    await refused_unchanged(
        league, kb, line.replace(str(friday), "next friday"), as_member="alice", rule=None, message="is not a date"
    )
    clash_week = week + 1 if week < 4 else week - 1
    clash_day = week_start(clash_week) + timedelta(days=5)  # a Saturday: nobody's evening, still that week
    by_id = {team.id: name for name, team in teams.items()}

    def playing(team: str) -> str:
        other = next(m for m in matches if m.week == clash_week and teams[team].id in (m.home_team_id, m.away_team_id))
        opponent = by_id[other.away_team_id if other.home_team_id == teams[team].id else other.home_team_id]
        return f"{team} already plays {opponent} on {other.play_on:%a %Y-%m-%d}"

    await refused_unchanged(
        league,
        kb,
        line.replace(str(friday), str(clash_day)),
        as_member="alice",
        rule="TEAM-SCHED-1",
        message=f"{playing('Ball Busters')} and {playing('Flipper Kings')}, in week {clash_week}",
    )

    accepted = await league.run(line, as_member="alice")
    assert not accepted.ephemeral, accepted.content
    assert "Match rescheduled" in accepted.text()
    assert f"to **{friday:%a %Y-%m-%d}** (week {week})" in accepted.text()
    assert "All machines dead (TEAM-MACH-4)" in accepted.text()
    moved = await reload(league, kb)
    assert (moved.play_on, moved.week, moved.state) == (friday, week, MatchState.RESCHEDULED)
    assert moved.venue_id == kb.venue_id  # the regular bar (TEAM-VENUE-3 after a machine failure)
    [entry] = await match_audit(league, kb)
    assert entry.command == "/schedule reschedule" and entry.reason is not None
    assert entry.reason.startswith("Both captains agreed") and "All machines dead" in entry.reason
    assert entry.before is not None and entry.after is not None
    assert (entry.before["play_on"], entry.before["state"]) == (kb.play_on.isoformat(), "scheduled")
    assert (entry.after["play_on"], entry.after["state"]) == (friday.isoformat(), "rescheduled")

    shown = await league.run(f"/schedule show week:{week}", as_member="fk2")
    assert f"{friday:%a %m-%d} · " in shown.text() and "· rescheduled" in shown.text(), shown.text()

    after_season = week_start(5) + timedelta(days=3)  # no team plays in week 5
    later = await league.run(
        f"/schedule reschedule match:{kb.id} date:{after_season} agreed:true reason:Bar closed", as_member="alice"
    )
    assert "(week 5)" in later.text(), later.content
    assert (await reload(league, kb)).week == 5

    other = between(matches, teams, "Tilt Warriors", "Drain Masters")
    facts = await Facts.load(league)
    await facts.venue_forfeit(other, Side.HOME)
    await refused_unchanged(
        league,
        other,
        f"/schedule reschedule match:{other.id} date:{after_season} agreed:true reason:late",
        as_member="alice",
        rule="TEAM-CFG-3",
        message="is final (12–0), so it cannot be rescheduled",
    )
    await refused(
        league,
        f"/schedule reschedule match:99999 date:{after_season} agreed:true reason:late",
        as_member="alice",
        rule=None,
        message="NYC has no match #99999",
    )


async def test_move_records_homes_choice_of_venue(season_league: RunningBot) -> None:
    """TEAM-VENUE-2: HOME's choice of a regular league venue, or another with a recorded justification; the
    state becomes MOVED (TEAM-CFG-3) and the reason is kept (TEAM-VENUE-1). Refused: non-commissioners
    (COMMON-ROLE-1), an unknown venue, the venue it is already at, a non-regular venue without a
    justification, and a final match."""
    league = season_league
    await league.run(GENERATE, as_member="alice")
    await league.run('/venue add name:"Pinball Hall"', as_member="alice")
    async with league.db.writing() as session:  # no command marks a venue as not a regular league venue yet
        hall = (await session.exec(select(Venue).where(Venue.name == "Pinball Hall"))).one()
        hall.regular_league_venue = False
        session.add(hall)
        venues = {v.name: v.id for v in (await session.exec(select(Venue))).all()}
    matches, teams = await stored_matches(league), await teams_by_name(league)
    west = between(matches, teams, "Spinners", "Rollovers", week=2)
    home_venue = next(name for name, venue_id in venues.items() if venue_id == west.venue_id)
    target = "Ace Arcade"  # neither West team's home
    line = f'/schedule move match:{west.id} venue:"{target}" reason:"Venue closed for a private party"'

    await refused_unchanged(league, west, line, as_member="sp1", rule="COMMON-ROLE-1", message="Only commissioners")
    await refused_unchanged(
        league,
        west,
        line.replace(target, "Nowhere Bar"),
        as_member="alice",
        rule=None,
        message="no venue named 'Nowhere Bar'",
    )
    await refused_unchanged(
        league, west, line.replace(target, home_venue), as_member="alice", rule=None, message="already at"
    )
    await refused_unchanged(
        league,
        west,
        line.replace(target, "Pinball Hall"),
        as_member="alice",
        rule="TEAM-VENUE-2",
        message="Pinball Hall is not a regular league venue",
    )

    accepted = await league.run(line, as_member="alice")
    assert not accepted.ephemeral and "Match moved" in accepted.text(), accepted.content
    assert f"moves from {home_venue} to **{target}**" in accepted.text()
    stored = await reload(league, west)
    assert (stored.venue_id, stored.state, stored.play_on) == (venues[target], MatchState.MOVED, west.play_on)
    [entry] = await match_audit(league, west)
    assert entry.command == "/schedule move" and entry.reason == "Venue closed for a private party"
    assert entry.before is not None and entry.after is not None
    assert (entry.before["venue_id"], entry.after["venue_id"]) == (west.venue_id, venues[target])
    shown = await league.run("/schedule show week:2", as_member="sp2")
    moved_line = next(text for text in shown.text().splitlines() if "Spinners" in text)
    assert f"· {target}" in moved_line and "· moved" in moved_line, moved_line

    justified = await league.run(
        f'/schedule move match:{west.id} venue:"Pinball Hall" reason:"Ace Arcade flooded" '
        'justification:"Every regular venue is booked that night"',
        as_member="alice",
    )
    assert "to **Pinball Hall**" in justified.text(), justified.content
    assert (await reload(league, west)).venue_id == venues["Pinball Hall"]
    assert (await match_audit(league, west))[-1].reason == (
        "Ace Arcade flooded Not a regular league venue: Every regular venue is booked that night"
    )

    facts = await Facts.load(league)
    await facts.venue_forfeit(west, Side.AWAY)
    await refused_unchanged(
        league, west, line, as_member="alice", rule="TEAM-CFG-3", message="is final (0–12), so it cannot be moved"
    )
