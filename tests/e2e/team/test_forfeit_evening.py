"""An attendance forfeit from the attending team's side: its points, and the evening it may still play."""

from __future__ import annotations

from bot.clock import ManualClock
from bot.rules.team.model import Side
from tests.e2e.team_night import AWAY, HOME, Night, at, four_each_checked_in, match_points


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


async def test_forfeit_evening_games_count_for_high_scores_not_for_points(night: Night) -> None:
    """TEAM-FORF-2: Tilt Warriors forfeit; Flipper Kings' captain enters a game the four of them played that
    evening. Its scores hold the Godzilla record while the match stays a 9-point forfeit win."""
    await forfeit_by_away(night, home_present=4)
    godzilla = night.machines[0]
    entered = await night.run(
        f"/match evening-game match:MATCH machine:{godzilla} p1:H1 s1:51,234,560 p2:H2 s2:40.000.000", "h1"
    )
    assert "Forfeit-evening game 1 on Godzilla: H1 51,234,560, H2 40,000,000" in entered, entered
    assert "count for high scores, not for the match's points" in entered
    assert await match_points(night) == {Side.HOME: 9, Side.AWAY: 0}
    high = await night.run("/highscores", "h3")
    assert "**Godzilla**: 51,234,560 · H1 (week 1)" in high, high

    before = await night.league.digest()
    by_the_forfeiting_team = await night.run(f"/match evening-game match:MATCH machine:{godzilla} p1:A1 s1:9", "a1")
    assert "Flipper Kings's captain enters the forfeit-evening games" in by_the_forfeiting_team
    assert await night.league.digest() == before


async def test_every_game_of_a_forfeit_evening_counts(night: Night) -> None:
    """TEAM-HS-3: the second game on Godzilla beats the first, so H2's later score holds the record; a player
    who did not check in cannot be entered, and a score needs its player."""
    await forfeit_by_away(night, home_present=4)
    godzilla, madness, _ = night.machines
    await night.run(f"/match evening-game match:MATCH machine:{godzilla} p1:H1 s1:20,000,000 p2:H2 s2:1,000", "h1")
    second = await night.run(
        f"/match evening-game match:MATCH machine:{godzilla} p1:H2 s1:33,000,000 p2:H3 s2:5,000", "h1"
    )
    assert "Forfeit-evening game 2 on Godzilla" in second, second
    await night.run(f"/match evening-game match:MATCH machine:{madness} p1:H4 s1:7,770,000", "h1")
    high = await night.run("/highscores", "h3")
    assert "**Godzilla**: 33,000,000 · H2 (week 1)" in high, high
    assert "**Medieval Madness**: 7,770,000 · H4 (week 1)" in high, high

    before = await night.league.digest()
    absent = await night.run(f"/match evening-game match:MATCH machine:{madness} p1:H4 s1:1 p2:H5 s2:90,000,000", "h1")
    assert "Rule TEAM-FORF-2" in absent and "Not checked in tonight: H5" in absent, absent
    unpaired = await night.run(f"/match evening-game match:MATCH machine:{madness} p1:H4 s1:1 p2:H2", "h1")
    assert "Give p2 and s2 together" in unpaired, unpaired
    assert await night.league.digest() == before
    assert "90,000,000" not in await night.run("/highscores", "h3")


async def test_a_match_played_for_points_has_no_forfeit_evening(night: Night) -> None:
    """TEAM-FORF-2: with four a side the match is played for points, so its games go in with `/score`."""
    await four_each_checked_in(night)
    before = await night.league.digest()
    refused = await night.run(f"/match evening-game match:MATCH machine:{night.machines[0]} p1:H1 s1:5", "h1")
    assert "Rule TEAM-FORF-2" in refused and "enter this match's games with `/score`" in refused, refused
    assert await night.league.digest() == before
