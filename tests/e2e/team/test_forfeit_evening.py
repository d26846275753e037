"""An attendance forfeit from the attending team's side: its points, and the evening it may still play."""

from __future__ import annotations

from bot.clock import ManualClock
from bot.rules.team.model import Side
from tests.e2e.team_night import AWAY, HOME, Night, at, match_points


async def forfeit_by_away(night: Night, home_present: int) -> None:
    """Flipper Kings come with `home_present`, Tilt Warriors with two; no extension, so the window closes."""
    clock = night.league.bot.clock
    assert isinstance(clock, ManualClock)
    clock.set(at(19, 50))
    for name in [*HOME[:home_present], *AWAY[:2]]:
        await night.run("/checkin match:MATCH", name)
    clock.set(at(20, 16))
    await night.run("/match extension match:MATCH agreed:false", "alice")


async def test_a_team_of_three_cannot_claim_the_played_out_bonus(night: Night) -> None:
    """TEAM-AMB-25: Flipper Kings attended with three, so they win the forfeit with 9 match points; their claim
    to have played out the evening is refused, names the rule and leaves the 9 as they were."""
    await forfeit_by_away(night, home_present=3)
    assert await match_points(night) == {Side.HOME: 9, Side.AWAY: 0}
    before = await night.league.digest()
    claim = await night.league.run(f"/match played-out match:{night.match_id}", as_member="h1")
    assert claim.ephemeral and "Rule TEAM-AMB-25" in claim.content, claim.content
    assert "Flipper Kings attended with 3 players" in claim.content, claim.content
    assert "needs at least 4" in claim.content, claim.content
    assert await night.league.digest() == before
    assert await match_points(night) == {Side.HOME: 9, Side.AWAY: 0}
