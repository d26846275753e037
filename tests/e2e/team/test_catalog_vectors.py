"""The catalog's TEAM worked examples, each played with its own numbers through `/lineup`, `/score` and
`/match penalty` on a match night, and checked on the match's points."""

from __future__ import annotations

from sqlmodel import col, select

from bot.rules.team.model import Side
from bot.services.team import match_facts
from storage.matches import Match
from storage.models import League, Machine
from tests.e2e.team_night import (
    Night,
    checked_in,
    enter_and_confirm,
    four_each_checked_in,
    match_points,
    scoreboard,
)


async def _two_player_machine(night: Night) -> int:
    added = await night.run('/machine add venue:"Ace Arcade" model:"Bride of Pinbot" players:2', "alice")
    assert "Bride of Pinbot" in added, added
    async with night.league.db.reading() as session:
        return (await session.exec(select(Machine.id).order_by(col(Machine.id).desc()))).first() or 0


async def test_team_tv_3_a_disqualified_doubles_score_leaves_the_partners_alone(night: Night) -> None:
    await four_each_checked_in(night)
    m1, m2, _ = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    await enter_and_confirm(night, 1, 1, ("48,000,000", "20,000,000"), ("15,000,000", "10,000,000"))
    assert await match_points(night) == {Side.HOME: 2, Side.AWAY: 0}  # 68M–25M before the penalty
    await night.run("/match penalty match:MATCH round:1 game:1 offence:out_of_turn member:@h1", "a1")
    # TEAM-TV-3: H1 played out of turn, so H1's 48M is DQ and H2's 20M alone loses to AWAY's 25M: AWAY +2.
    assert await match_points(night) == {Side.HOME: 0, Side.AWAY: 2}


async def test_team_tv_4_doubles_on_a_two_player_machine_sums_the_one_on_one_scores(night: Night) -> None:
    await four_each_checked_in(night)
    small, m2 = await _two_player_machine(night), night.machines[1]
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{small} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    assert "played as 2 games: H1, A1; then H2, A2" in (await scoreboard(night)).text()
    await enter_and_confirm(night, 1, 1, ("40,000,000", "10,000,000"), ("25,000,000", "30,000,000"))
    # TEAM-TV-4 (default `tally=sum`): H1 beats A1 and A2 beats H2, but AWAY's 55M beats HOME's 50M: AWAY +2.
    assert await match_points(night) == {Side.HOME: 0, Side.AWAY: 2}


async def test_team_tv_23_a_short_teams_solo_on_a_two_player_machine_faces_the_pairs_sum(night: Night) -> None:
    await checked_in(night, "h1", "h2", "h3", "h4", "a1", "a2", "a3")
    small = await _two_player_machine(night)
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 m1:{night.machines[0]} m2:{small}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    assert "played as 2 games: H3, A3; then H4" in (await scoreboard(night)).text()
    await enter_and_confirm(night, 1, 2, ("30,000,000", "15,000,000"), ("40,000,000",))
    # TEAM-TV-23: A3 (the vector's Z) beats H3 in their 1-on-1, but HOME's 30M + 15M = 45M beats A3's 40M: HOME +2.
    assert await match_points(night) == {Side.HOME: 2, Side.AWAY: 0}


async def test_common_tv_5_a_confirmed_score_overridden_with_a_reason_keeps_both_values(night: Night) -> None:
    await four_each_checked_in(night)
    m1, m2, _ = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    await enter_and_confirm(night, 1, 1, ("12,000,000", "1,000,000"), ("10,000,000", "10,000,000"))
    assert await match_points(night) == {Side.HOME: 0, Side.AWAY: 2}  # 13M–20M as confirmed
    line = "/admin override score match:MATCH round:1 game:1 member:@h1 score:21,000,000 reason:{}"
    # COMMON-TV-5: an override with no reason is refused and changes nothing.
    assert "needs a reason" in await night.run(line.format('" "'), "alice")
    assert await match_points(night) == {Side.HOME: 0, Side.AWAY: 2}
    done = await night.run(line.format('"transposed digits"'), "alice")
    # COMMON-TV-5: the change is told with both values, recomputed (22M–20M: HOME +2) and logged with its reason.
    assert "round 1 game 1: 12,000,000 → 21,000,000" in done, done
    assert await match_points(night) == {Side.HOME: 2, Side.AWAY: 0}
    [logged] = [e for e in await night.league.audit() if e.action == "override"]
    assert (logged.before or {})["score"] == 12_000_000 and (logged.after or {})["score"] == 21_000_000
    assert logged.reason == "transposed digits"


async def test_team_tv_9_leaving_after_round_3_hands_over_or_drops_the_last_4_points(night: Night) -> None:
    await four_each_checked_in(night)
    m1, m2, m3 = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    for game in (1, 2):
        await enter_and_confirm(night, 1, game, ("3", "3"), ("1", "1"))
    await night.run(f"/lineup match:MATCH p1:H1 p2:H3 p3:H2 p4:H4 m1:{m1} m2:{m3}", "h1")
    await night.run("/lineup match:MATCH p1:A1 p2:A3 p3:A2 p4:A4", "a1")
    await enter_and_confirm(night, 2, 1, ("3", "3"), ("1", "1"))
    await enter_and_confirm(night, 2, 2, ("1", "1"), ("3", "3"))
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m1} m3:{m2} m4:{m3}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    await enter_and_confirm(night, 3, 1, ("5,000,000",), ("4,000,000",))
    for game in (2, 3, 4):
        await enter_and_confirm(night, 3, game, ("1,000,000",), ("2,000,000",))
    assert await match_points(night) == {Side.HOME: 7, Side.AWAY: 5}  # R4's 4 singles points unplayed
    await night.run("/match walkout match:MATCH side:away kind:refused", "alice")
    # TEAM-TV-9 (a): AWAY leaves, so HOME gets R4's 4 points: 11–5.
    assert await match_points(night) == {Side.HOME: 11, Side.AWAY: 5}
    await night.run("/match walkout match:MATCH side:home kind:refused", "alice")
    # TEAM-TV-9 (b): both refuse to go on: it stays 7–5, the 4 points go to no one, and HOME wins.
    assert await match_points(night) == {Side.HOME: 7, Side.AWAY: 5}
    assert "Tilt Warriors 5–7 **Flipper Kings**" in await night.run('/schedule show team:"Tilt Warriors"', "carol")


async def test_team_tv_6_both_teams_short_play_for_14_points_and_end_7_7(night: Night) -> None:
    await checked_in(night, "h1", "h2", "h3", "a1", "a2", "a3")
    m1, m2, m3 = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 m1:{m1} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p3:H2 p4:H3", "h1")
    await enter_and_confirm(night, 1, 1, ("1",), ("3", "3"))  # H-solo vs A-pair → A
    await enter_and_confirm(night, 1, 2, ("3", "3"), ("1",))  # H-pair vs A-solo → H
    await night.run(f"/lineup match:MATCH p1:H1 p2:H2 p3:H3 m1:{m1} m2:{m3}", "h1")
    await night.run("/lineup match:MATCH p1:A2 p3:A1 p4:A3", "a1")
    await enter_and_confirm(night, 2, 1, ("3", "3"), ("1",))
    await enter_and_confirm(night, 2, 2, ("1",), ("3", "3"))
    assert await match_points(night) == {Side.HOME: 4, Side.AWAY: 4}
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 m1:{m1} m2:{m1} m3:{m2} m4:{m3}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3", "h1")
    await night.run(f"/lineup match:MATCH p1:H3 p2:H2 p3:H1 m1:{m2} m2:{m2} m3:{m3} m4:{m1}", "h1")
    await night.run("/lineup match:MATCH p1:A3 p2:A2 p3:A1", "a1")
    for round_index, winners in ((3, "HHA"), (4, "HAA")):
        for game, winner in enumerate(winners, start=1):
            home, away = ("2",), ("1",)
            await enter_and_confirm(night, round_index, game, *((home, away) if winner == "H" else (away, home)))
    async with night.league.db.reading() as session:
        match = await session.get(Match, night.match_id)
        assert match is not None
        context = await match_facts.context_for(session, (await session.exec(select(League))).one(), match)
        level = await match_facts.result(session, context, night.league.bot.clock.now())
    # TEAM-TV-6: both short: game 4 of each Singles round is empty on both sides, so 8 + 3 + 3 = 14 points are
    # played for; R3 6–5, R4 7–7, and the level match goes to a tie-breaker game.
    assert dict(level.points) == {Side.HOME: 7, Side.AWAY: 7} and level.available_points == 14
    assert level.needs_tiebreaker and not level.final
