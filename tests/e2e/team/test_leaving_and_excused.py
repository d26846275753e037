"""Players who leave a team match, and starters who come too late to play, as captains meet them in Discord:
`/checkin leaving:true` (TEAM-SCHED-2), a slot left unfinished is DQ (TEAM-AMB-20), and starters with no slot
left once every round is declared are excused on the board (TEAM-AMB-12)."""

from __future__ import annotations

from bot.rules.team.model import Side
from tests.e2e.team_night import Night, at, enter_and_confirm, four_each_checked_in, match_points, scoreboard


async def test_a_starter_who_leaves_after_being_written_in_loses_the_slot_team_amb_20(night: Night) -> None:
    """TEAM-SCHED-2: players check out with a time stamp; one not checked in cannot. TEAM-AMB-20: H2 leaves
    after being written into round 1 game 1, before it is played: H2's slot is DQ, so H1's score alone counts
    for the pair and the game goes to Tilt Warriors. H3 leaves after game 2 was entered: nothing changes."""
    await four_each_checked_in(night)
    m1, m2, _ = night.machines
    absent = await night.run("/checkin match:MATCH leaving:true", "h5")
    assert "TEAM-SCHED-2" in absent and "H5 is not checked in, so cannot check out" in absent
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    await enter_and_confirm(night, 1, 2, ("3,000,000", "3,000,000"), ("1,000,000", "1,000,000"))

    night.league.bot.clock.set(at(20, 30))  # type: ignore[attr-defined]
    left = await night.run("/checkin match:MATCH leaving:true", "h2")
    assert "H2 is checked out (TEAM-SCHED-2)" in left
    assert "Written into round 1 game 1, not finished: that slot is DQ (TEAM-AMB-20)" in left
    after_playing = await night.run("/checkin match:MATCH member:@h3 leaving:true", "h1")
    assert "H3 is checked out" in after_playing and "DQ" not in after_playing
    again = await night.run("/checkin match:MATCH leaving:true", "h2")
    assert "H2 is not checked in, so cannot check out" in again

    # Without the DQ, 5M + 20M would beat 10M + 9M; with it, H1's 5M alone loses.
    await enter_and_confirm(night, 1, 1, ("5,000,000", "20,000,000"), ("10,000,000", "9,000,000"))
    assert await match_points(night) == {Side.HOME: 2, Side.AWAY: 2}
    board = (await scoreboard(night)).text()
    assert "H1 5,000,000 + H2 DQ" in board, board


async def test_starters_with_no_slot_left_are_excused_on_the_board_team_amb_12(night: Night) -> None:
    """TEAM-AMB-12: H5, a starter, arrives once all four rounds are declared: no slot is left for H5, so the
    board records H5 as excused (no penalty). Starters who played are not listed, and nobody is before the last
    round is declared."""
    await four_each_checked_in(night)
    m1, m2, m3 = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    await night.run(f"/lineup match:MATCH p1:H1 p2:H3 p3:H2 p4:H4 m1:{m1} m2:{m3}", "h1")
    await night.run("/lineup match:MATCH p1:A1 p2:A3 p3:A2 p4:A4", "a1")
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m1} m3:{m2} m4:{m3}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    await night.run(f"/lineup match:MATCH p1:H4 p2:H3 p3:H2 p4:H1 m1:{m2} m2:{m2} m3:{m3} m4:{m1}", "h1")
    night.league.bot.clock.set(at(21, 0))  # type: ignore[attr-defined]
    assert "is checked in" in await night.run("/checkin match:MATCH", "h5")
    assert "Excused (TEAM-AMB-12)" not in (await scoreboard(night)).text()  # round 4 still open for Tilt Warriors
    declared = await night.run("/lineup match:MATCH p1:A4 p2:A3 p3:A2 p4:A1", "a1")
    assert "declared round 4" in declared, declared
    board = (await scoreboard(night)).text()
    assert "Excused (TEAM-AMB-12)" in board and "Flipper Kings: H5." in board, board
    assert "Tilt Warriors:" not in board.split("Excused (TEAM-AMB-12)")[1]
