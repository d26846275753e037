"""A lineup that breaks several rules is refused naming every one of them, through `/lineup` (issue 16)."""

from __future__ import annotations

from tests.e2e.team_night import Night, at, four_each_checked_in


async def test_a_lineup_breaking_two_rules_names_both_team_lineup_5_team_lineup_7(night: Night) -> None:
    """TEAM-LINEUP-5 and TEAM-LINEUP-7: A1 twice and A5 (not checked in) in one lineup; the reply names both
    rules with their players, privately, and nothing is stored; the fixed lineup is then accepted."""
    await four_each_checked_in(night)
    m1, m2, _ = night.machines
    before = await night.league.row_counts()
    line = f"/lineup match:{night.match_id} p1:A1 p2:A1 p3:A3 p4:A5 m1:{m1} m2:{m2}"
    refused = await night.league.run(line, as_member="a1")
    assert refused.ephemeral, refused.content
    assert "breaks 2 rules" in refused.content, refused.content
    assert "TEAM-LINEUP-5: A1 is already in this round" in refused.content, refused.content
    assert "TEAM-LINEUP-7: A5 is not checked in" in refused.content, refused.content
    assert await night.league.row_counts() == before
    accepted = await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    assert "declared round 1" in accepted, accepted


async def test_present_starters_must_play_before_the_slots_run_out_team_lineup_9(night: Night) -> None:
    """H5, a starter until Monday, is a reserve from Tuesday; H6 is a starter who must play on Wednesday. H7 would
    have to play too, but leaves before being written in. Round 4 without H6 is refused."""
    night.league.emulator.add_member("h7")  # one more starter, so the team keeps six when H5 becomes a reserve
    added = await night.run(
        '/roster add team:"Flipper Kings" member:@h7 role:starter adult:true effective:2027-03-01', "alice"
    )
    assert "H7" in added, added
    changed = await night.run('/roster role team:"Flipper Kings" member:@h5 role:reserve effective:2027-03-02', "alice")
    assert "reserve" in changed and "⛔" not in changed, changed
    clock = night.league.bot.clock
    night.league.bot.clock.set(at(19, 50))  # type: ignore[attr-defined]
    for name in ("h1", "h2", "h3", "h4", "h5", "h6", "h7", "a1", "a2", "a3", "a4"):
        await night.run("/checkin match:MATCH", name)
    clock.set(at(20, 1))  # type: ignore[attr-defined]
    m1, m2, m3 = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    clock.set(at(20, 20))  # type: ignore[attr-defined]
    left = await night.run("/checkin match:MATCH leaving:true", "h7")
    # TEAM-SCHED-5: H7 leaves before being written in: no penalty, and H7 is no longer owed a slot.
    assert "H7 is checked out" in left and "DQ" not in left, left
    await night.run(f"/lineup match:MATCH p1:H1 p2:H3 p3:H2 p4:H4 m1:{m1} m2:{m3}", "h1")
    await night.run("/lineup match:MATCH p1:A1 p2:A3 p3:A2 p4:A4", "a1")
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m1} m3:{m2} m4:{m3}", "a1")
    assert "declared round 3" in await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    line = f"/lineup match:MATCH p1:H4 p2:H3 p3:H2 p4:H1 m1:{m2} m2:{m2} m3:{m3} m4:{m1}"
    refused = await night.run(line, "h1")
    # TEAM-LINEUP-9, TEAM-ROSTER-4: H6, a starter on the match date, has not played and round 4 is the last
    # chance; H5 (a reserve that day) and H7 (gone, TEAM-SCHED-5) are not counted.
    assert "TEAM-LINEUP-9" in refused and "1 present starters still need to play but only 0 slots remain" in refused
    assert "(H6)" in refused, refused
    accepted = await night.run(line.replace("p4:H1", "p4:H6"), "h1")
    assert "declared round 4" in accepted, accepted
