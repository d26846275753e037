"""A short team writes a missing player into game 2 of round 1 at a one-machine venue (TEAM-SHORT-4): the
write-in plays only if checked in before that game starts; otherwise the partner plays it alone."""

from __future__ import annotations

from bot.clock import ManualClock
from bot.rules.team.model import Side
from tests.e2e.team_night import Night, at, checked_in, enter_and_confirm, match_points, scoreboard


async def one_machine_left(night: Night) -> int:
    """The commissioner takes two of Ace Arcade's three machines out of service; the first one is left."""
    first, *others = night.machines
    for machine in others:
        changed = await night.run(f"/machine status machine:{machine} status:unplayable", "alice")
        assert "unplayable" in changed, changed
    return first


def set_clock(night: Night, hour: int, minute: int) -> None:
    clock = night.league.bot.clock
    assert isinstance(clock, ManualClock)
    clock.set(at(hour, minute))


async def test_a_write_in_who_arrives_before_game_2_starts_plays_it_team_short_4(night: Night) -> None:
    """TEAM-SHORT-4: Tilt Warriors come with three. With three machines a write-in is refused; with one, A4 is
    written into game 2, checks in at 20:10, is here when game 2 starts at 20:15 and has a score of their own.
    Flipper Kings, with four, may not write anyone in, and no one may be written in after round 1."""
    await checked_in(night, "h1", "h2", "h3", "h4", "a1", "a2", "a3")
    m1 = night.machines[0]
    three_machines = await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 write_in:A4 m1:{m1} m2:{m1}", "a1")
    assert "TEAM-SHORT-4" in three_machines and "when just one machine is available" in three_machines
    await one_machine_left(night)
    offered = await night.league.emulator.autocomplete(
        f"/lineup match:{night.match_id} write_in:", focused="write_in", as_member="a1"
    )
    assert [choice["name"] for choice in offered] == ["A4", "A5", "A6"]  # the three who are not here
    declared = await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 write_in:A4 m1:{m1} m2:{m1}", "a1")
    assert "declared round 1" in declared and "A4 is written into game 2" in declared, declared
    not_short = await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 write_in:H5", "h1")
    assert "TEAM-SHORT-4" in not_short and "only by a short team" in not_short, not_short
    assert "declared round 1" in await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")

    set_clock(night, 20, 10)
    assert "is checked in" in await night.run("/checkin match:MATCH", "a4")
    set_clock(night, 20, 15)
    await enter_and_confirm(night, 1, 1, ("3", "3"), ("1", "1"))
    assert "under way" in await night.run("/match start match:MATCH round:1 game:2", "h1")
    board = (await scoreboard(night)).text()
    assert "2. Godzilla: A3 + A4 vs H3 + H4" in board, board
    await enter_and_confirm(night, 1, 2, ("1", "1"), ("5", "5"))
    # TEAM-SHORT-4: A4 counts, so game 2 is a pair against a pair: 10 beats 2, 2 points to Tilt Warriors.
    assert await match_points(night) == {Side.HOME: 2, Side.AWAY: 2}

    later = await night.run(f"/lineup match:MATCH p1:H1 p2:H3 p3:H2 write_in:H5 m1:{m1} m2:{m1}", "h1")
    assert "TEAM-SHORT-4" in later and "in game 2 of round 1" in later, later


async def test_a_write_in_still_missing_when_game_2_starts_leaves_the_partner_alone_team_short_4(
    night: Night,
) -> None:
    """TEAM-SHORT-4: A4 is written into game 2 but game 2 starts at 20:05 without them: arriving at 20:10 is too
    late, so A3 plays game 2 alone, only A3's score is entered, and it is compared with the pair's sum."""
    await checked_in(night, "h1", "h2", "h3", "h4", "a1", "a2", "a3")
    m1 = await one_machine_left(night)
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 write_in:A4 m1:{m1} m2:{m1}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    set_clock(night, 20, 5)
    assert "under way" in await night.run("/match start match:MATCH round:1 game:2", "h1")
    set_clock(night, 20, 10)
    assert "is checked in" in await night.run("/checkin match:MATCH", "a4")

    two_scores = await night.run("/score match:MATCH round:1 game:2 home1:1 home2:1 away1:5 away2:5", "h1")
    assert "Tilt Warriors had 1 player(s) in round 1 game 2; give 1 score(s)" in two_scores, two_scores
    board = (await scoreboard(night)).text()
    assert "2. Godzilla: A3 vs H3 + H4" in board, board
    await enter_and_confirm(night, 1, 2, ("4", "4"), ("7",))
    # TEAM-SHORT-4: A3 alone, 7 against the pair's 4 + 4: the game's 2 points go to Flipper Kings.
    assert await match_points(night) == {Side.HOME: 2, Side.AWAY: 0}
