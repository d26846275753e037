"""The catalog's LADDER worked examples (LADDER-TV-*) played through the bot: the scores go in with
/ladder score, the night is closed with /ladder night close, and the points are read back from the stored
results."""

from __future__ import annotations

from tests.e2e.harness import RunningBot
from tests.e2e.ladder.test_night import PLAYERS, ok, results_by_name

FIVE = "Attack from Mars, Black Knight, Cirqus Voltaire, Demolition Man, Funhouse"


async def play_night(league: RunningBot, sheets: dict[str, list[int]], groups: int) -> None:
    """Open the night, give every group the same five games, enter each player's five scores (in millions)
    and close the night."""
    await ok(league, "/ladder night open", "alice")
    for group in range(1, groups + 1):
        await ok(league, f'/ladder games set group:{group} games:"{FIVE}"', "alice")
    for name, millions in sheets.items():
        await ok(league, "/ladder checkin", name)
        scores = " ".join(f"{m * 1_000_000:,}" for m in millions)
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
