"""Absent players on a ladder night of ten, through Discord: one without premakeups in group 1 and one who wins
group 2 on premakeups, and what that does to next week's groups and the weekly payout."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import col, select

from bot.clock import ManualClock
from storage.ladder import LadderLedger, LadderPlayer, LadderResult, LadderStatus, LedgerKind
from tests.e2e.harness import RunningBot
from tests.e2e.ladder.conftest import FIVE, open_night
from tests.e2e.ladder.test_night import PLAYERS, ok, results_by_name
from tests.e2e.season import refused


async def test_absent_players_keep_their_group_or_move_up_on_premakeups_and_an_absent_winner_is_not_paid(
    ten_players: RunningBot,
) -> None:
    league = ten_players
    for machine in FIVE:  # p5 plays one 50M premakeup on each machine before the night
        await ok(league, f'/ladder premakeup declare machine:"{machine}" with:"bob and carol"', "p5")
        await ok(league, f'/ladder premakeup record machine:"{machine}" score:50,000,000', "p5")
    for name in ("p2", "p5"):
        await ok(league, "/ladder absent", name)
    await ok(league, "/ladder night open", "alice")
    for group in (1, 2, 3):
        await ok(league, f'/ladder games set group:{group} games:"{", ".join(FIVE)}"', "alice")
    millions = {"p1": 20, "p3": 30, "p4": 20, "p6": 10, "p7": 40, "p8": 30, "p9": 20, "p10": 10}
    for name, score in millions.items():
        await ok(league, "/ladder checkin", name)
        await ok(league, f'/ladder score game:1 score:"{" ".join([f"{score},000,000"] * 5)}"', name)
    await ok(league, "/ladder night close", "alice")

    results = await results_by_name(league)
    # LADDER-SCORE-2: p5's 50M premakeups beat p4 and p6 together (20M + 10M) in every game, but a premakeup
    # 1st never gets the decisive point: 3 + 3 + 3 + 3 + 3, not 4 a game
    assert [results[p].game_points for p in ("p5", "p4", "p6")] == [15, 10, 0]
    async with league.db.reading() as session:
        ledger = (await session.exec(select(LadderLedger).order_by(col(LadderLedger.id)))).all()
    # LADDER-PAY-3: p5 wins group 2 on premakeups, but an absent winner is not paid; p3 (group 1) and p7
    # (group 3) take the 75/25 of the pot
    assert [row.ladder_player_id for row in ledger if row.kind is LedgerKind.PAYOUT] == [3, 7]
    nextweek = (await league.run("/ladder groups", as_member="p1")).text().lower()
    members = [sorted(part.split()[1] for part in block.split("#")[1:]) for block in nextweek.split("group ")[1:]]
    # LADDER-GROUP-5: p2, absent without premakeups, stays in group 1 and the loser of the two present players,
    # p1, goes down in p2's place. LADDER-GROUP-6: p5 won group 2 on premakeups and moves up; the two present
    # players p4 and p6 go down to group 3, where p7 and p8 come up from (LADDER-GROUP-4)
    assert members == [["p2", "p3", "p5"], ["p1", "p7", "p8"], ["p10", "p4", "p6", "p9"]], members


async def play_night(league: RunningBot, week: int, away: set[str], *, close: bool = True, groups: int = 3) -> str:
    """Week `week` (a week after the last): every group on the same five games, the players not `away` 20M down to
    11M, p1 best; closed unless told not to. The reply of the last scoresheet entered."""
    await open_night(league, week, groups)
    entered = ""
    for number, name in enumerate(PLAYERS):
        if name not in away:
            await ok(league, "/ladder checkin", name)
            entered = await ok(league, f'/ladder score game:1 score:"{" ".join([f"{20 - number},000,000"] * 5)}"', name)
    if close:
        await ok(league, "/ladder night close", "alice")
    return entered


async def test_a_missing_second_premakeup_is_used_as_zero_and_closes_the_machine(ten_players: RunningBot) -> None:
    """p10 records one premakeup on Attack from Mars, a new machine joins the league, and p10 misses two nights."""
    league = ten_players
    await ok(league, '/ladder premakeup declare machine:"Attack from Mars" with:"bob and carol"', "p10")
    await ok(league, '/ladder premakeup record machine:"Attack from Mars" score:12,000,000', "p10")
    await ok(league, '/machine add venue:"The Break" model:"Twilight Zone"', "alice")
    await ok(league, '/ladder normalizer machine:"Twilight Zone" value:20,000,000', "alice")
    owing = await ok(league, '/ladder premakeup show machine:"Twilight Zone"', "p1")
    # LADDER-PMU-8: a machine added now is owed a premakeup by every active player; on Attack from Mars, all but p10
    assert ", ".join(f"P{n}" for n in range(1, 11)) in owing, owing
    owing = await ok(league, '/ladder premakeup show machine:"Attack from Mars"', "p1")
    assert ", ".join(f"P{n}" for n in range(1, 10)) in owing and "P10" not in owing.split("premakeup (")[-1], owing
    for week in (1, 2):
        await ok(league, "/ladder absent", "p10")
        await play_night(league, week, {"p10"})
    async with league.db.reading() as session:
        rows = (
            await session.exec(
                select(LadderResult).where(LadderResult.ladder_player_id == 10).order_by(col(LadderResult.night_id))
            )
        ).all()
    # LADDER-PMU-4: only S1 was recorded, so week 1 uses S1 (12M) and week 2 uses 0 for the missing S2
    assert [row.games[0]["placement"] for row in rows] == [12_000_000, 0], [row.games for row in rows]
    shown = await ok(league, "/ladder premakeup show", "p10")
    # LADDER-PMU-4: S2 := 0, AVG := round10(12M / 2), and the machine is closed to more premakeups
    assert "S1 12,000,000 · S2 0 · AVG 6,000,000" in shown and "closed after a zero was used" in shown, shown
    await refused(
        league, '/ladder premakeup declare machine:"Attack from Mars" with:"bob and carol"', as_member="p10",
        rule="LADDER-PMU-4", message="Premakeups on Attack from Mars are closed after a zero was used",
    )  # fmt: skip


async def test_a_third_no_show_drops_the_player_and_forfeits_the_dues(ten_players: RunningBot) -> None:
    league = ten_players
    for week in (1, 2):
        await play_night(league, week, {"p10"})
    # LADDER-ATT-5: with 2 No-Shows (no notice, no game) p10 is still playing
    assert await ladder_player(league, 10) == (2, LadderStatus.ACTIVE)
    await play_night(league, 3, {"p10"}, close=False)
    # LADDER-ATT-5: the 3rd No-Show comes as p10's group starts game 3 without them, before the night closes,
    # and drops p10 for the season
    assert await ladder_player(league, 10) == (3, LadderStatus.DROPPED)
    await ok(league, "/ladder night close", "alice")
    async with league.db.reading() as session:
        ledger = (await session.exec(select(LadderLedger).where(LadderLedger.ladder_player_id == 10))).all()
    money = [(row.kind, row.cents) for row in ledger]
    # LADDER-PAY-4: all the dues p10 paid (2 × $6.00) are forfeited in one ledger entry
    assert money == [(LedgerKind.DUES, 600), (LedgerKind.DUES, 600), (LedgerKind.FORFEIT, 1_200)], money
    clock = league.bot.clock
    assert isinstance(clock, ManualClock)
    clock.advance(timedelta(days=7))
    opened = (await league.run("/ladder night open", as_member="alice")).text()
    # LADDER-ATT-6: week 4's groups leave the dropped p10 out: nine players in three groups of 3
    assert "week 4 groups" in opened and "P10" not in opened and opened.count("#") == 9, opened


async def ladder_player(league: RunningBot, ladder_player_id: int) -> tuple[int, LadderStatus]:
    async with league.db.reading() as session:
        entry = (await session.exec(select(LadderPlayer).where(LadderPlayer.id == ladder_player_id))).one()
    return entry.no_shows, entry.status


async def test_ten_players_split_into_divisions_after_week_five(ten_players: RunningBot) -> None:
    """Five nights of ten players, the division split at the close of week 5, then week 6 dealt per division,
    where P1 plays a 2-player group against an absent P7's ghost."""
    league = ten_players
    for week in range(1, 6):
        await play_night(league, week, set(), close=week < 5)
    closed = (await league.run("/ladder night close", as_member="alice")).text()
    rows = {row[0]: row[1:3] for row in (line.split() for line in closed.splitlines()) if len(row) == 5}
    # LADDER-BONUS-3 "case 2": in group 1, P1's 15 points equal P2's 10 + P3's 5 and P1's TNS 5 is not more than
    # 4.75 + 4.5, so the point goes to the higher TNS of 2nd and 3rd: bonus 3 / 2 + 1 / 0
    assert [rows[p] for p in ("P1", "P2", "P3")] == [["15", "3"], ["10", "3"], ["5", "0"]], closed
    # LADDER-REG-3: 10 players (8 or more) split in two; LADDER-DIV-1: n = 10 is even, so the top 5 by TLP
    # (P1 90, P7 80, P5 75, P2 65, P4 64) go to A and the rest to B
    assert "Division A: P1, P7, P5, P2, P4\nDivision B: P9, P3, P8, P6, P10" in closed, closed
    clock = league.bot.clock
    assert isinstance(clock, ManualClock)
    clock.advance(timedelta(days=7))
    opened = (await league.run("/ladder night open", as_member="alice")).text()
    # LADDER-DIV-2: week 6 plays within each division, at least 2 groups each, dealt by TLP rank from the top
    groups = [line for line in opened.splitlines() if line.startswith("Group ")]
    assert groups == [
        "Group 1 · Division A: #1 P1",
        "Group 2 · Division A: #3 P5",
        "Group 3 · Division B: #6 P9",
        "Group 4 · Division B: #8 P8",
    ], opened
    assert "#2 P7\nGame 1" in opened and "#4 P2\n#5 P4" in opened and "#7 P3\nGame 1" in opened, opened
    assert "#9 P6\n#10 P10" in opened, opened

    await ok(league, "/ladder absent", "p7")  # P1 plays group 1 against P7's half-normalizer ghost (10M)
    for group in (1, 2, 3, 4):
        await ok(league, f'/ladder games set group:{group} games:"{", ".join(FIVE)}"', "alice")
    for number, name in enumerate(PLAYERS):
        if name != "p7":
            sheet = "5 30 20 20 20" if name == "p1" else " ".join([str(20 - number)] * 5)
            await ok(league, "/ladder checkin", name)
            await ok(league, f'/ladder score game:1 score:"{sheet.replace(" ", ",000,000 ")},000,000"', name)
    await ok(league, "/ladder night close", "alice")
    async with league.db.reading() as session:
        p1 = (
            await session.exec(
                select(LadderResult).where(LadderResult.ladder_player_id == 1).order_by(col(LadderResult.night_id))
            )
        ).all()[-1]
    # LADDER-GHOST-2: against a ghost P1 scores 3 even below it (5M < 10M), and 4 at 1.5 x 20M = 30M
    assert [game["points"] for game in p1.games] == [3, 4, 3, 3, 3], p1.games


async def test_a_late_notice_binds_only_when_given_by_three_on_league_day(ten_players: RunningBot) -> None:
    """LADDER-ATT-3: p10's late notice at noon of league day binds; p9's at 16:00 does not. Neither comes."""
    league = ten_players
    await ok(league, "/ladder absent late:true", "p10")
    clock = league.bot.clock
    assert isinstance(clock, ManualClock)
    clock.advance(timedelta(hours=4))
    await ok(league, "/ladder absent late:true", "p9")
    await play_night(league, 1, {"p9", "p10"})
    # LADDER-ATT-3: the binding notice (by 15:00) spares p10 a No-Show; p9's late one counts as no notice
    assert [await ladder_player(league, n) for n in (9, 10)] == [(1, LadderStatus.ACTIVE), (0, LadderStatus.ACTIVE)]


async def test_seven_players_left_at_week_five_stay_one_division(ten_players: RunningBot) -> None:
    """p8, p9 and p10 never come and are dropped at their 3rd No-Show; weeks 4 and 5 are played by seven."""
    league = ten_players
    for week in (1, 2, 3):
        await play_night(league, week, {"p8", "p9", "p10"})
    for week in (4, 5):
        await play_night(league, week, {"p8", "p9", "p10"}, groups=2, close=False)
        closed = await ok(league, "/ladder night close", "alice")
    # LADDER-DIV-3: n = 7 active players at week 5 is below 8, so there is no division split
    assert "week 5 final" in closed and "Division split" not in closed and "Division A" not in closed, closed
