"""The catalog's LADDER worked examples (LADDER-TV-*) played through the bot: the scores go in with
/ladder score, the night is closed with /ladder night close, and the points are read back from the stored
results."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from datetime import timedelta

import pytest
from sqlmodel import col, func, select

from bot.clock import ManualClock
from storage.db import Database
from storage.ladder import LadderPlayer, LadderResult
from tests.e2e.harness import RunningBot
from tests.e2e.ladder.conftest import ladder_league, open_night
from tests.e2e.ladder.test_night import MACHINES, PLAYERS, ok, results_by_name
from tests.e2e.season import refused

M = 1_000_000


async def play_night(league: RunningBot, sheets: Mapping[str, Sequence[float]], groups: int, week: int = 1) -> None:
    """Open week `week`'s night, give every group the same five games, enter each player's five scores (in
    millions) and close the night."""
    await open_night(league, week, groups)
    for name, millions in sheets.items():
        await ok(league, "/ladder checkin", name)
        scores = " ".join(f"{round(m * 1_000_000):,}" for m in millions)
        await ok(league, f'/ladder score game:1 score:"{scores}"', name)
    await ok(league, "/ladder night close", "alice")


async def test_three_and_four_player_games_and_match_bonuses_of_the_catalog(ten_players: RunningBot) -> None:
    """Ten players: groups {p1,p2,p3}, {p4,p5,p6}, {p7,p8,p9,p10}, each game one worked example."""
    await play_night(
        ten_players,
        {
            # group 1, X = p1, Y = p3, Z = p2. Game 1 is LADDER-TV-1 (P = p1, R = p3, Q = p2), games 3 and 4
            # LADDER-TV-2's close and exact cases
            "p1": [50, 50, 40, 45, 40],
            "p2": [20, 10, 20, 25, 25],
            "p3": [25, 20, 25, 20, 20],
            # group 2, X = p4, Y = p5, Z = p6: every game 3-2-1, TNS 5.0 / 3.5 / 2.0 (normalizer 20M)
            "p4": [20, 20, 20, 20, 20],
            "p5": [15, 15, 15, 15, 10],
            "p6": [7, 7, 7, 7, 12],
            # group 3, W = p7, X = p8, Y = p9, Z = p10: games 1 and 2 are LADDER-TV-4's two games
            "p7": [100, 60, 25, 30, 10],
            "p8": [40, 40, 30, 20, 20],
            "p9": [30, 30, 10, 10, 15],
            "p10": [5, 20, 5, 15, 30],
        },
        groups=3,
    )
    results = await results_by_name(ten_players)
    points = {name: [game["points"] for game in results[name].games] for name in PLAYERS}
    # LADDER-TV-1: 50 > 25 + 20, so P (p1) 4, R (p3) 2, Q (p2) 0
    assert (points["p1"][0], points["p3"][0], points["p2"][0]) == (4, 2, 0)
    # LADDER-TV-2, LADDER-AMB-3: 40 > 45 no → 3-2-1; exactly 45 > 45 no (strict) → 3-2-1, the point to 3rd
    assert (points["p1"][2], points["p3"][2], points["p2"][2]) == (3, 2, 1)
    assert (points["p1"][3], points["p2"][3], points["p3"][3]) == (3, 2, 1)
    # LADDER-TV-4, LADDER-AMB-2: base 3-2-1-0; 100/40/30/5 → 4-3-1-0 and 60/40/30/20 → 3-2-2-1 (sums 8)
    assert [points[p][0] for p in ("p7", "p8", "p9", "p10")] == [4, 3, 1, 0]
    assert [points[p][1] for p in ("p7", "p8", "p9", "p10")] == [3, 2, 2, 1]
    line = {
        name: (results[name].game_points, results[name].bonus, results[name].game_points + results[name].bonus)
        for name in PLAYERS
    }
    # LADDER-TV-11: week game points 17 / 8 / 5, 17 > 13 → bonus 4 / 2 / 0, week TLP 21 / 10 / 5
    assert [line[p] for p in ("p1", "p3", "p2")] == [(17, 4, 21), (8, 2, 10), (5, 0, 5)]
    # LADDER-TV-12, LADDER-AMB-3 (case2_literal): 15 = 9 + 6 and TNS 5.0 > 5.5 fails, so the point goes to
    # the higher TNS of 2nd and 3rd (3.5 > 2.0): bonus 3 / 3 / 0
    assert [line[p][:2] for p in ("p4", "p5", "p6")] == [(15, 3), (9, 3), (6, 0)]
    # LADDER-TV-13 (second case, all present), LADDER-AMB-2: 14 / 12 / 8 / 6; 14 > 20, 12 > 14 and 14 > 26
    # all fail → bonus 3 / 2 / 2 / 1
    assert [line[p][:2] for p in ("p7", "p8", "p9", "p10")] == [(14, 3), (12, 2), (8, 2), (6, 1)]


@pytest.fixture
async def four_players(sqlite_db: Database) -> AsyncIterator[RunningBot]:
    """The ten-player league's set-up with p1-p4 only (p1 the best by skill) and every normalizer 50,000,000."""
    async with ladder_league(sqlite_db, PLAYERS[:4], "50,000,000") as league:
        yield league


async def test_two_player_games_and_match_bonuses_of_the_catalog(four_players: RunningBot) -> None:
    """Four players make two groups of two, {p1,p2} and {p3,p4}; the games are LADDER-TV-3's, the week totals
    LADDER-TV-14's."""
    await play_night(
        four_players,
        {
            "p1": [30, 29.99, 20, 20, 20],
            "p2": [10, 10, 10, 10, 10],
            "p3": [30, 20, 20, 10, 10],
            "p4": [10, 10, 10, 20, 30],
        },
        groups=2,
    )
    results = await results_by_name(four_players)
    # LADDER-AMB-11: 4 players → groups of 2 and 2
    assert results["p1"].group_id == results["p2"].group_id != results["p3"].group_id == results["p4"].group_id
    points = {name: [game["points"] for game in results[name].games] for name in PLAYERS[:4]}
    # LADDER-TV-3, LADDER-AMB-1: base 3-0; 30M >= 3 x 10M → 4-0, 29,990,000 vs 10M → 3-1
    assert (points["p1"][:2], points["p2"][:2]) == ([4, 3], [0, 1])
    # LADDER-TV-14, LADDER-AMB-1: U 16, V 4: 16 >= 12 → bonus 4-0; U 11, V 9: 11 >= 27 fails → 3-1
    bonus = {name: (results[name].game_points, results[name].bonus) for name in PLAYERS[:4]}
    assert [bonus[p] for p in PLAYERS[:4]] == [(16, 4), (4, 0), (11, 3), (9, 1)]


async def test_a_half_normalizer_ghost_in_a_two_player_group(four_players: RunningBot) -> None:
    """LADDER-TV-8, LADDER-AMB-9: normalizer 50M, so absent p2 (no premakeups) is placed at 25M with 0 points
    in every game; p1 scores 70M (3), 75M (≥ 1.5 x 50M: 4) and 20M (below the ghost: still 3)."""
    await ok(four_players, "/ladder absent", "p2")
    sheets = {"p1": [70, 75, 20, 70, 70], "p3": [30] * 5, "p4": [20] * 5}
    await play_night(four_players, sheets, groups=2)
    results = await results_by_name(four_players)
    assert [(g["kind"], g["placement"], g["points"]) for g in results["p2"].games] == [("half_ghost", 25 * M, 0)] * 5
    assert [game["points"] for game in results["p1"].games][:3] == [3, 4, 3]


async def test_two_half_normalizer_ghosts_in_a_four_player_group(ten_players: RunningBot) -> None:
    """LADDER-TV-9, LADDER-AMB-9: normalizer 50M; p8 (rank 8) and p10 (rank 10) are absent without
    premakeups, both placed at 25M (p8 ahead on rank; the points do not depend on it). p7 40M, p9 10M:
    40 > 25 + 25 fails → 3rd's point falls to a ghost and is lost; 25 > 25 + 10 fails → p9 gets the 4th's +1."""
    for machine in MACHINES:
        await ok(ten_players, f'/ladder normalizer machine:"{machine}" value:50,000,000', "alice")
    for name in ("p8", "p10"):
        await ok(ten_players, "/ladder absent", name)
    sheets = {name: [30 - n] * 5 for n, name in enumerate(PLAYERS[:6])} | {"p7": [40] * 5, "p9": [10] * 5}
    await play_night(ten_players, sheets, groups=3)
    results = await results_by_name(ten_players)
    first = {name: results[name].games[0] for name in ("p7", "p8", "p9", "p10")}
    # LADDER-AMB-28: the normalizers the commissioner re-entered (50M, over the fixture's 20M) are the ones used
    assert first["p8"]["placement"] == first["p10"]["placement"] == 25 * M
    assert [first[p]["points"] for p in ("p7", "p8", "p10", "p9")] == [3, 0, 0, 1]


async def premakeups(league: RunningBot, name: str, machine: str, *scores: str) -> None:
    for score in scores:
        await ok(league, f'/ladder premakeup declare machine:"{machine}" with:"bob and carol"', name)
        await ok(league, f'/ladder premakeup record machine:"{machine}" score:{score}', name)


async def test_premakeup_averages_and_use_order_of_the_catalog(ten_players: RunningBot) -> None:
    """p1 records the catalog's premakeup pairs and reads them back; p3, p4 and p10 miss a night with
    premakeups on Attack from Mars, game 1."""
    await premakeups(ten_players, "p1", "Black Knight", "20,000,000", "40,000,000")
    await premakeups(ten_players, "p1", "Cirqus Voltaire", "12,345,670", "23,456,780")
    await premakeups(ten_players, "p1", "Demolition Man", "1,234,567", "2,000,000")
    shown = await ok(ten_players, "/ladder premakeup show", "p1")
    # LADDER-TV-5, LADDER-AMB-6: AVG = round10((S1 + S2) / 2), an exact half rounded up
    assert "S1 20,000,000 · S2 40,000,000 · AVG 30,000,000" in shown, shown
    assert "S1 12,345,670 · S2 23,456,780 · AVG 17,901,230" in shown, shown
    assert "S1 1,234,567 · S2 2,000,000 · AVG 1,617,280" in shown, shown

    await premakeups(ten_players, "p3", "Attack from Mars", "90,000,000")
    await premakeups(ten_players, "p4", "Attack from Mars", "20,000,000", "40,000,000")
    await ok(ten_players, '/ladder premakeup order machine:"Attack from Mars" order:S1,S2,AVG', "p4")
    await premakeups(ten_players, "p10", "Attack from Mars", "20,000,000", "40,000,000")
    for name in ("p3", "p4", "p10"):
        await ok(ten_players, "/ladder absent", name)
    sheets = {name: [30 - n] * 5 for n, name in enumerate(PLAYERS) if name not in ("p3", "p4", "p10")}
    sheets["p1"], sheets["p2"] = [30] * 5, [20] * 5
    await play_night(ten_players, sheets, groups=3)
    results = await results_by_name(ten_players)
    first = {name: results[name].games[0] for name in PLAYERS}
    # LADDER-TV-10, LADDER-AMB-4: p3's premakeup 90M > 30M + 20M, but a premakeup 1st never gets the point,
    # and by default nobody does: p3 3, p1 2, p2 0
    assert first["p3"]["kind"] == "premakeup" and first["p3"]["placement"] == 90_000_000
    assert (first["p3"]["points"], first["p1"]["points"], first["p2"]["points"]) == (3, 2, 0)
    # LADDER-TV-24, LADDER-AMB-7: no order set → the 1st use is the highest (40M), then AVG 30M, then 20M;
    # p4 set S1, S2, AVG before the first use, so p4's 1st use is 20M
    assert first["p10"]["placement"] == 40_000_000 and first["p4"]["placement"] == 20_000_000
    shown = await ok(ten_players, "/ladder premakeup show", "p10")
    assert "Order S2 → AVG → S1; used S2" in shown, shown
    present = sheets | {"p3": [9] * 5, "p4": [8] * 5}
    for week, value in ((2, 30_000_000), (3, 20_000_000)):  # LADDER-TV-24: then AVG 30M, then 20M
        await ok(ten_players, "/ladder absent", "p10")
        await play_night(ten_players, present, groups=3, week=week)
        latest = await last_night_results(ten_players)
        assert latest["P10"].games[0]["placement"] == value, latest["P10"].games
    # LADDER-TV-24, LADDER-AMB-32: the first use on the machine locks the order
    await refused(
        ten_players, '/ladder premakeup order machine:"Attack from Mars" order:S1,S2,AVG', as_member="p10",
        rule=None, message="Order locked",
    )  # fmt: skip


async def last_night_results(league: RunningBot) -> dict[str, LadderResult]:
    async with league.db.reading() as session:
        last = (await session.exec(select(func.max(col(LadderResult.night_id))))).one()
        rows = (await session.exec(select(LadderResult).where(LadderResult.night_id == last))).all()
    by_id = {row.ladder_player_id: row for row in rows}
    names = await results_by_name(league)
    return {name.upper(): by_id[result.ladder_player_id] for name, result in names.items()}


async def test_exact_equalities_of_a_four_player_match_go_to_tns(ten_players: RunningBot) -> None:
    """Group 3 {p7,p8,p9,p10} plays 50M / 30M / 15M / 10M on every game: each game 4-3-1-0, so the week
    game points are 20 / 15 / 5 / 0, with 1st = 2nd + 3rd and 1st = 2nd + 3rd + 4th exactly."""
    sheets = {name: [30 - n] * 5 for n, name in enumerate(PLAYERS[:6])}
    sheets |= {"p7": [50] * 5, "p8": [30] * 5, "p9": [15] * 5, "p10": [10] * 5}
    await play_night(ten_players, sheets, groups=3)
    results = await results_by_name(ten_players)
    line = {name: (results[name].game_points, results[name].bonus) for name in ("p7", "p8", "p9", "p10")}
    # LADDER-AMB-31: 20 = 15 + 5 goes to TNS, 50 > 30 + 15 → 1st +1; 15 > 5 → 2nd +1; 20 = 15 + 5 + 0 goes to
    # TNS, 50 > 30 + 15 + 10 fails → no extra point: bonus 4 / 3 / 1 / 0
    assert [line[p] for p in ("p7", "p8", "p9", "p10")] == [(20, 4), (15, 3), (5, 1), (0, 0)]


async def test_an_absent_player_without_premakeups_neither_moves_nor_lowers_their_ans(ten_players: RunningBot) -> None:
    """p3 misses week 1 without premakeups (a half-normalizer ghost, last in group 1), then plays week 2."""
    await ok(ten_players, "/ladder absent", "p3")
    await play_night(ten_players, {name: [30 - n] * 5 for n, name in enumerate(PLAYERS) if name != "p3"}, groups=3)
    nextweek = (await ten_players.run("/ladder groups", as_member="p5")).text().lower()
    blocks = nextweek.split("group ")[1:]
    members = [sorted(part.split()[1] for part in block.split("#")[1:]) for block in blocks]
    # LADDER-AMB-13: absent p3 is skipped when picking who moves down, so p2 (the lowest present) goes down
    # for p4; p7 and p8 come up for p6 and p5
    assert members == [["p1", "p3", "p4"], ["p2", "p7", "p8"], ["p10", "p5", "p6", "p9"]], members
    ranks = [part.split()[0] + part.split()[1] for block in blocks for part in block.split("#")[1:]]
    # LADDER-AMB-16: the ranks shown are the standings after week 1 (TLP, then ANS), no longer the skill order
    assert ranks == ["1p1", "2p4", "10p3", "3p7", "5p2", "6p8", "4p5", "7p9", "8p10", "9p6"], ranks
    sheets = {name: [30 - n] * 5 for n, name in enumerate(PLAYERS)} | {"p3": [20] * 5}
    await play_night(ten_players, sheets, groups=3, week=2)
    table = (await ten_players.run("/ladder standings", as_member="p1")).text()
    row = next(line.split() for line in table.splitlines() if line.startswith(tuple("0123456789")) and " P3 " in line)
    # LADDER-AMB-25: ANS averages only the weeks played or on premakeups: p3's is week 2's TNS, 5 x 20M / 20M
    assert row[-2] == "5.0000", table


async def test_a_silent_absence_is_a_no_show_when_the_night_closes(ten_players: RunningBot) -> None:
    """p3 neither checks in nor gives notice; p6 gives an absence notice; both play no game."""
    await ok(ten_players, "/ladder absent", "p6")
    await play_night(ten_players, {name: [30 - n] * 5 for n, name in enumerate(PLAYERS) if name not in ("p3", "p6")}, 3)
    results = await results_by_name(ten_players)
    async with ten_players.db.reading() as session:
        entries = {row.id: row for row in (await session.exec(select(LadderPlayer))).all()}
    no_shows = {name: entries[results[name].ladder_player_id].no_shows for name in PLAYERS}
    # LADDER-AMB-22: the first No-Show is assessed at night's end, for no notice and no game: p3 only
    assert no_shows == {name: 1 if name == "p3" else 0 for name in PLAYERS}, no_shows


async def test_an_absence_notice_counts_only_before_seven_on_league_night(ten_players: RunningBot) -> None:
    """p6 gives an absence notice at 18:50 on league night, p9 at 19:05; neither plays."""
    clock = ten_players.bot.clock
    assert isinstance(clock, ManualClock)
    clock.advance(timedelta(hours=6, minutes=50))
    await ok(ten_players, "/ladder absent", "p6")
    clock.advance(timedelta(minutes=15))
    await ten_players.run("/ladder absent", as_member="p9")
    await play_night(ten_players, {name: [30 - n] * 5 for n, name in enumerate(PLAYERS) if name not in ("p6", "p9")}, 3)
    results = await results_by_name(ten_players)
    async with ten_players.db.reading() as session:
        entries = {row.id: row for row in (await session.exec(select(LadderPlayer))).all()}
    # LADDER-AMB-21: the 18:50 notice is valid (no No-Show); the 19:05 one is too late, so p9 is a No-Show
    assert [entries[results[name].ladder_player_id].no_shows for name in ("p6", "p9")] == [0, 1]
