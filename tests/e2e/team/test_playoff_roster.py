"""TEAM-PO-2: the playoff roster is the roster in force in the last regular-season week, checked when a captain
declares a playoff lineup in Discord."""

from __future__ import annotations

from datetime import date, datetime

from sqlmodel import select

from bot.clock import ManualClock
from bot.rules.team.model import Side
from storage.matches import GameScore, Match, MatchKind
from storage.models import Player, RosterEntry
from tests.e2e.team_night import AWAY, NEW_YORK, Night, at


async def test_a_player_off_the_roster_in_the_last_regular_week_is_refused_team_po_2(night: Night) -> None:
    """TEAM-PO-2 (with TEAM-PO-3): H6 played a regular-season game but was off the roster in the last regular
    week (week 1, 2027-03-03) and back on it for the semifinal: the lineup is refused naming TEAM-PO-2, not
    TEAM-PO-3; H5, on the roster but without a regular-season game, is refused under TEAM-PO-3."""
    async with night.league.db.writing() as session:
        regular = await session.get(Match, night.match_id)
        assert regular is not None
        players = {p.display_name: p.id or 0 for p in (await session.exec(select(Player))).all()}
        for round_index, name in enumerate(["H1", "H2", "H3", "H6", "A1", "A2", "A3", "A4"], start=1):
            side = Side.HOME if name.startswith("H") else Side.AWAY
            session.add(
                GameScore(
                    match_id=night.match_id, round_index=round_index, game_number=1, side=side,
                    player_id=players[name], score=1_000_000, entered_by=1, entered_at=at(21),
                )
            )  # fmt: skip
        h6 = (await session.exec(select(RosterEntry).where(RosterEntry.player_id == players["H6"]))).one()
        h6.ends_on = date(2027, 3, 2)  # off the roster the day before the last regular-season match…
        session.add(h6)
        session.add(
            RosterEntry(
                league_id=h6.league_id, season_id=h6.season_id, team_id=h6.team_id, player_id=h6.player_id,
                role=h6.role, starts_on=date(2027, 3, 5),
            )
        )  # fmt: skip  # … and back on it after the regular season, before the playoffs
        semifinal = Match(
            league_id=regular.league_id, season_id=regular.season_id, week=2, play_on=date(2027, 3, 10),
            home_team_id=regular.home_team_id, away_team_id=regular.away_team_id, venue_id=regular.venue_id,
            kind=MatchKind.PLAYOFF, bracket_match="W1-1",
        )  # fmt: skip
        session.add(semifinal)
        await session.flush()
        semifinal_id = semifinal.id or 0
    clock = night.league.bot.clock
    assert isinstance(clock, ManualClock)
    clock.set(datetime(2027, 3, 10, 19, 50, tzinfo=NEW_YORK))
    for name in ["h1", "h2", "h3", "h5", "h6", *AWAY[:4]]:
        await night.league.run(f"/checkin match:{semifinal_id}", as_member=name)
    clock.set(datetime(2027, 3, 10, 20, 1, tzinfo=NEW_YORK))
    m1, m2, _ = night.machines
    await night.league.run(f"/lineup match:{semifinal_id} p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", as_member="a1")
    off_roster = await night.league.run(f"/lineup match:{semifinal_id} p1:H1 p2:H2 p3:H3 p4:H6", as_member="h1")
    assert off_roster.ephemeral and "Rule TEAM-PO-2" in off_roster.content, off_roster.content
    assert "H6 is not on the playoff roster (last regular-season week)" in off_roster.content
    assert "only players on the roster of Flipper Kings in the last regular-season week" in off_roster.content
    unplayed = await night.league.run(f"/lineup match:{semifinal_id} p1:H1 p2:H2 p3:H3 p4:H5", as_member="h1")
    assert "Rule TEAM-PO-3" in unplayed.content and "H5 did not play in the regular season for Flipper Kings" in (
        unplayed.content
    )
