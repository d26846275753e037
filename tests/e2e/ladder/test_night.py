"""One ladder league night for 10 players through the local Discord emulator: groups posted by skill
(LADDER-GROUP-1/2), game selection with picks (LADDER-GSEL-2/3/4), scores entered by the players
(LADDER-SCORE-1, COMMON-SCORE-1), one absent player on premakeups (LADDER-PMU-1/2/3/6) and half-normalizer
ghosts (LADDER-GHOST-1/5), the night closed with points, match bonus and TNS (LADDER-BONUS-2/4,
LADDER-NORM-2), the weekly payout (LADDER-PAY-1/2) and next week's groups with a double swap
(LADDER-GROUP-3/4)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from fractions import Fraction
from zoneinfo import ZoneInfo

import pytest
from sqlmodel import col, select

from bot.clock import ManualClock
from storage.db import Database
from storage.ladder import LadderLedger, LadderNight, LadderPlayer, LadderResult, LadderScore, LedgerKind
from storage.models import AuditEntry, Player
from tests.e2e.harness import RunningBot, running_bot
from tests.e2e.season import refused

NEW_YORK = ZoneInfo("America/New_York")
NIGHT = datetime(2027, 3, 3, 12, 0, tzinfo=NEW_YORK)  # a Wednesday
MACHINES = ["Attack from Mars", "Black Knight", "Cirqus Voltaire", "Demolition Man", "Elvira", "Funhouse"]
NORMALIZER = 20_000_000
PLAYERS = [f"p{n}" for n in range(1, 11)]  # skill 10, 9, … 1: p1 is the best
M = 1_000_000
SCORES = {0: 50 * M, 1: 20 * M, 2: 10 * M}  # by place in the group; p1 scores 60M, ahead of p4 on TNS


@pytest.fixture
async def ladder(sqlite_db: Database) -> AsyncIterator[RunningBot]:
    async with running_bot(sqlite_db) as league:
        clock = league.bot.clock
        assert isinstance(clock, ManualClock)
        clock.set(NIGHT)
        league.emulator.quiet_window = 0.001
        created = await league.run(
            '/league create name:"Jersey Ladder" format:ladder commissioner_role:@Commissioner', as_member="owner"
        )
        assert "Jersey Ladder" in created.content, created.content
        await league.run('/venue add name:"The Break"', as_member="alice")
        for machine in MACHINES:
            await league.run(f'/machine add venue:"The Break" model:"{machine}"', as_member="alice")
            await ok(league, f'/ladder normalizer machine:"{machine}" value:20,000,000', "alice")
        for number, name in enumerate(PLAYERS):
            league.emulator.add_member(name)
            await ok(league, f"/ladder join skill:{10 - number}", name)
        yield league


async def ok(league: RunningBot, line: str, member: str) -> str:
    result = await league.run(line, as_member=member)
    assert not result.content.startswith("⛔") and "Something went wrong" not in result.text(), (line, result.text())
    return result.text()


async def test_ten_player_night_with_an_absent_player_on_premakeups(ladder: RunningBot) -> None:
    """LADDER-REG-2, LADDER-GROUP-1/2, LADDER-ORDER-1, LADDER-ORDER-2, LADDER-GSEL-2/3/4, LADDER-ATT-1,
    LADDER-PMU-1/3/6, LADDER-GHOST-1/5, LADDER-AMB-10, LADDER-BONUS-2/4, LADDER-NORM-2, LADDER-PAY-1/2,
    LADDER-GROUP-3/4."""
    await refused(ladder, "/ladder join skill:11", as_member="owner", rule="LADDER-REG-2", message="from 1")

    # p10 will miss the night: two premakeup games on Attack from Mars, declared first (LADDER-PMU-1)
    await refused(
        ladder, '/ladder premakeup record machine:"Attack from Mars" score:8000000', as_member="p10",
        rule="LADDER-PMU-1", message="Declare the premakeup game",
    )  # fmt: skip
    for score in ("8,000,000", "12,000,000"):
        await ok(ladder, '/ladder premakeup declare machine:"Attack from Mars" with:"bob and carol"', "p10")
        await ok(ladder, f'/ladder premakeup record machine:"Attack from Mars" score:{score}', "p10")
    await refused(
        ladder, '/ladder premakeup declare machine:"Attack from Mars" with:bob', as_member="p10",
        rule="LADDER-PMU-1", message="You already have 2 premakeup games on Attack from Mars",
    )  # fmt: skip
    shown = await ok(ladder, "/ladder premakeup show", "p10")
    # LADDER-PMU-2: the machine's third value is AVG = round10((8M + 12M) / 2) = 10M
    assert "S1 8,000,000 · S2 12,000,000 · AVG 10,000,000" in shown, shown
    await ok(ladder, "/ladder absent", "p10")

    opened = await ladder.run("/ladder night open", as_member="alice")
    posted = opened.text().lower()
    assert not opened.ephemeral and "week 1 groups" in posted, posted
    assert "group 1: #1 p1\n#2 p2\n#3 p3\ngame 1 order: p3, p2, p1" in posted, posted  # GROUP-2, ORDER-1
    assert "#7 p7\n#8 p8\n#9 p9\n#10 p10" in posted, posted  # 10 players → 3, 3, 4 (LADDER-GROUP-1)

    for name in PLAYERS[:9]:
        await ok(ladder, "/ladder checkin", name)
    await refused(
        ladder, "/ladder score game:1 score:1000", as_member="p10", rule="LADDER-ATT-1", message="has not checked in"
    )

    # Six working machines: each group leaves one out; the worst-placed present player picks first (GSEL-3)
    for group in (["p3", "p2", "p1"], ["p6", "p5", "p4"], ["p9", "p8", "p7"]):
        await refused(
            ladder, '/ladder games pick game:"Elvira"', as_member=group[1], rule="LADDER-GSEL-3",
            message="Not your turn",
        )  # fmt: skip
        for picker, game in zip(group, ["Funhouse", "Funhouse", "Elvira"], strict=True):
            picked = await ok(ladder, f'/ladder games pick game:"{game}"', picker)
        assert "Tonight's games: 1. Attack from Mars, 2. Black Knight" in picked, picked
        assert "Funhouse" not in picked.split("Tonight's games:")[1]

    groups = {1: ["p1", "p2", "p3"], 2: ["p4", "p5", "p6"], 3: ["p7", "p8", "p9"]}
    for game in range(1, 6):  # group 1 enters game by game
        for place, name in enumerate(groups[1]):
            score = 60 * M if name == "p1" else SCORES[place]
            entered = await ok(ladder, f"/ladder score game:{game} score:{score:,}", name)
            assert f"game {game}" in entered and f"**{score:,}**" in entered  # echoed with commas (COMMON-SCORE-1)
            if name == "p3" and game < 5:  # the game is complete: reverse finishing order next (LADDER-ORDER-2)
                assert f"game {game + 1} order: p3, p2, p1" in entered.lower(), entered
    for players in (groups[2], groups[3]):  # the others enter the whole scoresheet at once
        for place, name in enumerate(players):
            await ok(ladder, f'/ladder score game:1 score:"{" ".join([str(SCORES[place])] * 5)}"', name)
    await refused(ladder, '/ladder score game:4 score:"1 2 3"', as_member="p4", rule=None, message="do not fit")

    closed = await ladder.run("/ladder night close", as_member="alice")
    summary = closed.text()
    assert "week 1 final" in summary, summary
    assert "Week 2 groups" in summary, summary

    results = await results_by_name(ladder)
    # 3-player groups: 4-2-0 every game (50 > 20 + 10) → 20/10/0; bonus 4/2/0 → TLP 24/12/0 (LADDER-TV-11)
    for players in (groups[1], groups[2]):
        assert [results[p].game_points for p in players] == [20, 10, 0]
        # LADDER-BONUS-1: ranked by week game points, the winner gets the bonus's 4 and the loser 0
        assert [results[p].bonus for p in players] == [4, 2, 0]
    # Group 3 with p10 absent: Attack from Mars on p10's highest premakeup (12M, LADDER-AMB-7): 50, 20, 12, 10
    # → 4, 2, 1, 1 (20 > 12 + 10 is false: 4th +1). The other four games: ghost at 10M, level with p9's 10M, so
    # p9 goes ahead (LADDER-AMB-10); 20 > 10 + 10 false → the 4th's point falls to the ghost and is lost.
    # LADDER-SCORE-3: absent p10 has no usable premakeup for the other four games, so 0 points in each
    assert [results[p].game_points for p in ("p7", "p8", "p9", "p10")] == [20, 10, 5, 1]
    assert [results[p].bonus for p in ("p7", "p8", "p9", "p10")] == [5, 3, 1, 0]  # LADDER-BONUS-2, 4 players
    assert Fraction(results["p10"].tns) == Fraction(12, 20)  # premakeup counts, ghosts 0 (LADDER-NORM-2)
    assert Fraction(results["p7"].tns) == Fraction(5 * 50, 20)
    assert Fraction(results["p1"].tns) == 15
    assert results["p10"].presence.value == "premakeup"
    # LADDER-PMU-7: no premakeup was ever recorded on the other four machines, so p10 is a half-normalizer ghost
    # there with 0 points (LADDER-GHOST-6: placement and official side by side)
    assert [g["kind"] for g in results["p10"].games] == ["premakeup"] + ["half_ghost"] * 4
    assert [g["points"] for g in results["p10"].games] == [1, 0, 0, 0, 0]

    async with ladder.db.reading() as session:
        night = (await session.exec(select(LadderNight))).one()
        ledger = (await session.exec(select(LadderLedger).order_by(col(LadderLedger.id)))).all()
        p10 = (
            await session.exec(
                select(LadderPlayer).where(LadderPlayer.player_id == Player.id, Player.display_name == "P10")
            )
        ).one()
    assert p10.premakeup_uses == 1 and p10.missed_weeks == 1  # LADDER-PMU-5/9
    assert p10.no_shows == 0  # LADDER-ATT-4: p10 told the league beforehand (`/ladder absent`): not a No-Show
    # LADDER-AMB-20: absent p10 owes the dues too, so the pot is half of 10 x $6.00 (LADDER-PAY-1)
    assert night.pot_cents == 3_000
    payouts = [(row.ladder_player_id, row.cents) for row in ledger if row.kind is LedgerKind.PAYOUT]
    assert [cents for _, cents in payouts] == [2_250, 750]  # p7 (TLP 25), then p1 over p4 on TNS (LADDER-PAY-2)
    assert sum(row.cents for row in ledger if row.kind is LedgerKind.DUES) == 6_000

    nextweek = (await ladder.run("/ladder groups", as_member="p5")).text().lower()
    # LADDER-GROUP-3: p4 up, p3 down; LADDER-GROUP-4: G3 has 4, so p7 and p8 (10 points) go up, p6 and p5
    # (10 points) come down. LADDER-AMB-12: the double swap applies though only the lower group has 4, and the
    # 10 points are week game points without the bonus (p5 has 10 + 2)
    assert "groups for week 2" in nextweek, nextweek
    blocks = nextweek.split("group ")[1:]
    members = [sorted(part.split()[1] for part in block.split("#")[1:]) for block in blocks]
    assert members == [["p1", "p2", "p4"], ["p3", "p7", "p8"], ["p10", "p5", "p6", "p9"]]


async def test_leftover_cents_of_the_pot_are_paid_down_the_finishing_order(ladder: RunningBot) -> None:
    """COMMON-AMB-2, LADDER-PAY-1/2: $1.99 dues from 10 players make a 995¢ pot; over 65/25/10 it floors to
    646 / 248 / 99 and the two cents left go to 1st and 2nd: 647 / 249 / 99 (not 648 / 248 / 99)."""
    await ok(ladder, "/ladder option name:weekly_dues_cents value:199", "alice")
    await ok(ladder, "/ladder option name:small_league_split value:65,25,10", "alice")
    await ok(ladder, "/ladder night open", "alice")
    five = "Attack from Mars, Black Knight, Cirqus Voltaire, Demolition Man, Funhouse"
    for group in (1, 2, 3):
        await ok(ladder, f'/ladder games set group:{group} games:"{five}"', "alice")
    for number, name in enumerate(PLAYERS):
        await ok(ladder, "/ladder checkin", name)
        await ok(ladder, f'/ladder score game:1 score:"{" ".join([f"{20 - number},000,000"] * 5)}"', name)
    await ok(ladder, "/ladder night close", "alice")
    async with ladder.db.reading() as session:
        night = (await session.exec(select(LadderNight))).one()
        ledger = (await session.exec(select(LadderLedger).order_by(col(LadderLedger.id)))).all()
    assert night.pot_cents == 995
    assert [row.cents for row in ledger if row.kind is LedgerKind.PAYOUT] == [647, 249, 99]


async def test_group_winners_level_on_tlp_and_tns_share_their_places_and_are_flagged(ladder: RunningBot) -> None:
    """LADDER-PAY-2, LADDER-NORM-4, COMMON-NOTIFY-1: groups 1 and 2 play to the same scores, so their winners p1
    and p4 are level on week TLP and TNS behind p7 (more TNS). Over 65/25/10 of a 995¢ pot (647 / 249 / 99) they
    share 2nd and 3rd, 174 each; the commissioners are told."""
    await ok(ladder, "/ladder option name:weekly_dues_cents value:199", "alice")
    await ok(ladder, "/ladder option name:small_league_split value:65,25,10", "alice")
    await ok(ladder, "/ladder night open", "alice")
    five = "Attack from Mars, Black Knight, Cirqus Voltaire, Demolition Man, Funhouse"
    for group in (1, 2, 3):
        await ok(ladder, f'/ladder games set group:{group} games:"{five}"', "alice")
    for number, name in enumerate(PLAYERS):
        millions = 20 - number % 3 if number < 6 else 30 - number  # groups 1 and 2 mirror each other
        await ok(ladder, "/ladder checkin", name)
        await ok(ladder, f'/ladder score game:1 score:"{" ".join([f"{millions},000,000"] * 5)}"', name)
    closed = await ok(ladder, "/ladder night close", "alice")
    assert "P1 and P4 are level on week TLP and TNS" in closed, closed
    async with ladder.db.reading() as session:
        ledger = (await session.exec(select(LadderLedger).order_by(col(LadderLedger.id)))).all()
        flags = (await session.exec(select(AuditEntry).where(AuditEntry.action == "payout_tie"))).all()
    assert [row.cents for row in ledger if row.kind is LedgerKind.PAYOUT] == [647, 174, 174]
    assert [flag.after for flag in flags] == [{"week": 1, "players": ["P1", "P4"], "cents": [174, 174]}]


async def test_commissioners_change_options_within_the_rules(ladder: RunningBot) -> None:
    """COMMON-LEAGUE-1 / LADDER-AMB-4 / LADDER-AMB-30: the AMB defaults are league options; a value the rules
    cannot accept is refused and changes nothing; players may read them."""
    changed = await ok(ladder, "/ladder option name:pmu_4th_point value:to_third", "alice")
    assert "pmu_4th_point = to_third" in changed, changed
    await refused(
        ladder, "/ladder option name:small_league_split value:80,25", as_member="alice", rule=None,
        message="small_league_split cannot be",
    )  # fmt: skip
    await refused(ladder, "/ladder option name:colour value:red", as_member="alice", rule=None, message="No option")
    await refused(
        ladder, "/ladder option name:case2 value:case2_to_third", as_member="p1", rule="COMMON-ROLE-1",
        message="Only commissioners",
    )  # fmt: skip
    await ok(ladder, "/ladder option name:choose_position value:true", "alice")
    listed = await ok(ladder, "/ladder option", "p1")
    assert "`pmu_4th_point` = to_third" in listed and "`case2` = case2_literal" in listed, listed
    opened = (await ladder.run("/ladder night open", as_member="alice")).text()
    assert "players choose their position" in opened, opened


async def test_rulings_zero_scores_and_flag_repeat_slams(ladder: RunningBot) -> None:
    """LADDER-AMB-15 (the commissioner sets a group's games), LADDER-PEN-4 (death save → 0), LADDER-PEN-5 (the
    2nd tilted ball of the night zeroes the offender), LADDER-PEN-6 (a 2nd intentional slam flags an expulsion
    review), LADDER-SCORE-4, and LADDER-PEN-3 (no rulings once the night is closed)."""
    await ok(ladder, "/ladder night open", "alice")
    five = "Attack from Mars, Black Knight, Cirqus Voltaire, Demolition Man, Funhouse"
    for group in (1, 2, 3):
        set_games = await ok(ladder, f'/ladder games set group:{group} games:"{five}"', "alice")
        assert "5. Funhouse" in set_games, set_games
    await refused(
        ladder, '/ladder games set group:1 games:"Elvira"', as_member="alice", rule="LADDER-GSEL-2",
        message="Name 5 games",
    )  # fmt: skip
    for number, name in enumerate(PLAYERS):
        await ok(ladder, "/ladder checkin", name)
        games = [f"{20 - number},000,000"] * 5
        if name == "p2":
            games[4] = "20,000,000"  # level with p1 in game 5: a one-ball playoff (LADDER-AMB-5)
        await ok(ladder, f'/ladder score game:1 score:"{" ".join(games)}"', name)
    death = await ok(ladder, "/ladder penalty game:2 offence:death_save player:@p2", "p1")
    assert "Their score for the game is 0" in death, death  # LADDER-PEN-4: p2's death save zeroes the game
    first = await ok(ladder, "/ladder penalty game:1 offence:tilted_anothers_ball player:@p3", "p1")
    assert "higher of the two scores" in first and "is 0" not in first, first
    second = await ok(ladder, "/ladder penalty game:3 offence:tilted_anothers_ball player:@p3", "alice")
    assert "Their score for the game is 0" in second, second
    slam = await ok(ladder, "/ladder penalty game:1 offence:slam_intentional player:@p4", "alice")
    assert "The others replay without the slammer" in slam, slam  # LADDER-AMB-27: the others' replay counts
    repeat = await ok(ladder, "/ladder penalty game:2 offence:slam_intentional player:@p4", "alice")
    assert "expulsion" in repeat, repeat
    await refused(
        ladder, "/ladder penalty game:2 offence:death_save player:@p2", as_member="p1", rule=None,
        message="already recorded",
    )  # fmt: skip
    scores = {(name, game): score for name, game, score in await scores_by_name(ladder)}
    assert scores[("p2", 2)] == 0 and scores[("p3", 3)] == 0 and scores[("p3", 1)] == 18_000_000
    assert scores[("p4", 1)] == 0 and scores[("p4", 2)] == 0
    await refused(
        ladder, "/ladder night close", as_member="alice", rule="LADDER-AMB-5", message="game 5: P1 and P2 tied"
    )
    # a playoff winner only where there is a tie, and only one of the players level (LADDER-AMB-5)
    await refused(
        ladder, "/ladder tiebreak game:4 winner:@p2", as_member="p1", rule="LADDER-AMB-5",
        message="P2 is not level with anyone in game 4",
    )  # fmt: skip
    await refused(
        ladder, "/ladder tiebreak game:5 winner:@p3", as_member="p1", rule="LADDER-AMB-5",
        message="P3 is not level with anyone in game 5",
    )  # fmt: skip
    await ok(ladder, "/ladder tiebreak game:5 winner:@p2", "p1")
    closed = await ok(ladder, "/ladder night close", "alice")
    assert "week 1 final" in closed, closed
    results = await results_by_name(ladder)
    assert [g["points"] for g in results["p2"].games] == [2, 0, 2, 2, 3]  # game 2 zeroed; 1st in game 5 by playoff
    await refused(
        ladder, "/ladder penalty game:4 offence:death_save player:@p5", as_member="alice", rule="LADDER-PEN-3",
        message="Problems must be raised during the match",
    )  # fmt: skip


async def scores_by_name(league: RunningBot) -> list[tuple[str, int, int]]:
    async with league.db.reading() as session:
        rows = (
            await session.exec(
                select(Player.display_name, LadderScore.slot, LadderScore.score).where(
                    LadderScore.ladder_player_id == LadderPlayer.id, LadderPlayer.player_id == Player.id
                )
            )
        ).all()
    return [(name.lower(), slot + 1, score) for name, slot, score in rows]


async def results_by_name(league: RunningBot) -> dict[str, LadderResult]:
    async with league.db.reading() as session:
        rows = (
            await session.exec(
                select(LadderResult, Player.display_name).where(
                    LadderResult.ladder_player_id == LadderPlayer.id, LadderPlayer.player_id == Player.id
                )
            )
        ).all()
    return {name.lower(): result for result, name in rows}


async def test_checkin_reply_gives_the_time_on_the_league_clocks(ladder: RunningBot) -> None:
    """LADDER-ATT-1, COMMON-AMB-1: the arrival time a reply shows is New York's, in winter and in summer."""
    winter = await ladder.run("/ladder checkin", as_member="p1")  # Wed 3 March, 12:00 in New York (17:00 UTC)
    assert "P1 checked in for week 1 (noted at 12:00 EST)" in winter.text(), winter.text()
    clock = ladder.bot.clock
    assert isinstance(clock, ManualClock)
    clock.set(datetime(2027, 7, 7, 19, 5, tzinfo=NEW_YORK))  # 23:05 UTC
    summer = await ladder.run("/ladder absent late:true", as_member="p2")
    assert "(noted at 19:05 EDT)" in summer.text() and "23:05" not in summer.text(), summer.text()
