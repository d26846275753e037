"""Games in progress on a team match night, their play order and the extra balls, as captains see them in Discord:
`/match start` (TEAM-MACH-2), the board's play order (TEAM-LINEUP-10) cut for a 2-player machine (TEAM-MACH-9),
and `/match extraballs` with the board's extra-ball line (TEAM-PEN-3)."""

from __future__ import annotations

from sqlmodel import col, select

from bot.rules.team.model import Side
from storage.discipline import MachineIssue
from storage.matches import MatchGameStart
from storage.models import Machine
from tests.e2e.team_night import Night, four_each_checked_in, match_points


async def _add_two_player_five_ball_machine(night: Night) -> int:
    added = await night.run('/machine add venue:"Ace Arcade" model:"Bride of Pinbot" players:2 balls:5', "alice")
    assert "Bride of Pinbot" in added, added
    async with night.league.db.reading() as session:
        return (await session.exec(select(Machine.id).order_by(col(Machine.id).desc()))).first() or 0


async def _board(night: Night) -> str:
    return await night.run("/match show match:MATCH", "h1")


def _line(board: str, start: str) -> str:
    """The board line of one game (`1. Godzilla: …`) in the round shown last with that start."""
    lines = [line for line in board.splitlines() if start in line]
    assert lines, f"no line starting {start!r} in:\n{board}"
    return lines[-1]


async def test_at_most_two_games_play_at_once_team_mach_2(night: Night) -> None:
    """TEAM-MACH-2: a declared game starts with `/match start`; a third game waits until one of the two in progress
    has its scores, and a machine already in use by a game in progress is refused. TEAM-LINEUP-10: the team that
    declared second plays first, the teams alternating."""
    await four_each_checked_in(night)
    m1, m2, m3 = night.machines
    not_declared = await night.run("/match start match:MATCH round:1 game:1", "h1")
    assert "TEAM-LINEUP-2" in not_declared and "Both teams must declare round 1" in not_declared
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    # Round 1: Tilt Warriors (AWAY) declared first, so Flipper Kings play first in each game.
    # TEAM-AMB-2: the second declarer (HOME) plays positions 1 and 3.
    assert "play order H1, A1, H2, A2" in _line(await _board(night), "1. Godzilla")
    started = await night.run("/match start match:MATCH round:1 game:1", "h1")
    assert "Round 1 game 1 on Godzilla is under way; play order H1, A1, H2, A2." in started
    twice = await night.run("/match start match:MATCH round:1 game:1", "a1")
    assert "TEAM-MACH-2" in twice and "already started" in twice
    assert "under way" in await night.run("/match start match:MATCH round:1 game:2", "a1")
    board = await _board(night)
    assert "▶️ playing" in _line(board, "1. Godzilla") and "▶️ playing" in _line(board, "2. Medieval Madness")

    # Round 2 is declared while round 1 plays: HOME first, on Godzilla and Attack from Mars.
    await night.run(f"/lineup match:MATCH p1:H1 p2:H3 p3:H2 p4:H4 m1:{m1} m2:{m3}", "h1")
    await night.run("/lineup match:MATCH p1:A1 p2:A3 p3:A2 p4:A4", "a1")
    assert "play order A2, H2, A4, H4" in _line(await _board(night), "2. Attack from Mars")  # AWAY first now
    third = await night.run("/match start match:MATCH round:2 game:2", "h1")
    assert "TEAM-MACH-2" in third and "Two match games are already in progress" in third

    # Round 1 game 2's scores are in: it no longer plays, so one more game may start, but not on Godzilla.
    await night.run("/score match:MATCH round:1 game:2 home1:5 home2:5 away1:4 away2:4", "h1")
    busy = await night.run("/match start match:MATCH round:2 game:1", "h1")
    assert "TEAM-MACH-2" in busy and "Godzilla is in use by game 1 of round 1" in busy
    assert "under way" in await night.run("/match start match:MATCH round:2 game:2", "h1")
    played = await night.run("/match start match:MATCH round:1 game:2", "h1")
    assert "already has scores" in played
    async with night.league.db.reading() as session:
        starts = (await session.exec(select(MatchGameStart.round_index, MatchGameStart.game_number))).all()
    assert sorted(starts) == [(1, 1), (1, 2), (2, 2)]
    board = await _board(night)
    assert "▶️ playing" not in _line(board, "2. Medieval Madness")  # entered: waiting for confirmation
    assert "▶️ playing" in _line(board, "2. Attack from Mars")


async def test_a_doubles_game_on_a_two_player_machine_is_played_as_two_team_mach_9(night: Night) -> None:
    """TEAM-MACH-9 with TEAM-LINEUP-10: on a 2-player machine a Doubles game becomes two 1-on-1 games, each one
    player of the team that plays first against one of the other's, in play order."""
    await four_each_checked_in(night)
    m1 = night.machines[0]
    small = await _add_two_player_five_ball_machine(night)
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{small}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    board = await _board(night)
    assert "played as 2 games: H3, A3; then H4, A4" in _line(board, "2. Bride of Pinbot")
    assert "play order H1, A1, H2, A2" in _line(board, "1. Godzilla")  # a 4-player machine: one game
    started = await night.run("/match start match:MATCH round:1 game:2", "a1")
    assert "under way; played as 2 games: H3, A3; then H4, A4." in started
    # H3 6M vs A3 10M and H4 6M vs A4 1M: one 1-on-1 win each, but HOME's 12M beats AWAY's 11M.
    await night.run(
        "/score match:MATCH round:1 game:2 home1:6,000,000 home2:6,000,000 away1:10,000,000 away2:1,000,000", "h1"
    )
    # TEAM-GAME-2, TEAM-AMB-3 (default `tally=sum`): the team tally is the sum of its two players' 1-on-1 scores.
    assert await match_points(night) == {Side.HOME: 2, Side.AWAY: 0}


async def test_doubles_on_a_one_player_machine_sum_the_solo_scores_team_game_3(night: Night) -> None:
    """TEAM-GAME-3: on a 1-player machine the four players of a Doubles game play alone in turn, and each team's
    two solo scores are summed once all four have played."""
    await four_each_checked_in(night)
    m1 = night.machines[0]
    added = await night.run('/machine add venue:"Ace Arcade" model:"Black Knight" players:1', "alice")
    assert "Black Knight" in added, added
    async with night.league.db.reading() as session:
        solo = (await session.exec(select(Machine.id).order_by(col(Machine.id).desc()))).first() or 0
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{solo}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    assert "played as 4 games" in _line(await _board(night), "2. Black Knight")
    await night.run(
        "/score match:MATCH round:1 game:2 home1:6,000,000 home2:6,000,000 away1:10,000,000 away2:1,000,000", "h1"
    )
    # TEAM-GAME-3: HOME's 6M + 6M beats AWAY's 10M + 1M, although AWAY has the best solo score.
    assert await match_points(night) == {Side.HOME: 2, Side.AWAY: 0}


async def test_extra_balls_and_the_captains_opt_out_team_pen_3(night: Night) -> None:
    """TEAM-PEN-3: one extra ball per player per game on 3-ball machines, none on a 5-ball machine; both captains
    may opt out of extra balls, but only before round 1 is declared."""
    await four_each_checked_in(night)
    await _add_two_player_five_ball_machine(night)
    line = (
        "Extra balls: 1 per player per game on Godzilla, Medieval Madness, Attack from Mars; none on Bride of Pinbot."
    )
    assert line in await _board(night)
    asked = await night.run("/match extraballs match:MATCH", "h1")
    assert "holds once the other captain agrees" in asked
    board = await _board(night)
    assert line in board and "Flipper Kings asked to opt out" in board
    again = await night.run("/match extraballs match:MATCH", "h1")
    assert "Flipper Kings already agreed" in again
    agreed = await night.run("/match extraballs match:MATCH", "a1")
    assert "Both captains agreed: no extra balls" in agreed
    board = await _board(night)
    assert "Extra balls: none this match (both captains opted out)." in board and line not in board


async def test_an_extra_ball_opt_out_after_round_one_is_refused_team_pen_3(night: Night) -> None:
    """TEAM-PEN-3: "Extra-ball opt-out must be agreed before the match starts": once a round-1 lineup is declared,
    a captain's opt-out is refused and the extra balls stay."""
    await four_each_checked_in(night)
    m1, m2, _ = night.machines
    await night.run("/match extraballs match:MATCH", "h1")
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    late = await night.run("/match extraballs match:MATCH", "a1")
    assert "TEAM-PEN-3" in late and "Extra-ball opt-out must be agreed before the match starts" in late
    board = await _board(night)
    assert "Extra balls: 1 per player per game on Godzilla, Medieval Madness, Attack from Mars." in board


async def test_one_players_failure_is_their_choice_team_mach_6(night: Night) -> None:
    """TEAM-MACH-6: a failure that hurts one player only, in a game in progress: the player plays on or replays
    solo straight after the game, and the choice is logged with the failure (TEAM-MACH-7). A game not in progress,
    or a player not in it, is refused."""
    await four_each_checked_in(night)
    m1, m2, _ = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    failure = '/match failure match:MATCH round:1 game:1 member:@{who} choice:{choice} what:"Left flipper stuck"'
    early = await night.run(failure.format(who="h1", choice="continue"), "h1")
    assert "TEAM-MACH-6" in early and "Game 1 of round 1 is not in progress" in early
    await night.run("/match start match:MATCH round:1 game:1", "h1")
    elsewhere = await night.run(failure.format(who="h3", choice="continue"), "h1")
    assert "TEAM-MACH-6" in elsewhere and "H3 is not playing in game 1" in elsewhere
    on = await night.run(failure.format(who="h1", choice="continue"), "h1")
    assert "H1 plays on: the score stands (TEAM-MACH-6)" in on
    solo = await night.run(failure.format(who="a2", choice="replay_solo"), "a1")
    assert "A2 replays round 1 game 1 solo right after it" in solo and "`/match replay`" in solo
    async with night.league.db.reading() as session:
        logged = (await session.exec(select(MachineIssue).order_by(col(MachineIssue.id)))).all()
    assert [(row.machine_id, row.action_taken) for row in logged] == [
        (m1, "H1 played on; the score stands (TEAM-MACH-6)"),
        (m1, "A2 replays solo after the game; the replay replaces the score (TEAM-MACH-6)"),
    ]
    assert logged[0].description == "Round 1 game 1, H1: Left flipper stuck"
