"""A team short of players on match night, as captains meet it in Discord: Doubles with one player alone, the
Singles game a short team forfeits, and a late fourth player (TEAM-SHORT-1..6, TEAM-AMB-5, -7, -23)."""

from __future__ import annotations

from sqlmodel import col, select

from bot.rules.team.model import Side
from bot.services.team import match_facts
from storage.matches import Match
from storage.models import League, Machine
from tests.e2e.team_night import Night, at, checked_in, enter_and_confirm, match_points, scoreboard


async def test_a_short_team_plays_one_alone_and_forfeits_a_singles_game(night: Night) -> None:
    """Tilt Warriors come with three. A3 plays alone against H3 and H4 on a 2-player machine and loses to the
    pair's sum; A3 may not play alone again; in round 3 they forfeit a Singles game; A4 arrives, and round 4
    needs all four."""
    await checked_in(night, "h1", "h2", "h3", "h4", "a1", "a2", "a3")
    m1, m2, m3 = night.machines
    added = await night.run('/machine add venue:"Ace Arcade" model:"Bride of Pinbot" players:2', "alice")
    assert "Bride of Pinbot" in added, added
    async with night.league.db.reading() as session:
        small = (await session.exec(select(Machine.id).order_by(col(Machine.id).desc()))).first() or 0
    refused = await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A3 m1:{m1} m2:{small}", "a1")
    assert "TEAM-LINEUP-5" in refused
    two_alone = await night.run(f"/lineup match:MATCH p1:A1 p3:A3 m1:{m1} m2:{small}", "a1")
    # TEAM-SHORT-2: a short team puts a pair in one Doubles game and one player alone in the other.
    assert "TEAM-SHORT-2" in two_alone and "put a pair in one Doubles game and one player alone" in two_alone
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 m1:{m1} m2:{small}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    # TEAM-AMB-23: on a 2-player machine the 1-vs-2 game is A3 against one of the pair, then the other alone.
    board = (await scoreboard(night)).text()
    assert "played as 2 games: H3, A3; then H4" in board, board
    await enter_and_confirm(night, 1, 1, ("3", "3"), ("1", "1"))
    await enter_and_confirm(night, 1, 2, ("7,000,000", "6,000,000"), ("12,000,000",))
    # TEAM-SHORT-2: A3's 12M alone is compared with the pair's sum, 7M + 6M: 2 points to Flipper Kings.
    assert await match_points(night) == {Side.HOME: 4, Side.AWAY: 0}

    await night.run(f"/lineup match:MATCH p1:H1 p2:H3 p3:H2 p4:H4 m1:{m1} m2:{m3}", "h1")
    again = await night.run("/lineup match:MATCH p1:A1 p2:A2 p3:A3", "a1")
    # TEAM-SHORT-3: the same player may not play alone in both Doubles rounds.
    assert "TEAM-SHORT-3" in again and "A3 already played alone in a Doubles round" in again, again
    assert "declared round 2" in await night.run("/lineup match:MATCH p1:A2 p2:A3 p3:A1", "a1")
    await enter_and_confirm(night, 2, 1, ("3", "3"), ("1", "1"))
    await enter_and_confirm(night, 2, 2, ("1", "1"), ("3",))

    two_empty = await night.run(f"/lineup match:MATCH p1:A1 p2:A2 m1:{m1} m2:{m2}", "a1")
    # TEAM-SHORT-5: the short team leaves exactly one Singles game empty.
    assert "TEAM-SHORT-5" in two_empty and "leave the game you forfeit empty" in two_empty, two_empty
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 m1:{m1} m2:{m2} m3:{m3}", "a1")
    before = await match_points(night)
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    # TEAM-SHORT-5: the forfeited game 4's point goes to Flipper Kings as soon as both have declared.
    assert await match_points(night) == {Side.HOME: before[Side.HOME] + 1, Side.AWAY: before[Side.AWAY]}
    for game in (1, 2, 3):
        await enter_and_confirm(night, 3, game, ("1",), ("2",))

    night.league.bot.clock.set(at(21, 0))  # type: ignore[attr-defined]
    assert "is checked in" in await night.run("/checkin match:MATCH", "a4")
    await night.run(f"/lineup match:MATCH p1:H4 p2:H3 p3:H2 p4:H1 m1:{m1} m2:{m2} m3:{m3} m4:{m1}", "h1")
    still_short = await night.run("/lineup match:MATCH p1:A1 p2:A2 p3:A3", "a1")
    # TEAM-AMB-7: with A4 present at round 4's declaration, Tilt Warriors are no longer short: all four play.
    assert "TEAM-LINEUP-8" in still_short and "Name one player for each of the 4 Singles games" in still_short
    assert "declared round 4" in await night.run("/lineup match:MATCH p1:A4 p2:A3 p3:A2 p4:A1", "a1")


async def test_when_both_teams_are_short_each_plays_one_alone_and_they_forfeit_the_same_game(night: Night) -> None:
    """Three a side. In Doubles each team's single player faces the other's pair; in Singles both teams leave the
    same game empty, and its point goes to no one."""
    await checked_in(night, "h1", "h2", "h3", "a1", "a2", "a3")
    m1, m2, m3 = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 m1:{m1} m2:{m2}", "a1")
    solo_vs_solo = await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3", "h1")
    # TEAM-SHORT-6, TEAM-AMB-5 (default): HOME's single player goes in game 1, against AWAY's pair.
    assert "TEAM-SHORT-6" in solo_vs_solo and "your single player goes in game 1" in solo_vs_solo, solo_vs_solo
    assert "declared round 1" in await night.run("/lineup match:MATCH p1:H3 p3:H1 p4:H2", "h1")
    await enter_and_confirm(night, 1, 1, ("7",), ("4", "4"))
    await enter_and_confirm(night, 1, 2, ("6", "6"), ("13",))
    # TEAM-SHORT-2: each 1-vs-2 game goes to the higher side, solo score against the pair's sum: 7 < 4 + 4, 6 + 6 < 13.
    assert await match_points(night) == {Side.HOME: 0, Side.AWAY: 4}

    await night.run(f"/lineup match:MATCH p1:H1 p2:H3 p3:H2 m1:{m1} m2:{m3}", "h1")
    await night.run("/lineup match:MATCH p1:A1 p3:A2 p4:A3", "a1")
    await enter_and_confirm(night, 2, 1, ("1", "1"), ("3",))
    await enter_and_confirm(night, 2, 2, ("1",), ("3", "3"))

    night.league.bot.clock.set(at(20, 16))  # type: ignore[attr-defined]
    await night.run("/match extension match:MATCH agreed:false", "alice")  # the window closes: both short
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 m1:{m1} m2:{m2} m3:{m3}", "a1")
    other_game = await night.run("/lineup match:MATCH p2:H1 p3:H2 p4:H3", "h1")
    # TEAM-SHORT-6: the second declarer must leave empty the game the first one forfeited.
    assert "TEAM-SHORT-6" in other_game and "Both teams must forfeit game 4 this round" in other_game, other_game
    before = await match_points(night)
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3", "h1")
    # TEAM-SHORT-6: the game both teams forfeit is worth nothing to either, and 8 + 3 + 3 = 14 points are at stake.
    assert await match_points(night) == before
    async with night.league.db.reading() as session:
        match = await session.get(Match, night.match_id)
        assert match is not None
        context = await match_facts.context_for(session, (await session.exec(select(League))).one(), match)
        result = await match_facts.result(session, context, night.league.bot.clock.now())
    assert result.available_points == 14
