"""Ladder night rules through Discord: the league's configuration (LADDER-CFG-*), the working set and the group's
games (LADDER-GSEL-1, LADDER-AMB-14), level placement scores (LADDER-SCORE-5, LADDER-GHOST-4), absent players past
their premakeups (LADDER-GHOST-3, LADDER-AMB-8), a restarted game (LADDER-PEN-8) and the win-loss record at the
division split (LADDER-AMB-17)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from datetime import timedelta

import pytest
from sqlmodel import select

from bot.clock import ManualClock
from storage.db import Database
from storage.ladder import LadderOffence, LadderPenalty
from tests.e2e.harness import RunningBot
from tests.e2e.ladder.conftest import FIVE, ladder_league, open_night
from tests.e2e.ladder.test_catalog_vectors import last_night_results, premakeups
from tests.e2e.ladder.test_night import MACHINES, PLAYERS, ok, results_by_name, scores_by_name
from tests.e2e.season import refused

M = 1_000_000
ELVIRA = MACHINES.index("Elvira") + 1  # machine ids follow the order the fixture adds them in


def sheet(*millions: float) -> str:
    """A whole scoresheet for `/ladder score game:1`, one score per game."""
    return " ".join(f"{round(m * M):,}" for m in millions)


async def enter(league: RunningBot, sheets: Mapping[str, Sequence[float]]) -> None:
    """Each player checks in and enters their scoresheet (in millions) from game 1."""
    for name, millions in sheets.items():
        await ok(league, "/ladder checkin", name)
        await ok(league, f'/ladder score game:1 score:"{sheet(*millions)}"', name)


def descending(players: Sequence[str]) -> dict[str, list[float]]:
    """Every game the same, each player a million below the one before, so no two are level."""
    return {name: [30.0 - number] * 5 for number, name in enumerate(players)}


async def test_the_sheets_defaults_ten_weeks_and_five_games_a_night_ladder_cfg_1(ten_players: RunningBot) -> None:
    """LADDER-CFG-1: by default a season has 10 regular weeks, check-in at 19:15 and 5 games a match. With Elvira
    out of service five machines work, as many as the games of a match, so each group's five games are set when the
    night opens (nothing to pick), and a sixth game does not exist."""
    listed = await ok(ten_players, "/ladder option", "p1")
    assert "`regular_weeks` = 10" in listed and "`games_per_match` = 5" in listed, listed
    assert "`check_in` = 19:15" in listed, listed
    await ok(ten_players, f"/machine status machine:{ELVIRA} status:out_of_service", "alice")
    await ok(ten_players, "/ladder night open", "alice")
    await ok(ten_players, "/ladder checkin", "p1")
    entered = await ok(ten_players, f'/ladder score game:1 score:"{sheet(10, 11, 12, 13, 14)}"', "p1")
    assert "game 5 (Funhouse) **14,000,000**" in entered, entered
    await refused(
        ten_players, '/ladder score game:6 score:"1,000,000"', as_member="p1", rule=None,
        message="Tonight has games 1 to 5",
    )  # fmt: skip


async def test_a_league_playing_four_games_a_night_picks_and_plays_four_ladder_cfg_1(ten_players: RunningBot) -> None:
    """LADDER-CFG-1 `games_per_match`: the commissioner sets 4 games a match. Six machines work, so each group
    leaves two out: with one pick each on different games, the picks of the two lowest-ranked players (LADDER-GSEL-3).
    The group plays four games, the commissioner's override names four, and /help says four games a night."""
    await ok(ten_players, "/ladder option name:games_per_match value:4", "alice")
    await ok(ten_players, "/ladder night open", "alice")
    for name in ("p1", "p2", "p3"):
        await ok(ten_players, "/ladder checkin", name)
    for picker, game in (("p3", "Elvira"), ("p2", "Funhouse"), ("p1", "Black Knight")):
        picked = await ok(ten_players, f'/ladder games pick game:"{game}"', picker)
    games = "1. Attack from Mars, 2. Black Knight, 3. Cirqus Voltaire, 4. Demolition Man"
    assert f"Tonight's games: {games}" in picked and "5." not in picked.split("Tonight's games:")[1], picked
    await refused(
        ten_players, '/ladder score game:5 score:"1,000,000"', as_member="p1", rule=None,
        message="Tonight has games 1 to 4",
    )  # fmt: skip
    await refused(
        ten_players, f'/ladder games set group:2 games:"{", ".join(FIVE)}"', as_member="alice", rule="LADDER-GSEL-2",
        message="Name 4 games",
    )  # fmt: skip
    helped = (await ten_players.run("/help", as_member="p4")).text()
    assert "your group picks 4 games" in helped and "five games" not in helped, helped


async def test_the_commissioners_game_set_is_final_ladder_cfg_2(ten_players: RunningBot) -> None:
    """LADDER-CFG-2, LADDER-AMB-15: the commissioner makes the final decision on the nightly game set. Group 1 has
    begun picking when the commissioner sets its five games (one of them twice, in the order played); the picks give
    way, no more picks are taken, and a player cannot set games. A game outside tonight's working set is refused."""
    await ok(ten_players, "/ladder night open", "alice")
    for name in ("p1", "p2", "p3"):
        await ok(ten_players, "/ladder checkin", name)
    await ok(ten_players, '/ladder games pick game:"Funhouse"', "p3")
    decided = "Funhouse, Elvira, Funhouse, Black Knight, Attack from Mars"
    await refused(
        ten_players, f'/ladder games set group:1 games:"{decided}"', as_member="p1", rule="COMMON-ROLE-1",
        message="Only commissioners",
    )  # fmt: skip
    await refused(
        ten_players, '/ladder games set group:1 games:"Funhouse, Elvira, Twilight Zone, Black Knight, Funhouse"',
        as_member="alice", rule="LADDER-GSEL-2", message="not working tonight: Twilight Zone",
    )  # fmt: skip
    set_games = await ok(ten_players, f'/ladder games set group:1 games:"{decided}"', "alice")
    order = "1. Funhouse, 2. Elvira, 3. Funhouse, 4. Black Knight, 5. Attack from Mars"
    assert f"Tonight's games: {order}" in set_games, set_games
    late_pick = await ten_players.run('/ladder games pick game:"Elvira"', as_member="p2")
    assert late_pick.ephemeral and "games are already set" in late_pick.content, late_pick.content
    await ok(ten_players, f'/ladder score game:1 score:"{sheet(10, 20, 30, 40, 50)}"', "p1")
    stored = sorted((game, score) for name, game, score in await scores_by_name(ten_players) if name == "p1")
    assert stored == [(game, game * 10 * M) for game in range(1, 6)], stored


async def test_the_night_opens_on_the_machines_in_service_ladder_gsel_1(ten_players: RunningBot) -> None:
    """LADDER-GSEL-1: the commissioner records the night's working pins when opening it. With every machine out of
    service there is no working set and the night does not open; with Elvira alone out after a malfunction, the
    working set is the other five and Elvira cannot be picked."""
    for machine in range(1, len(MACHINES) + 1):
        await ok(ten_players, f"/machine status machine:{machine} status:out_of_service", "alice")
    await refused(
        ten_players, "/ladder night open", as_member="alice", rule="LADDER-GSEL-1", message="No machine is in service"
    )
    for machine in range(1, len(MACHINES) + 1):
        if machine != ELVIRA:
            await ok(ten_players, f"/machine status machine:{machine} status:working", "alice")
    await ok(ten_players, "/ladder option name:games_per_match value:4", "alice")  # P = 5 > 4: one pick each
    opened = await ok(ten_players, "/ladder night open", "alice")
    working = "Attack from Mars, Black Knight, Cirqus Voltaire, Demolition Man, Funhouse"
    assert f"Working machines: {working}." in opened, opened
    await ok(ten_players, "/ladder checkin", "p3")
    await refused(
        ten_players, '/ladder games pick game:"Elvira"', as_member="p3", rule="LADDER-GSEL-3",
        message="Elvira is not in tonight's working set",
    )  # fmt: skip


async def test_present_players_level_on_score_play_off_before_the_points_ladder_score_5(
    ten_players: RunningBot,
) -> None:
    """LADDER-SCORE-5 (LADDER-AMB-5): p1 and p2 both score exactly 30M in game 1. The night cannot close until the
    one-ball playoff's winner is entered; p2 wins it and takes 1st place's points in that game."""
    await open_night(ten_players, 1, 3)
    sheets = descending(PLAYERS)
    sheets["p2"] = [30.0, 29, 29, 29, 29]
    await enter(ten_players, sheets)
    await refused(
        ten_players, "/ladder night close", as_member="alice", rule="LADDER-AMB-5", message="game 1: P1 and P2 tied"
    )
    await ok(ten_players, "/ladder tiebreak game:1 winner:@p2", "p1")
    await ok(ten_players, "/ladder night close", "alice")
    results = await results_by_name(ten_players)
    # game 1: p2 1st by the playoff, p1 2nd, p3 (28M) 3rd; 30 > 30 + 28 fails, so the 4th point goes to 3rd
    assert [results[p].games[0]["points"] for p in ("p2", "p1", "p3")] == [3, 2, 1]
    assert [results[p].games[1]["points"] for p in ("p1", "p2", "p3")] == [3, 2, 1]


async def test_absent_players_level_on_score_go_by_league_rank_ladder_ghost_4(ten_players: RunningBot) -> None:
    """LADDER-GHOST-4: p9 (rank 9) and p10 (rank 10) are absent, each with one 12M premakeup on Attack from Mars,
    game 1. Level at 12M, the higher-ranked p9 places 3rd and p10 4th: p7 50M > 30M + 12M takes 4, p8 30M > 12M +
    12M takes 3, then p9 1 and p10 0."""
    for name in ("p9", "p10"):
        await premakeups(ten_players, name, "Attack from Mars", "12,000,000")
        await ok(ten_players, "/ladder absent", name)
    await open_night(ten_players, 1, 3)
    await enter(ten_players, descending(PLAYERS[:6]) | {"p7": [50] * 5, "p8": [30] * 5})
    await ok(ten_players, "/ladder night close", "alice")
    results = await results_by_name(ten_players)
    first = {name: results[name].games[0] for name in ("p7", "p8", "p9", "p10")}
    assert [(first[p]["kind"], first[p]["placement"]) for p in ("p9", "p10")] == [("premakeup", 12 * M)] * 2
    assert [first[p]["points"] for p in ("p7", "p8", "p9", "p10")] == [4, 3, 1, 0], first


@pytest.fixture
async def four_players(sqlite_db: Database) -> AsyncIterator[RunningBot]:
    """p1-p4 (p1 the best by skill), every normalizer 20,000,000: two groups of two."""
    async with ladder_league(sqlite_db, PLAYERS[:4], "20,000,000") as league:
        yield league


async def test_past_three_missed_weeks_an_absent_player_is_placed_at_the_premakeup_average_ladder_ghost_3(
    four_players: RunningBot,
) -> None:
    """LADDER-GHOST-3 (LADDER-PMU-5): p4 has premakeups 8M and 16M on Attack from Mars (AVG 12M) and misses weeks 1
    to 4 with notice; Attack from Mars is first played in week 4, when p4 has missed more than three weeks. p4 is
    then placed at the average of S1, S2 and AVG, 12M, with official 0 and 0 points, although a premakeup is unused,
    and the game is scored as if p4 were there: the opponent's 30M+ is not 3 x 12M, so 3 points, where a
    half-normalizer ghost (LADDER-GHOST-2) would give 4."""
    league = four_players
    await premakeups(league, "p4", "Attack from Mars", "8,000,000", "16,000,000")
    without_mars = [m for m in MACHINES if m != "Attack from Mars"]
    sheets = {"p1": [30.0] * 5, "p2": [31.0] * 5, "p3": [32.0] * 5}
    clock = league.bot.clock
    assert isinstance(clock, ManualClock)
    for week in range(1, 5):
        if week > 1:
            clock.advance(timedelta(days=7))
        await ok(league, "/ladder absent", "p4")
        await ok(league, "/ladder night open", "alice")
        games = ", ".join(FIVE if week == 4 else without_mars)
        for group in (1, 2):
            await ok(league, f'/ladder games set group:{group} games:"{games}"', "alice")
        await enter(league, sheets)
        await ok(league, "/ladder night close", "alice")
    week_four = {name.lower(): result for name, result in (await last_night_results(league)).items()}
    mars = week_four["p4"].games[0]
    assert (mars["machine"], mars["kind"], mars["placement"], mars["official"], mars["points"]) == (
        "Attack from Mars", "ghost", 12 * M, 0, 0,
    )  # fmt: skip
    opponent = next(name for name, r in week_four.items() if r.group_id == week_four["p4"].group_id and name != "p4")
    assert week_four[opponent].games[0]["points"] == 3, week_four[opponent].games
    shown = await ok(league, "/ladder premakeup show", "p4")
    assert "S1 8,000,000 · S2 16,000,000 · AVG 12,000,000" in shown and "used none" in shown, shown


async def test_a_machine_played_a_fourth_time_in_an_absence_has_no_premakeup_left_ladder_amb_8(
    ten_players: RunningBot,
) -> None:
    """LADDER-AMB-8: absent p10 has premakeups 8M and 16M on Attack from Mars (AVG 12M), and group 3 plays it four
    times. Games 1 to 3 use 16M, 12M and 8M (highest first, LADDER-AMB-7); game 4 has no usable premakeup left:
    official 0 and 0 points, placed by the half-normalizer ghost (10M)."""
    await premakeups(ten_players, "p10", "Attack from Mars", "8,000,000", "16,000,000")
    await ok(ten_players, "/ladder absent", "p10")
    await open_night(ten_players, 1, 2)
    four_times = ", ".join(["Attack from Mars"] * 4 + ["Funhouse"])
    await ok(ten_players, f'/ladder games set group:3 games:"{four_times}"', "alice")
    await enter(ten_players, descending(PLAYERS[:9]))
    await ok(ten_players, "/ladder night close", "alice")
    games = (await results_by_name(ten_players))["p10"].games
    assert [(g["kind"], g["placement"], g["official"]) for g in games[:4]] == [
        ("premakeup", 16 * M, 16 * M), ("premakeup", 12 * M, 12 * M), ("premakeup", 8 * M, 8 * M),
        ("half_ghost", 10 * M, 0),
    ], games  # fmt: skip
    assert games[3]["points"] == 0, games


async def test_too_few_different_picks_take_another_pass_from_the_lowest_ranked_ladder_amb_14(
    ten_players: RunningBot,
) -> None:
    """LADDER-AMB-14: with Twilight Zone added, seven machines work and group 1 leaves two out, but all three pick
    Elvira. One game is still to be named, so another pass starts from the lowest-ranked player, p3. Its three picks
    name three games once each; the picked games go by votes, then by the earliest pick, so Elvira (3 votes) and
    p3's Funhouse (picked first in the pass) are left out."""
    await ok(ten_players, '/machine add venue:"The Break" model:"Twilight Zone"', "alice")
    await ok(ten_players, '/ladder normalizer machine:"Twilight Zone" value:20,000,000', "alice")
    await ok(ten_players, "/ladder night open", "alice")
    for name in ("p1", "p2", "p3"):
        await ok(ten_players, "/ladder checkin", name)
    for picker in ("p3", "p2", "p1"):
        picked = await ok(ten_players, '/ladder games pick game:"Elvira"', picker)
    assert "1 more game must be named: another pass of picks starts from the lowest-ranked player" in picked, picked
    assert "Next to pick: P3" in picked, picked
    await refused(
        ten_players, '/ladder games pick game:"Funhouse"', as_member="p2", rule="LADDER-GSEL-3", message="Not your turn"
    )
    for picker, game in (("p3", "Funhouse"), ("p2", "Twilight Zone"), ("p1", "Black Knight")):
        picked = await ok(ten_players, f'/ladder games pick game:"{game}"', picker)
    games = "1. Attack from Mars, 2. Black Knight, 3. Cirqus Voltaire, 4. Demolition Man, 5. Twilight Zone"
    assert f"Tonight's games: {games}" in picked, picked


async def test_a_game_restarted_for_the_wrong_number_of_players_is_recorded_only_ladder_pen_8(
    ten_players: RunningBot,
) -> None:
    """LADDER-PEN-8: p2 started a one-player game and nobody caught it on ball 1, so the game was aborted and
    restarted. The ruling is recorded only (a `restart` note on the game): no penalty, and the restarted game's
    scores, entered as usual, stand."""
    await open_night(ten_players, 1, 3)
    await enter(ten_players, {"p1": [30] * 5, "p2": [20] * 5})
    ruled = await ok(ten_players, "/ladder penalty game:2 offence:restart player:@p2", "p1")
    assert "P2, game 2 (Black Knight): restart. Record only" in ruled and "is 0" not in ruled, ruled
    async with ten_players.db.reading() as session:
        notes = (await session.exec(select(LadderPenalty))).all()
    assert [(note.offence, note.slot) for note in notes] == [(LadderOffence.RESTART, 1)]
    scores = {(name, game): score for name, game, score in await scores_by_name(ten_players)}
    assert [scores[("p2", game)] for game in range(1, 6)] == [20 * M] * 5
    await refused(
        ten_players, "/ladder penalty game:2 offence:restart player:@p2", as_member="alice", rule=None,
        message="already recorded",
    )  # fmt: skip


async def test_level_tlp_and_ans_at_the_split_go_by_the_pairwise_game_record_ladder_amb_17(
    ten_players: RunningBot,
) -> None:
    """LADDER-DIV-1, LADDER-AMB-17: the split comes after week 1 here. p5 (2nd of three in group 2) and p8 (2nd of
    four in group 3) both end it on TLP 12 and TNS 5 (ANS 5), 5th and 6th of ten, so one goes to A. Their win-loss
    records decide: p8 beat two and lost to one in each game (10-5), p5 beat one and lost to one (5-5); p8 goes to
    A, p5 to B."""
    await ok(ten_players, "/ladder option name:split_after_week value:1", "alice")
    await open_night(ten_players, 1, 3)
    await enter(
        ten_players,
        {
            "p1": [50, 50, 50, 20, 20], "p2": [20, 20, 20, 50, 50], "p3": [10] * 5,  # TLP 20, 16, 0
            "p4": [50] * 5, "p5": [20] * 5, "p6": [10] * 5,  # TLP 24, 12, 0
            "p7": [50] * 5, "p8": [20] * 5, "p9": [15] * 5, "p10": [10] * 5,  # TLP 25, 12, 6, 6
        },
    )  # fmt: skip
    closed = await ok(ten_players, "/ladder night close", "alice")
    results = await results_by_name(ten_players)
    level = [(results[p].game_points + results[p].bonus, results[p].tns) for p in ("p5", "p8")]
    assert level[0] == level[1] and level[0][0] == 12, level
    assert "Division A: P7, P4, P1, P2, P8\nDivision B: P5, " in closed, closed
