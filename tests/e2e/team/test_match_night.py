"""A whole team match played from Discord the way captains play it (TEAM-LINEUP-*, TEAM-GAME-*, TEAM-MATCH-*).

Attendance, four rounds of alternating declarations with autocomplete, scores with the opposing captain's
confirmation, a dispute and the commissioner's ruling, an 8–8 tie decided by a tie-breaker game, and both
captains signing the scoresheet.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from sqlmodel import col, select

from bot.clock import ManualClock
from bot.rules.team.model import MatchOutcome, Side
from bot.services.team import match_facts
from storage.matches import GameScore, Match, MatchChallenge, MatchKind, MatchLineup
from storage.models import League, Machine, Player, RosterEntry, RosterRole, Team
from tests.e2e.team_night import (
    AWAY,
    HOME,
    NEW_YORK,
    Night,
    at,
    enter_and_confirm,
    four_each_checked_in,
    match_points,
    scoreboard,
)


async def test_a_whole_match_through_discord(night: Night) -> None:
    """TEAM-SCHED-2, TEAM-LINEUP-2, -3, -6, TEAM-GAME-1, COMMON-SCORE-1, TEAM-DISP-1, TEAM-DISP-4, TEAM-MATCH-3,
    TEAM-MATCH-4, TEAM-TB-1, TEAM-TB-2, TEAM-TB-4, TEAM-TV-17 and TEAM-HS-1 as captains and a commissioner meet
    them in Discord."""
    league, emulator, clock = night.league, night.league.emulator, night.league.bot.clock
    assert isinstance(clock, ManualClock)
    m1, m2, m3 = night.machines

    # Attendance (TEAM-SCHED-2): four per side; captains check teammates in, one player checks in alone.
    clock.set(at(19, 40))
    for name in HOME[1:4]:
        assert "is checked in" in await night.run(f"/checkin match:MATCH member:@{name}", "h1")
    assert "is checked in" in await night.run("/checkin match:MATCH", "h1")
    for name in AWAY[:4]:
        assert "is checked in" in await night.run("/checkin match:MATCH", name)
    again = await night.run("/checkin match:MATCH", "a2")
    assert "already checked in" in again and "TEAM-SCHED-2" in again
    clock.set(at(20, 1))

    # Round 1, Doubles: AWAY declares first and picks the machines (TEAM-LINEUP-2, 3).
    early = await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    assert "Waiting for Tilt Warriors to declare first" in early and "TEAM-LINEUP-2" in early
    suggestions = await emulator.autocomplete(f"/lineup match:{night.match_id} p1:", focused="p1", as_member="a1")
    assert sorted(choice["name"] for choice in suggestions) == ["A1", "A2", "A3", "A4"]
    machine_names = await emulator.autocomplete(f"/lineup match:{night.match_id} m1:", focused="m1", as_member="a1")
    assert len(machine_names) == 3
    assert "declared round 1" in await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    locked_view = await night.run("/match show match:MATCH", "h1")
    assert "A1 + A2" in locked_view  # the second team sees the first team's lineup once it is declared
    assert "declared round 1" in await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")

    # Scores: HOME wins game 1, AWAY game 2 → 2–2 (TEAM-GAME-1, TEAM-TV-2's numbers in game 2).
    bad = await night.run("/score match:MATCH round:1 game:1 home1:50M home2:1 away1:1 away2:1", "h1")
    assert "COMMON-AMB-3" in bad
    await enter_and_confirm(night, 1, 1, ("30,000,000", "20,000,000"), ("10,000,000", "9,000,000"))
    echo = await enter_and_confirm(night, 1, 2, ("12,340,000", "3,500,000"), ("9,000,000", "6,900,000"))
    assert "H3 12,340,000, H4 3,500,000, A3 9,000,000, A4 6,900,000" in echo
    # TEAM-TV-2: the pairs' sums decide game 2: AWAY's 15,900,000 beats HOME's 15,840,000, so 2–2 after round 1
    assert await match_points(night) == {Side.HOME: 2, Side.AWAY: 2}

    # Round 2, Doubles: HOME first; the same pair may not play twice (TEAM-LINEUP-6).
    repeat = await night.run(f"/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4 m1:{m1} m2:{m3}", "h1")
    assert "already paired" in repeat and "TEAM-LINEUP-6" in repeat
    await night.run(f"/lineup match:MATCH p1:H1 p2:H3 p3:H2 p4:H4 m1:{m1} m2:{m3}", "h1")
    await night.run("/lineup match:MATCH p1:A1 p2:A3 p3:A2 p4:A4", "a1")
    await enter_and_confirm(night, 2, 1, ("40,000,000", "1"), ("2", "3"))
    await enter_and_confirm(night, 2, 2, ("1", "2"), ("40,000,000", "3"))

    # Rounds 3 and 4, Singles: HOME wins games 1–2, AWAY games 3–4 in each → 8–8 (TEAM-LINEUP-1).
    # TEAM-AMB-1: the default round order is D,D,S,S, so round 3 takes four single players and four machines.
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m1} m3:{m2} m4:{m3}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    await night.run(f"/lineup match:MATCH p1:H4 p2:H3 p3:H2 p4:H1 m1:{m2} m2:{m2} m3:{m3} m4:{m1}", "h1")
    await night.run("/lineup match:MATCH p1:A4 p2:A3 p3:A2 p4:A1", "a1")
    for round_index in (3, 4):
        for game in (1, 2):
            await enter_and_confirm(night, round_index, game, ("5,000,000",), ("4,000,000",))
        for game in (3, 4):
            if (round_index, game) == (4, 4):
                continue
            await enter_and_confirm(night, round_index, game, ("1,000,000",), ("2,000,000",))

    # The last game is disputed; the commissioner rules, then it is confirmed.
    entered = await league.run(
        f"/score match:{night.match_id} round:4 game:4 home1:1,000,000 away1:2,000,000", as_member="h1"
    )
    form = await emulator.click(entered, f"score:dispute:{night.match_id}:4:4", as_member="a1")
    assert form.modal is not None
    disputed = await emulator.submit_modal(form, {"reason": "H1 nudged during A1's last ball"}, as_member="a1")
    assert "disputed this match" in disputed.text()
    not_yet = await emulator.click(await scoreboard(night), f"match:sign:{night.match_id}", as_member="h1")
    assert "A dispute is open" in not_yet.text()
    outsider = await night.run('/match ruling match:MATCH ruling:"No nudge seen; score stands"', "a1")
    assert "Only a commissioner" in outsider
    assert "Ruling recorded" in await night.run(
        '/match ruling match:MATCH ruling:"No nudge seen; score stands"', "alice"
    )
    await emulator.click(entered, f"score:confirm:{night.match_id}:4:4", as_member="a1")

    # 8–8: a tie-breaker game decides it and adds no match points (TEAM-MATCH-3, TEAM-TB-4, TEAM-TV-17).
    async with league.db.reading() as session:
        match = await session.get(Match, night.match_id)
        assert match is not None
        context = await match_facts.context_for(session, (await session.exec(select(League))).one(), match)
        level = await match_facts.result(session, context, clock.now())
    assert dict(level.points) == {Side.HOME: 8, Side.AWAY: 8} and level.needs_tiebreaker and not level.final
    # TEAM-TB-1/2, TEAM-TV-17: HOME picks the machine, AWAY the format; AWAY declares three players, then HOME.
    both = await night.run(f"/tiebreak choose match:MATCH format:shared_game machine:{m3}", "h1")
    assert "Make one tie-breaker decision" in both and "TEAM-TB-1" in both
    assert "decision recorded" in await night.run(f"/tiebreak choose match:MATCH machine:{m3}", "h1")
    again = await night.run("/tiebreak choose match:MATCH format:split_flipper", "h1")
    assert "already made its tie-breaker decision" in again
    assert "decision recorded" in await night.run("/tiebreak choose match:MATCH format:shared_game", "a1")
    too_soon = await night.run("/tiebreak score match:MATCH home:1 away:2", "h1")
    assert "TEAM-TB-2" in too_soon
    assert "Waiting for Tilt Warriors" in await night.run("/tiebreak declare match:MATCH p1:H1 p2:H2 p3:H3", "h1")
    two = await night.run("/tiebreak declare match:MATCH p1:A1 p2:A2", "a1")
    assert "Shared game needs 3 different players" in two
    offered = await emulator.autocomplete(f"/tiebreak declare match:{night.match_id} p1:", focused="p1", as_member="a1")
    assert sorted(choice["name"] for choice in offered) == ["A1", "A2", "A3", "A4"]
    await night.run("/tiebreak declare match:MATCH p1:A1 p2:A2 p3:A3", "a1")
    await night.run("/tiebreak declare match:MATCH p1:H1 p2:H2 p3:H3", "h1")
    assert "Tie-breaker recorded" in await night.run(
        "/tiebreak score match:MATCH home:1,980,000,000 away:2,450,000,000", "h1"
    )

    # Both captains sign (TEAM-MATCH-4): the scoreboard says who won.
    first = await emulator.click(await scoreboard(night), f"match:sign:{night.match_id}", as_member="h1")
    assert "signed the scoresheet" in first.text()
    twice = await emulator.click(await scoreboard(night), f"match:sign:{night.match_id}", as_member="h1")
    assert "already signed" in twice.text()
    await emulator.click(await scoreboard(night), f"match:sign:{night.match_id}", as_member="a1")
    final_board = await scoreboard(night)
    assert "Final: Tilt Warriors win" in final_board.text()
    assert "Tilt Warriors 8 – 8 Flipper Kings" in final_board.text()
    async with league.db.reading() as session:
        match = await session.get(Match, night.match_id)
        assert match is not None
        context = await match_facts.context_for(session, (await session.exec(select(League))).one(), match)
        result = await match_facts.result(session, context, clock.now())
        lineups = (await session.exec(select(MatchLineup))).all()
        challenge = (await session.exec(select(MatchChallenge))).one()
    assert result.final and result.outcome == {Side.AWAY: MatchOutcome.WIN, Side.HOME: MatchOutcome.LOSS}
    assert len(lineups) == 8 and challenge.ruling == "No nudge seen; score stands"
    scoreboards = [
        o for o in emulator.outputs
        if o.kind in ("message", "message_edit") and o.embeds and str(o.embeds[0].get("title", "")).startswith("Week 1")
    ]  # fmt: skip
    assert len({o.message_id for o in scoreboards}) == 1  # one living scoreboard, edited in place
    assert len(scoreboards) > 20

    # COMMON-SCORE-3: once signed, nothing about the match changes through the captains' commands.
    frozen = await night.run("/match penalty match:MATCH round:1 game:1 offence:slam_tilt member:@h1", "a1")
    assert "Rule COMMON-SCORE-3" in frozen
    frozen = await night.run("/match replay match:MATCH round:4 game:4 member:@a1 score:1", "a1")
    assert "Rule COMMON-SCORE-3" in frozen

    # The result in the league table (TEAM-STAND-1): a win for AWAY, 8 match points each.
    table = await night.run("/standings", "carol")
    assert "1 of 1 regular-season matches final" in table
    assert re.search(r"1\s+Tilt Warriors\s+1-0\s+1\.000\s+8", table), table
    assert re.search(r"2\s+Flipper Kings\s+0-1\s+\.000\s+8", table), table

    # TEAM-HS-1/2: the best counted score per model, from match games (the tie-breaker's billions never count).
    high = await night.run("/highscores", "carol")
    # COMMON-HS-1: one entry per model, with its player and the event it came from.
    assert "**Attack from Mars**: 40,000,000 · A2 (week 1)" in high and "Madness**: 12,340,000 · H3 (week 1)" in high
    assert "Godzilla**: 40,000,000 · H1 (week 1)" in high  # TEAM-MATCH-5: H1's own score from a match game
    assert "Medieval Madness**: 30,000,000 · H1" not in high  # R1 game 1 was on Godzilla
    assert "2,450,000,000" not in high


async def test_attendance_forfeit_played_out_earns_twelve(night: Night) -> None:
    """TEAM-FORF-1, TEAM-TV-7 (a): AWAY has two at 20:15, HOME stays and plays the evening with four."""
    clock = night.league.bot.clock
    assert isinstance(clock, ManualClock)
    clock.set(at(19, 50))
    for name in HOME[:4]:
        await night.run("/checkin match:MATCH", name)
    for name in AWAY[:2]:
        await night.run("/checkin match:MATCH", name)
    clock.set(at(20, 16))
    assert await match_points(night) == {Side.HOME: 0, Side.AWAY: 0}  # TEAM-SCHED-3: the extension is asked first
    assert "declined" in await night.run("/match extension match:MATCH agreed:false", "alice")
    assert await match_points(night) == {Side.HOME: 9, Side.AWAY: 0}
    refused = await night.run("/match played-out match:MATCH", "a1")
    assert "Flipper Kings's captain confirms" in refused or "captain confirms" in refused
    await night.run("/match played-out match:MATCH", "h1")
    assert await match_points(night) == {Side.HOME: 12, Side.AWAY: 0}
    signed = await night.league.emulator.click(await scoreboard(night), f"match:sign:{night.match_id}", as_member="h1")
    assert "signed the scoresheet" in signed.text()
    assert "Final: Flipper Kings win" in (await scoreboard(night)).text()


async def test_a_team_of_three_against_a_forfeiting_team_gets_no_bonus_team_amb_25(night: Night) -> None:
    """HOME comes with three, AWAY with two: HOME wins the forfeit with 9 and, not fully attending, no +3 even
    when its captain says the evening was played out."""
    clock = night.league.bot.clock
    assert isinstance(clock, ManualClock)
    clock.set(at(19, 50))
    for name in [*HOME[:3], *AWAY[:2]]:
        await night.run("/checkin match:MATCH", name)
    clock.set(at(20, 16))
    await night.run("/match extension match:MATCH agreed:false", "alice")
    assert await match_points(night) == {Side.HOME: 9, Side.AWAY: 0}
    await night.run("/match played-out match:MATCH", "h1")
    assert await match_points(night) == {Side.HOME: 9, Side.AWAY: 0}  # TEAM-AMB-25: 9 MP and no +3 with three


async def test_both_teams_under_three_is_a_double_forfeit_team_forf_3_team_amb_8(night: Night) -> None:
    """Two players a side at 20:16, no extension: both teams lose with 0 match points."""
    clock = night.league.bot.clock
    assert isinstance(clock, ManualClock)
    clock.set(at(19, 50))
    for name in [*HOME[:2], *AWAY[:2]]:
        await night.run("/checkin match:MATCH", name)
    clock.set(at(20, 16))
    await night.run("/match extension match:MATCH agreed:false", "alice")
    # TEAM-FORF-3, TEAM-AMB-8: a double forfeit: a Loss and 0 match points for each team.
    assert "Tilt Warriors 0–0 Flipper Kings · Ace Arcade · double forfeit, both lose" in await night.run(
        "/schedule show", "carol"
    )
    table = await night.run("/standings", "carol")
    assert "1 of 1 regular-season matches final" in table
    assert re.search(r"Flipper Kings\s+0-1\s+\.000\s+0", table) and re.search(r"Tilt Warriors\s+0-1\s+\.000\s+0", table)


async def test_walkouts_hand_over_the_unplayed_points_team_forf_4_team_amb_9(night: Night) -> None:
    """Round 1 ends 2–2. AWAY refuses to go on, then HOME too; in a second match both teams leave."""
    await four_each_checked_in(night)
    m1, m2, _ = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    await enter_and_confirm(night, 1, 1, ("3", "3"), ("1", "1"))
    await enter_and_confirm(night, 1, 2, ("1", "1"), ("3", "3"))
    assert "Only a commissioner" in await night.run("/match walkout match:MATCH side:away kind:refused", "h1")
    await night.run("/match walkout match:MATCH side:away kind:refused", "alice")
    # TEAM-FORF-4: the team that stops forfeits all 12 unplayed points to the one that stays.
    assert await match_points(night) == {Side.HOME: 14, Side.AWAY: 2}
    await night.run("/match walkout match:MATCH side:home kind:refused", "alice")
    # TEAM-FORF-4: both refuse: the unplayed points go to no one.
    assert await match_points(night) == {Side.HOME: 2, Side.AWAY: 2}
    async with night.league.db.reading() as session:
        match = await session.get(Match, night.match_id)
        assert match is not None
        context = await match_facts.context_for(session, (await session.exec(select(League))).one(), match)
        level = await match_facts.result(session, context, night.league.bot.clock.now())
    # TEAM-AMB-9: level at 2–2 after the refusals, so a tie-breaker game decides it.
    assert level.needs_tiebreaker and level.outcome is None
    assert "Tie-breaker game (the match is level at 2–2)" in level.missing

    # TEAM-AMB-9: both teams left a level match: a double Loss.
    async with night.league.db.writing() as session:
        regular = await session.get(Match, night.match_id)
        assert regular is not None
        other = Match(
            league_id=regular.league_id, season_id=regular.season_id, week=1, play_on=regular.play_on,
            home_team_id=regular.away_team_id, away_team_id=regular.home_team_id, venue_id=regular.venue_id,
        )  # fmt: skip
        session.add(other)
        await session.flush()
        other_id = other.id or 0
    for side in ("home", "away"):
        await night.league.run(f"/match walkout match:{other_id} side:{side} kind:left", as_member="alice")
    table = await night.run('/schedule show team:"Tilt Warriors"', "carol")
    assert "Flipper Kings 0–0 Tilt Warriors · Ace Arcade · final" in table, table
    standings = await night.run("/standings", "carol")
    assert re.search(r"Flipper Kings\s+0-1\s+\.000", standings), standings
    assert re.search(r"Tilt Warriors\s+0-1\s+\.000", standings), standings


async def test_slam_tilt_loses_the_game_whatever_the_scores(night: Night) -> None:
    """TEAM-PEN-5, TEAM-TV-18 (b): HOME's pair outscores AWAY 80M to 40M, but a HOME player slam-tilted.
    TEAM-GAME-5: a game lost by a game-loss penalty goes to the other team whatever the scores."""
    await four_each_checked_in(night)
    m1, m2, _ = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    await night.run(
        "/score match:MATCH round:1 game:1 home1:50,000,000 home2:30,000,000 away1:20,000,000 away2:20,000,000", "h1"
    )
    assert await match_points(night) == {Side.HOME: 2, Side.AWAY: 0}
    outsider = await night.run("/match penalty match:MATCH round:1 game:1 offence:slam_tilt member:@h2", "carol")
    assert "TEAM-LINEUP-11" in outsider
    not_in_game = await night.run("/match penalty match:MATCH round:1 game:1 offence:slam_tilt member:@h3", "a1")
    assert "did not play round 1 game 1" in not_in_game
    assert "slam tilt recorded" in await night.run(
        "/match penalty match:MATCH round:1 game:1 offence:slam_tilt member:@h2", "a1"
    )
    assert await match_points(night) == {Side.HOME: 0, Side.AWAY: 2}
    twice = await night.run("/match penalty match:MATCH round:1 game:1 offence:slam_tilt member:@h2", "a1")
    assert "already recorded for this game" in twice  # a double click records one slam tilt, not two

    # TEAM-PEN-6: a tilt-through by H4 loses game 2 for HOME, although HOME's pair outscored AWAY's.
    await night.run("/score match:MATCH round:1 game:2 home1:9,000,000 home2:9,000,000 away1:1 away2:1", "h1")
    assert await match_points(night) == {Side.HOME: 2, Side.AWAY: 2}
    await night.run("/match penalty match:MATCH round:1 game:2 offence:tilt_through member:@h4", "a1")
    assert await match_points(night) == {Side.HOME: 0, Side.AWAY: 4}


async def test_disqualified_scores_do_not_count_team_pen_2_team_pen_4_team_amb_22(night: Night) -> None:
    """A death save disqualifies the offender's score, a physical assist the helped player's; a side left with no
    valid score loses the game, and a game with none on either side is VOID and worth nothing."""
    await four_each_checked_in(night)
    m1, m2, _ = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    await night.run(
        "/score match:MATCH round:1 game:1 home1:30,000,000 home2:1 away1:10,000,000 away2:10,000,000", "h1"
    )
    await night.run("/score match:MATCH round:1 game:2 home1:5,000,000 home2:5,000,000 away1:6,000,000 away2:1", "h1")
    assert await match_points(night) == {Side.HOME: 4, Side.AWAY: 0}
    # TEAM-PEN-2: H1's death save: H1's 30M is DQ, so H2's 1 alone faces AWAY's 20M.
    await night.run("/match penalty match:MATCH round:1 game:1 offence:death_save member:@h1", "a1")
    assert await match_points(night) == {Side.HOME: 2, Side.AWAY: 2}
    # TEAM-PEN-4: a teammate helped H4: H4's 5M is DQ and the 4-player game is decided without it, 5M < 6M + 1.
    await night.run("/match penalty match:MATCH round:1 game:2 offence:physical_assist member:@h4", "a1")
    assert await match_points(night) == {Side.HOME: 0, Side.AWAY: 4}
    # TEAM-AMB-22: game 1 with every HOME score DQ goes to AWAY; with every score on both sides DQ it is VOID.
    await night.run("/match penalty match:MATCH round:1 game:1 offence:out_of_turn member:@h2", "a1")
    assert await match_points(night) == {Side.HOME: 0, Side.AWAY: 4}
    for name in ("a1", "a2"):
        await night.run(f"/match penalty match:MATCH round:1 game:1 offence:death_save member:@{name}", "h1")
    assert await match_points(night) == {Side.HOME: 0, Side.AWAY: 2}
    # TEAM-HS-4: H1's disqualified 30M holds no high score; A3's 6M on Medieval Madness does.
    high = await night.run("/highscores", "carol")
    assert "30,000,000" not in high and "Medieval Madness**: 6,000,000 · A3" in high, high


async def test_moving_without_cause_forfeits_the_home_team(night: Night) -> None:
    """TEAM-VENUE-1, TEAM-TV-8 (a): officials rule; HOME loses with 0 and AWAY wins with 12."""
    refused = await night.run("/match forfeit match:MATCH side:home", "h1")
    assert "Only a commissioner" in refused
    await night.run("/match forfeit match:MATCH side:home", "alice")
    assert await match_points(night) == {Side.HOME: 0, Side.AWAY: 12}
    assert "Final: Tilt Warriors win" in (await scoreboard(night)).text()


async def test_nine_points_do_not_end_the_match_team_match_2(night: Night) -> None:
    """Flipper Kings win all four Doubles games and the first Singles game: 9 of 16 points, more than Tilt Warriors
    can reach, yet every game is still played and the match is not final."""
    await four_each_checked_in(night)
    m1, m2, m3 = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    await night.run(f"/lineup match:MATCH p1:H1 p2:H3 p3:H2 p4:H4 m1:{m1} m2:{m3}", "h1")
    await night.run("/lineup match:MATCH p1:A1 p2:A3 p3:A2 p4:A4", "a1")
    for round_index in (1, 2):
        for game in (1, 2):
            await enter_and_confirm(night, round_index, game, ("2", "2"), ("1", "1"))
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m1} m3:{m2} m4:{m3}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    await enter_and_confirm(night, 3, 1, ("2",), ("1",))
    assert await match_points(night) == {Side.HOME: 9, Side.AWAY: 0}
    board = (await scoreboard(night)).text()
    # TEAM-MATCH-2: 9 points decide nothing yet: no winner on the board, and round 3 game 2 is still to enter.
    assert "Final" not in board and "Flipper Kings win" not in board, board
    early = await night.league.emulator.click(await scoreboard(night), f"match:sign:{night.match_id}", as_member="h1")
    # TEAM-MATCH-2: the captains cannot sign it either; every game left is named.
    assert "The match is not over: Round 3 game 2 scores" in early.text(), early.text()
    assert "Round 4 lineups and scores" in early.text()


async def test_each_variant_of_a_model_keeps_its_own_high_score_team_amb_16(night: Night) -> None:
    """A Godzilla Premium joins the plain Godzilla: a higher score on the Premium does not take the Godzilla record."""
    await four_each_checked_in(night)
    m1 = night.machines[0]
    added = await night.run('/machine add venue:"Ace Arcade" model:"Godzilla" variant:"Premium"', "alice")
    assert "Godzilla" in added, added
    async with night.league.db.reading() as session:
        premium = (await session.exec(select(Machine.id).order_by(col(Machine.id).desc()))).first() or 0
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{premium}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    await enter_and_confirm(night, 1, 1, ("30,000,000", "1"), ("1", "1"))
    await enter_and_confirm(night, 1, 2, ("1", "1"), ("50,000,000", "1"))
    high = await night.run("/highscores", "carol")
    # TEAM-AMB-16 (`hs_merge_variants=false`): one record per variant.
    assert "Godzilla**: 30,000,000 · H1" in high and "Godzilla (Premium)**: 50,000,000 · A3" in high, high


async def test_refusing_to_move_forfeits_that_team_team_venue_4(night: Night) -> None:
    """The venue closed and AWAY would not move: an official rules it; AWAY loses with 0, HOME wins with 12."""
    await night.run("/match forfeit match:MATCH side:away", "alice")
    # TEAM-VENUE-4: the team that refused to move gets a forfeit Loss with 0, the other a Win with 12.
    assert await match_points(night) == {Side.HOME: 12, Side.AWAY: 0}
    assert "Final: Flipper Kings win" in (await scoreboard(night)).text()


INVALID_ROUND_ONE = [
    # (who, lineup options, rule, message): TEAM-TV-15, TEAM-TV-16 and the lineup rules, as captains type them
    ("h1", "p1:H1 p2:H2 p3:H3 p4:H4", "TEAM-LINEUP-2", "Waiting for Tilt Warriors to declare first"),
    ("a1", "p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m1}", "TEAM-MACH-1", "Use at least 2 machines"),
    ("a1", "p1:A1 p2:A1 p3:A3 p4:A4 m1:{m1} m2:{m2}", "TEAM-LINEUP-5", "already in this round"),
    ("a1", "p1:A1 p2:A2 p3:A3 p4:A5 m1:{m1} m2:{m2}", "TEAM-LINEUP-7", "not checked in"),
    ("a1", "p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1}", "TEAM-LINEUP-3", "machine"),
    ("h2", "p1:H1 p2:H2 p3:H3 p4:H4", "TEAM-LINEUP-11", "Only the captains"),
]
INVALID_SCORES = [
    ("1,23,4560", "COMMON-SCORE-1"),
    ("-5", "COMMON-SCORE-1"),
    ("50M", "COMMON-AMB-3"),
    ("12.5", "COMMON-SCORE-1"),
    ("1,234.560", "COMMON-SCORE-1"),  # mixed separators
]


async def test_catalog_vectors_are_refused_through_discord_and_change_nothing(night: Night) -> None:
    """TEAM-TV-15, TEAM-TV-16 (a) and (b), TEAM-LINEUP-2, -3, -4, -5, -7, -11, TEAM-MACH-1 and COMMON-TV-1:
    each refusal names its rule, and the database is exactly as before."""
    await four_each_checked_in(night)
    m1, m2, m3 = night.machines

    async def refused(who: str, line: str, rule: str, message: str) -> None:
        before = await night.league.row_counts()
        result = await night.league.run(line.replace("MATCH", str(night.match_id)), as_member=who)
        assert result.ephemeral and f"Rule {rule}" in result.content and message in result.content, result.content
        assert await night.league.row_counts() == before

    for who, options, rule, message in INVALID_ROUND_ONE:
        await refused(who, "/lineup match:MATCH " + options.format(m1=m1, m2=m2), rule, message)
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    await refused("a1", f"/lineup match:MATCH p1:A1 p2:A3 p3:A2 p4:A4 m1:{m1} m2:{m3}", "TEAM-LINEUP-4", "locked")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    for typed, rule in INVALID_SCORES:
        line = f'/score match:MATCH round:1 game:1 home1:"{typed}" home2:1 away1:1 away2:1'
        await refused("h1", line, rule, "Score must be a whole number")

    # Round 3 is Singles: TEAM-TV-16 (b), M1 twice and M2 twice is fine; M1 three times is not.
    for game in (1, 2):
        await enter_and_confirm(night, 1, game, ("2", "2"), ("1", "1"))
    await night.run(f"/lineup match:MATCH p1:H1 p2:H3 p3:H2 p4:H4 m1:{m1} m2:{m3}", "h1")
    await night.run("/lineup match:MATCH p1:A1 p2:A3 p3:A2 p4:A4", "a1")
    await refused(
        "a1",
        f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m1} m3:{m1} m4:{m2}",
        "TEAM-MACH-1",
        "already has 2 games",
    )
    accepted = await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m1} m3:{m2} m4:{m2}", "a1")
    assert "declared round 3" in accepted


async def test_scores_as_captains_write_them(night: Night) -> None:
    """COMMON-SCORE-1, COMMON-AMB-3: `/score` reads thousands grouped by commas, periods or spaces; a refusal names
    the field and its player and what was typed, and stores nothing; shorthand counts once the commissioner
    allows it with `/league config`, which a captain cannot."""
    await four_each_checked_in(night)
    m1, m2, _ = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    game = f"/score match:{night.match_id} round:1 game:1"

    before = await night.league.row_counts()
    typo = await night.league.run(f'{game} home1:45,210,330 home2:"45 210 330" away1:45.2.1 away2:1', as_member="h1")
    assert typo.ephemeral and "Away 1 (A1): '45.2.1' is not a score" in typo.content, typo.content
    assert "45.2M" not in typo.content  # shorthand is no example where the league refuses it
    short = await night.league.run(f"{game} home1:45.2M home2:1 away1:1 away2:1", as_member="h1")
    assert short.ephemeral and "Home 1 (H1): '45.2M' is shorthand" in short.content, short.content
    assert await night.league.row_counts() == before

    captain = await night.league.run("/league config allow_shorthand:true", as_member="h1")
    assert captain.ephemeral and "COMMON-ROLE-1" in captain.content, captain.content
    assert "shorthand like 45.2M" in await night.run("/league config allow_shorthand:true", "alice")
    echo = await night.run(f'{game} home1:45.2M home2:"45 210 330" away1:45.210.330 away2:450k', "h1")
    assert "H1 45,200,000, H2 45,210,330, A1 45,210,330, A2 450,000" in echo, echo


async def test_playoff_lineups_need_a_regular_season_game(night: Night) -> None:
    """TEAM-PO-3, TEAM-AMB-15, TEAM-TV-21: a player who never played for the team in the regular season
    is neither offered nor accepted in a playoff lineup."""
    async with night.league.db.writing() as session:
        regular = await session.get(Match, night.match_id)
        assert regular is not None
        players = {p.display_name: p.id or 0 for p in (await session.exec(select(Player))).all()}
        for round_index, name in enumerate(["H1", "H2", "H3", "H4", "A1", "A2", "A3", "A4"], start=1):
            side = Side.HOME if name.startswith("H") else Side.AWAY
            session.add(
                GameScore(
                    match_id=night.match_id, round_index=round_index, game_number=1, side=side,
                    player_id=players[name], score=1_000_000, entered_by=1, entered_at=at(21),
                )
            )  # fmt: skip
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
    for name in ["h1", "h2", "h3", "h5", *AWAY[:4]]:
        await night.league.run(f"/checkin match:{semifinal_id}", as_member=name)
    clock.set(datetime(2027, 3, 10, 20, 1, tzinfo=NEW_YORK))
    m1, m2, _ = night.machines
    await night.league.run(f"/lineup match:{semifinal_id} p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", as_member="a1")
    offered = await night.league.emulator.autocomplete(
        f"/lineup match:{semifinal_id} p1:", focused="p1", as_member="h1"
    )
    assert sorted(choice["name"] for choice in offered) == ["H1", "H2", "H3"]
    refused = await night.league.run(f"/lineup match:{semifinal_id} p1:H1 p2:H2 p3:H3 p4:H5", as_member="h1")
    assert "Rule TEAM-PO-3" in refused.content and "H5 did not play in the regular season" in refused.content


async def test_a_removed_machine_never_comes_back(night: Night) -> None:
    """TEAM-MACH-3, TEAM-MACH-4, TEAM-TV-16 (d) and (e): removal needs both captains and two other machines."""
    await four_each_checked_in(night)
    m1, m2, m3 = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m3}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    unagreed = await night.run(
        f'/match machine match:MATCH machine:{m2} kind:removed agreed:false reason:"weak flipper"', "h1"
    )
    assert "Rule TEAM-MACH-3" in unagreed
    assert "out of this match" in await night.run(
        f'/match machine match:MATCH machine:{m2} kind:removed agreed:true reason:"weak left flipper"', "h1"
    )
    for game in (1, 2):
        await enter_and_confirm(night, 1, game, ("2", "2"), ("1", "1"))
    picked = await night.run(f"/lineup match:MATCH p1:H1 p2:H3 p3:H2 p4:H4 m1:{m1} m2:{m2}", "h1")
    assert "was removed from this match" in picked and "TEAM-MACH-3" in picked  # (d)
    offered = await night.league.emulator.autocomplete(
        f"/lineup match:{night.match_id} m1:", focused="m1", as_member="h1"
    )
    assert m2 not in [choice["value"] for choice in offered]
    only_one_left = await night.run(
        f'/match machine match:MATCH machine:{m1} kind:removed agreed:true reason:"loud"', "a1"
    )
    assert "≥2 other machines" in only_one_left  # (e): M1 and M3 left, removing M1 would leave one
    major = await night.run(
        f'/match machine match:MATCH machine:{m1} kind:eliminated agreed:true reason:"stuck flipper"', "a1"
    )
    assert "out of this match" in major  # TEAM-MACH-4: another machine (M3) still works


async def test_a_player_on_two_playoff_teams_is_locked_to_the_first(night: Night) -> None:
    """TEAM-MULTI-2, TEAM-TV-22: H2 also plays Thursdays for Night Owls (same conference). After a playoff
    lineup for Flipper Kings names H2, a Night Owls playoff lineup naming H2 is refused."""
    async with night.league.db.writing() as session:
        regular = await session.get(Match, night.match_id)
        assert regular is not None
        players = {p.display_name: p.id or 0 for p in (await session.exec(select(Player))).all()}
        owls = Team(league_id=regular.league_id, name="Night Owls", name_key="night owls", match_weekday=3)
        session.add(owls)
        await session.flush()
        owls_id = owls.id or 0
        dan = Player(
            league_id=regular.league_id, discord_user_id=night.league.emulator.member("dan").id, display_name="Dan",
            registered_at=at(12),
        )  # fmt: skip
        session.add(dan)
        await session.flush()
        players["Dan"] = dan.id or 0
        owls_roster = (("H2", RosterRole.STARTER), ("A5", RosterRole.CAPTAIN), ("A6", RosterRole.STARTER))
        for name, role in (*owls_roster, ("Dan", RosterRole.STARTER)):
            session.add(RosterEntry(
                league_id=regular.league_id, season_id=regular.season_id, team_id=owls_id, player_id=players[name],
                role=role, starts_on=date(2027, 3, 1),
            ))  # fmt: skip
        owls_regular = Match(
            league_id=regular.league_id, season_id=regular.season_id, week=1, play_on=date(2027, 3, 4),
            home_team_id=owls_id, away_team_id=regular.away_team_id, venue_id=regular.venue_id,
        )  # fmt: skip
        session.add(owls_regular)
        await session.flush()
        played = [(night.match_id, Side.HOME, "H2")] + [
            (owls_regular.id or 0, Side.HOME, n) for n in ("H2", "A5", "A6", "Dan")
        ]
        played += [(owls_regular.id or 0, Side.AWAY, n) for n in ("A1", "A2", "A3", "A4")]
        for match_id, side, name in played:  # H2 played a regular-season game for both teams (TEAM-PO-3)
            session.add(GameScore(
                match_id=match_id, round_index=1, game_number=1, side=side, player_id=players[name],
                score=1, entered_by=1, entered_at=at(21),
            ))  # fmt: skip
        kings_semifinal, owls_semifinal = (
            Match(
                league_id=regular.league_id,
                season_id=regular.season_id,
                week=2,
                play_on=day,
                home_team_id=home,
                away_team_id=regular.away_team_id,
                venue_id=regular.venue_id,
                kind=MatchKind.PLAYOFF,
            )
            for home, day in ((regular.home_team_id, date(2027, 3, 10)), (owls_id, date(2027, 3, 11)))
        )
        session.add_all([kings_semifinal, owls_semifinal])
        await session.flush()
        session.add(MatchLineup(
            match_id=kings_semifinal.id or 0, round_index=1, side=Side.HOME, declared_at=at(21),
            games=[{"players": [players["H2"], players["H1"]], "machine": None}, {"players": [], "machine": None}],
        ))  # fmt: skip
        owls_match = owls_semifinal.id or 0
    night.league.emulator.grant_role("a5", "Captain")
    clock = night.league.bot.clock
    assert isinstance(clock, ManualClock)
    clock.set(datetime(2027, 3, 11, 19, 50, tzinfo=NEW_YORK))
    for name in ("h2", "a6", "dan", "a1", "a2", "a3", "a4"):
        await night.league.run(f"/checkin match:{owls_match} member:@{name}", as_member="alice")
    await night.league.run(f"/checkin match:{owls_match}", as_member="a5")
    clock.set(datetime(2027, 3, 11, 20, 1, tzinfo=NEW_YORK))
    m1, m2, _ = night.machines
    away = await night.league.run(f"/lineup match:{owls_match} p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", as_member="a1")
    assert "declared round 1" in away.content, away.content
    refused = await night.league.run(f"/lineup match:{owls_match} p1:H2 p2:A5 p3:A6 p4:Dan", as_member="a5")
    assert "Rule TEAM-MULTI-2" in refused.content and "H2 is locked to Flipper Kings" in refused.content, (
        refused.content
    )
    async with night.league.db.reading() as session:
        stored = (await session.exec(select(MatchLineup).where(MatchLineup.match_id == owls_match))).all()
    assert [row.side for row in stored] == [Side.AWAY]  # the refused HOME lineup left nothing behind


async def test_a_replay_replaces_the_first_score_even_when_lower(night: Night) -> None:
    """TEAM-MACH-6 and TEAM-PEN-1: the replay counts even when lower; the opposing captain confirms it."""
    await four_each_checked_in(night)
    m1, m2, _ = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    await enter_and_confirm(night, 1, 1, ("30,000,000", "20,000,000"), ("26,000,000", "23,000,000"))
    assert await match_points(night) == {Side.HOME: 2, Side.AWAY: 0}
    missing = await night.run("/match replay match:MATCH round:1 game:2 member:@h1 score:1", "h1")
    assert "has no score in round 1 game 2" in missing
    replayed = await night.league.run(
        f"/match replay match:{night.match_id} round:1 game:1 member:@h1 score:12,000,000", as_member="h1"
    )
    assert "replaces the first score" in replayed.content
    confirmed = await night.league.emulator.click(replayed, f"score:confirm:{night.match_id}:1:1", as_member="a1")
    assert "confirmed by A1" in confirmed.text()
    # COMMON-SCORE-2: H1's replay has status REPLAY_REPLACES, so its lower 12M counts: 12M + 20M < 26M + 23M
    assert await match_points(night) == {Side.HOME: 0, Side.AWAY: 2}
    # The away captain enters a replay for his own player: he cannot confirm it; the home captain does.
    own = await night.league.run(
        f"/match replay match:{night.match_id} round:1 game:1 member:@a2 score:1", as_member="a1"
    )
    refused = await night.league.emulator.click(own, f"score:confirm:{night.match_id}:1:1", as_member="a1")
    assert "the captain who entered them cannot" in refused.text()
    accepted = await night.league.emulator.click(own, f"score:confirm:{night.match_id}:1:1", as_member="h1")
    assert "confirmed by H1" in accepted.text()
    assert await match_points(night) == {Side.HOME: 2, Side.AWAY: 0}  # 12M + 20M > 26M + 1


async def test_a_game_whose_machine_fails_is_replayed_on_a_new_machine(night: Night) -> None:
    """TEAM-MACH-5 (with TEAM-MACH-4): the team that picked the machine names the new one, the game is replayed,
    and the scores entered before the failure no longer count."""
    await four_each_checked_in(night)
    m1, m2, m3 = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    await night.run("/score match:MATCH round:1 game:1 home1:9,000,000 home2:9,000,000 away1:1 away2:1", "h1")
    assert await match_points(night) == {Side.HOME: 2, Side.AWAY: 0}
    await night.run(
        f'/match machine match:MATCH machine:{m1} kind:eliminated agreed:true reason:"dead playfield"', "a1"
    )
    early = await night.run("/match replace match:MATCH round:1 game:1", "h1")
    assert "Waiting for Tilt Warriors to pick the replacement machine" in early and "TEAM-MACH-5" in early
    assert "will be replayed" in await night.run(f"/match replace match:MATCH round:1 game:1 machine:{m3}", "a1")
    assert await match_points(night) == {Side.HOME: 0, Side.AWAY: 0}  # the first scores are VOID
    locked = await night.run(f"/match replace match:MATCH round:1 game:1 machine:{m2}", "a1")
    assert "TEAM-LINEUP-4" in locked
    await enter_and_confirm(night, 1, 1, ("1", "1"), ("5,000,000", "5,000,000"))
    assert await match_points(night) == {Side.HOME: 0, Side.AWAY: 2}
    board = await night.run("/match show match:MATCH", "h1")
    assert "Attack from Mars: A1 5,000,000 + A2 5,000,000" in board and "9,000,000" not in board
    # A game already played and confirmed is not replayed when its machine fails afterwards.
    await night.run(f'/match machine match:MATCH machine:{m3} kind:eliminated agreed:true reason:"died later"', "a1")
    finished = await night.run(f"/match replace match:MATCH round:1 game:1 machine:{m2}", "a1")
    assert "is finished and confirmed" in finished and "TEAM-MACH-5" in finished
    assert await match_points(night) == {Side.HOME: 0, Side.AWAY: 2}
