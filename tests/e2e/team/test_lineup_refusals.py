"""A lineup that breaks several rules is refused naming every one of them, through `/lineup` (issue 16)."""

from __future__ import annotations

from tests.e2e.team_night import Night, four_each_checked_in


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
