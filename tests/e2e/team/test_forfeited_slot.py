"""The Singles game a short team forfeits, seen from the full team that still names a player for it."""

from __future__ import annotations

from bot.rules.team.model import Side
from tests.e2e.team_night import Night, checked_in, enter_and_confirm, match_points, scoreboard


async def short_away_through_round_2(night: Night, *home: str) -> None:
    """Tilt Warriors come with three against `home`; both Doubles rounds are declared, played and confirmed."""
    await checked_in(night, *home, "a1", "a2", "a3")
    m1, m2, _ = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 m1:{m1} m2:{m2}", "a1")
    assert "declared round 1" in await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    await enter_and_confirm(night, 1, 1, ("3", "3"), ("1", "1"))
    await enter_and_confirm(night, 1, 2, ("7", "6"), ("1",))
    assert "declared round 2" in await night.run(f"/lineup match:MATCH p1:H1 p2:H3 p3:H2 p4:H4 m1:{m1} m2:{m2}", "h1")
    assert "declared round 2" in await night.run("/lineup match:MATCH p1:A2 p2:A3 p3:A1", "a1")
    await enter_and_confirm(night, 2, 1, ("3", "3"), ("1", "1"))
    await enter_and_confirm(night, 2, 2, ("1", "1"), ("3",))


async def test_a_short_second_declarer_marks_the_game_with_no_opponent(night: Night) -> None:
    """TEAM-AMB-6: in round 4 Flipper Kings declare first, so short Tilt Warriors mark which of their four games
    has no opponent by leaving it empty; Flipper Kings' player there takes the point without playing."""
    await short_away_through_round_2(night, "h1", "h2", "h3", "h4")
    m1, m2, m3 = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 m1:{m1} m2:{m2} m3:{m3}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    for game in (1, 2, 3):
        await enter_and_confirm(night, 3, game, ("1",), ("2",))

    three_players = await night.run(f"/lineup match:MATCH p1:H4 p2:H3 p4:H1 m1:{m1} m2:{m2} m3:{m3} m4:{m1}", "h1")
    assert "TEAM-LINEUP-8" in three_players and "Name one player for each of the 4 Singles games" in three_players
    await night.run(f"/lineup match:MATCH p1:H4 p2:H3 p3:H2 p4:H1 m1:{m1} m2:{m2} m3:{m3} m4:{m1}", "h1")
    before = await match_points(night)
    assert "declared round 4" in await night.run("/lineup match:MATCH p1:A1 p3:A2 p4:A3", "a1")
    assert await match_points(night) == {Side.HOME: before[Side.HOME] + 1, Side.AWAY: before[Side.AWAY]}
    started = await night.run("/match start match:MATCH round:4 game:2", "h1")
    assert "TEAM-SHORT-5" in started and "Game 2 of round 4 is forfeited; there is nothing to play" in started
    board_lines = (await scoreboard(night)).text().splitlines()
    assert any("H3" in line and "(forfeit)" in line and "Flipper Kings +1" in line for line in board_lines), board_lines


async def test_a_slot_facing_a_forfeit_is_not_play_for_minimum_play(night: Night) -> None:
    """TEAM-AMB-6, TEAM-LINEUP-9: H5 sits in the round-3 game Tilt Warriors forfeit, so H5 has still not played.
    In round 4 Flipper Kings must then play both H5 and H6; leaving H5 out for a starter who has played is
    refused."""
    await short_away_through_round_2(night, "h1", "h2", "h3", "h4", "h5", "h6")
    m1, m2, m3 = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p3:A2 p4:A3 m1:{m1} m3:{m2} m4:{m3}", "a1")
    assert "declared round 3" in await night.run("/lineup match:MATCH p1:H1 p2:H5 p3:H2 p4:H3", "h1")
    for game in (1, 3, 4):
        await enter_and_confirm(night, 3, game, ("1",), ("2",))

    without_h5 = await night.run(f"/lineup match:MATCH p1:H6 p2:H1 p3:H2 p4:H3 m1:{m1} m2:{m2} m3:{m3} m4:{m1}", "h1")
    assert "TEAM-LINEUP-9" in without_h5, without_h5
    assert "1 present starters still need to play but only 0 slots remain" in without_h5, without_h5
    assert "(H5)" in without_h5, without_h5
    lineup = f"/lineup match:MATCH p1:H6 p2:H5 p3:H2 p4:H3 m1:{m1} m2:{m2} m3:{m3} m4:{m1}"
    assert "declared round 4" in await night.run(lineup, "h1")
