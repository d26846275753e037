"""Team standings (bot/rules/team/standings.py): TEAM-STAND-1..3, TEAM-AMB-10/11/19, TEAM-CFG-1, TEAM-TV-11."""

import random
from datetime import date, timedelta
from fractions import Fraction
from typing import ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.refusals import InvalidInput, RuleViolation
from bot.rules.team.model import Side
from bot.rules.team.standings import (
    HeadToHead,
    MatchKind,
    MatchResult,
    StandingRow,
    TiebreakerMatchPlan,
    TieStep,
    _place,
    head_to_head,
    plan_tiebreaker_match,
    standings,
    tiebreaker_match_date,
    ties_needing_tiebreaker_match,
)

SEASON_END = date(2023, 5, 2)  # a Tuesday, as in TEAM-TV-11
TUESDAY, THURSDAY = 1, 3
OUTSIDER = 99  # an opponent outside the conference under test


def result(
    home: int,
    away: int,
    home_points: int,
    away_points: int,
    *,
    winner: Side | None = None,
    kind: MatchKind = MatchKind.REGULAR,
    on: date = SEASON_END,
) -> MatchResult:
    """A finalized match; the winner is the side with more points unless given (a tie-breaker game decided it)."""
    if winner is None and home_points != away_points:
        winner = Side.HOME if home_points > away_points else Side.AWAY
    return MatchResult(0, on, home, away, home_points, away_points, winner, kind)


def at_home_against_outsider(team: int, wins: int, losses: int) -> list[MatchResult]:
    """`wins` 10-6 wins and `losses` 6-10 losses at home, weekly, the last on SEASON_END."""
    outcomes = [(10, 6)] * wins + [(6, 10)] * losses
    count = len(outcomes)
    return [
        result(team, OUTSIDER, hp, ap, on=SEASON_END - timedelta(weeks=count - 1 - i))
        for i, (hp, ap) in enumerate(outcomes)
    ]


def order(rows: list[StandingRow]) -> list[int]:
    return [row.team for row in rows]


def row_of(rows: list[StandingRow], team: int) -> StandingRow:
    return next(row for row in rows if row.team == team)


class TestRankingSteps:
    def test_record_is_win_percentage_not_wins(self) -> None:
        """TEAM-STAND-1 step 1: 6-1 (86%) ranks above 7-3 (70%) although it has fewer wins."""
        results = at_home_against_outsider(1, 7, 3) + at_home_against_outsider(2, 6, 1)
        rows = standings([1, 2], results)
        assert order(rows) == [2, 1]
        assert (rows[0].win_pct, rows[0].decided_by, rows[0].rank) == (Fraction(6, 7), TieStep.RECORD, 1)
        assert (rows[1].wins, rows[1].losses, rows[1].played, rows[1].rank) == (7, 3, 10, 2)

    def test_cumulative_match_points_break_a_level_record(self) -> None:
        """TEAM-STAND-1 step 2: same record, more match points ahead."""
        results = [result(1, OUTSIDER, 10, 6), result(2, OUTSIDER, 12, 4)]
        rows = standings([1, 2], results)
        assert order(rows) == [2, 1]
        assert [r.match_points for r in rows] == [12, 10]
        assert {r.decided_by for r in rows} == {TieStep.MATCH_POINTS}

    def test_head_to_head_result_breaks_level_match_points(self) -> None:
        """TEAM-STAND-1 step 3: 2 beat 1 head to head; both 1-1 with 16 match points."""
        results = [result(1, 2, 7, 9), result(1, OUTSIDER, 9, 7), result(2, OUTSIDER, 7, 9)]
        rows = standings([1, 2], results)
        assert order(rows) == [2, 1]
        assert {r.decided_by for r in rows} == {TieStep.HEAD_TO_HEAD}

    def test_head_to_head_match_points_break_a_split_series(self) -> None:
        """TEAM-STAND-1 step 4: 1-1 head to head, but team 1 took 20 points in those matches and team 2 12."""
        results = [
            result(1, 2, 12, 4),
            result(2, 1, 8, 8, winner=Side.HOME),  # 8-8, team 2 wins the tie-breaker game (adds 0 points)
            result(1, OUTSIDER, 9, 7),
            result(1, OUTSIDER, 4, 12),
            result(2, OUTSIDER, 14, 2),
            result(2, OUTSIDER, 7, 9),
        ]
        rows = standings([1, 2], results)
        assert [(r.team, r.wins, r.losses, r.match_points) for r in rows] == [(1, 2, 2, 33), (2, 2, 2, 33)]
        assert {r.decided_by for r in rows} == {TieStep.HEAD_TO_HEAD_POINTS}

    def test_away_winning_percentage_is_step_five(self) -> None:
        """TEAM-STAND-1 step 5 / TEAM-STAND-3: away wins ÷ away matches, forfeits included."""
        results = [
            result(OUTSIDER, 1, 6, 10),  # team 1 wins away
            result(1, OUTSIDER, 6, 10),
            result(OUTSIDER, 2, 0, 9),  # team 2 wins away by forfeit (9 MP)
            result(OUTSIDER, 2, 9, 7),  # team 2 loses away
        ]
        rows = standings([1, 2], results)
        # Team 1: 1-1, 16 MP, away 1/1. Team 2: 1-1, 16 MP, away 1/2.
        assert [(r.team, r.wins, r.match_points, r.away_wins, r.away_played) for r in rows] == [
            (1, 1, 16, 1, 1),
            (2, 1, 16, 1, 2),
        ]
        assert {r.decided_by for r in rows} == {TieStep.AWAY_PCT}

    def test_no_away_match_skips_step_five(self) -> None:
        """TEAM-AMB-11: a team without away matches has no away %, so the step is skipped: the tie stands."""
        results = [result(1, OUTSIDER, 10, 6), result(OUTSIDER, 2, 6, 10)]
        rows = standings([1, 2], results)
        assert [r.rank for r in rows] == [1, 1]
        assert row_of(rows, 1).tied_with == {2} and row_of(rows, 2).tied_with == {1}
        assert {r.decided_by for r in rows} == {None}

    def test_tiebreaker_match_decides_step_six(self) -> None:
        """TEAM-AMB-19: the tie-breaker match is a normal match whose result decides step 6 only."""
        results = [*at_home_against_outsider(5, 6, 4), *at_home_against_outsider(6, 6, 4)]
        tiebreaker = result(6, 5, 7, 9, kind=MatchKind.TIEBREAKER_MATCH, on=date(2023, 5, 4))
        rows = standings([5, 6], [*results, tiebreaker])
        assert order(rows) == [5, 6]
        assert {r.decided_by for r in rows} == {TieStep.TIEBREAKER_MATCH}
        assert [(r.played, r.wins, r.match_points) for r in rows] == [(10, 6, 84), (10, 6, 84)]
        assert row_of(rows, 5).last_regular_match == SEASON_END

    def test_playoff_matches_do_not_count(self) -> None:
        rows = standings([1, 2], [result(1, 2, 4, 12, kind=MatchKind.PLAYOFF)])
        assert [(r.played, r.match_points) for r in rows] == [(0, 0), (0, 0)]


class TestAwardedPoints:
    def test_forfeits_count_with_their_awarded_points(self) -> None:
        """TEAM-STAND-1 / TEAM-TV-7: (a) 12-0 forfeit win, (b) 9-0, (d) double forfeit: both L, 0 MP."""
        results = [
            result(1, 2, 12, 0),  # (a) HOME stayed and played with 4+
            result(3, 4, 9, 0),  # (b) HOME left
            result(5, 6, 0, 0, winner=None),  # (d) double forfeit [AMB-8]
        ]
        rows = {r.team: r for r in standings(range(1, 7), results)}
        assert (rows[1].wins, rows[1].match_points) == (1, 12)
        assert (rows[2].losses, rows[2].match_points) == (1, 0)
        assert (rows[3].wins, rows[3].match_points) == (1, 9)
        assert [(rows[t].played, rows[t].losses, rows[t].match_points) for t in (5, 6)] == [(1, 1, 0), (1, 1, 0)]
        assert (rows[6].away_played, rows[6].away_wins) == (1, 0)

    def test_tiebreaker_game_adds_no_match_points(self) -> None:
        """TEAM-TV-6: 7-7, AWAY wins the tie-breaker game → AWAY W, HOME L, MP 7 each."""
        rows = {r.team: r for r in standings([1, 2], [result(1, 2, 7, 7, winner=Side.AWAY)])}
        assert (rows[2].wins, rows[2].match_points) == (1, 7)
        assert (rows[1].losses, rows[1].match_points) == (1, 7)

    def test_normal_match_result(self) -> None:
        """TEAM-TV-1: HOME 10-6 → HOME W (MP 10), AWAY L (MP 6)."""
        rows = standings([1, 2], [result(1, 2, 10, 6)])
        assert [(r.team, r.wins, r.losses, r.match_points) for r in rows] == [(1, 1, 0, 10), (2, 0, 1, 6)]


class TestTiesOfThreeOrMore:
    def build(self) -> list[MatchResult]:
        """Teams 1, 2, 3 all 4-3 with 57 MP. Among themselves: 2 beat 1; 1 beat 3 twice; 2 and 3 split.
        Mini-table: 1 is 2-1 (26 MP), 2 is 2-1 (24 MP), 3 is 1-3 (30 MP)."""
        among = [
            result(1, 2, 7, 9),
            result(1, 3, 10, 6),
            result(3, 1, 7, 9),
            result(2, 3, 9, 7),
            result(3, 2, 10, 6),
        ]
        fillers = [
            *(result(3, OUTSIDER, 9, 7) for _ in range(3)),
            *(result(1, OUTSIDER, hp, 16 - hp) for hp in (9, 9, 7, 6)),
            *(result(2, OUTSIDER, hp, 16 - hp) for hp in (10, 9, 7, 7)),
        ]
        return among + fillers

    def test_mini_table_then_restart_from_step_two(self) -> None:
        """TEAM-AMB-10: the mini-table (H2H win %) drops team 3; 1 and 2 restart from step 2, and their own
        head-to-head puts 2 first, although the three-team mini-table's H2H points (step 4) favour 1."""
        rows = standings([1, 2, 3], self.build())
        assert {(r.wins, r.losses, r.match_points) for r in rows} == {(4, 3, 57)}
        assert order(rows) == [2, 1, 3]
        assert [r.decided_by for r in rows] == [TieStep.HEAD_TO_HEAD] * 3
        assert [r.rank for r in rows] == [1, 2, 3]

    def test_head_to_head_is_a_win_percentage_when_the_tied_teams_met_unequally_often(self) -> None:
        """TEAM-AMB-10: in the mini-table 1 won 2 of 4, 2 won 1 of 3 and 3 won its only meeting: 3 (100 %) ranks
        above 1 (50 %), although 1 has more head-to-head wins."""
        among = [result(1, 2, 10, 6), result(2, 1, 6, 10), result(1, 2, 6, 10), result(1, 3, 6, 10)]
        fillers = [
            result(1, OUTSIDER, 10, 6),
            *(result(2, OUTSIDER, 10, 6) for _ in range(2)),
            *(result(3, OUTSIDER, hp, 16 - hp) for hp in (10, 10, 6, 6)),
        ]
        rows = standings([1, 2, 3], among + fillers)
        assert {(r.wins, r.losses, r.match_points) for r in rows} == {(3, 2, 42)}
        assert order(rows) == [3, 1, 2]
        assert [r.decided_by for r in rows] == [TieStep.HEAD_TO_HEAD] * 3

    def test_no_head_to_head_data_skips_the_step(self) -> None:
        """TEAM-AMB-10: team 3 never met 1 or 2, so head-to-head steps are skipped for all three; the tie
        goes on to away % (skipped: no away matches, TEAM-AMB-11) and stays unresolved."""
        results = [
            result(1, 2, 8, 8, winner=Side.HOME),
            result(2, 1, 8, 8, winner=Side.HOME),
            result(3, OUTSIDER, 8, 8, winner=Side.HOME),
            result(3, OUTSIDER, 8, 8, winner=Side.AWAY),
        ]
        rows = standings([1, 2, 3], results)
        assert [r.rank for r in rows] == [1, 1, 1]
        assert order(rows) == [1, 2, 3]
        assert row_of(rows, 2).tied_with == {1, 3}

    def test_tiebreaker_match_separates_one_and_the_rest_restart(self) -> None:
        """TEAM-AMB-10 with step 6: a part still level after a split starts again from step 2."""
        level = [*at_home_against_outsider(1, 2, 1), *at_home_against_outsider(2, 2, 1)]
        level += at_home_against_outsider(3, 2, 1)
        tiebreakers = [
            result(1, 3, 10, 6, kind=MatchKind.TIEBREAKER_MATCH),
            result(2, 3, 10, 6, kind=MatchKind.TIEBREAKER_MATCH),
        ]
        rows = standings([1, 2, 3], level + tiebreakers)
        assert order(rows) == [1, 2, 3]
        assert [r.rank for r in rows] == [1, 1, 3]
        assert row_of(rows, 3).decided_by is TieStep.TIEBREAKER_MATCH
        assert row_of(rows, 1).tied_with == {2}


class TestHeadToHeadMatrix:
    def test_matrix_keeps_wins_and_match_points_per_pair(self) -> None:
        """TEAM-STAND-3: a head-to-head matrix of W/L and match points for every pair of teams."""
        matrix = head_to_head(
            [
                result(1, 2, 10, 6),
                result(2, 1, 9, 7),
                result(1, 3, 12, 0),
                result(1, 2, 0, 16, kind=MatchKind.PLAYOFF),
            ]
        )
        assert matrix[1, 2] == HeadToHead(played=2, wins=1, match_points=17)
        assert matrix[2, 1] == HeadToHead(played=2, wins=1, match_points=15)
        assert matrix[3, 1] == HeadToHead(played=1, wins=0, match_points=0)
        assert (2, 3) not in matrix


class TestConferences:
    def test_each_conference_has_its_own_table(self) -> None:
        """TEAM-CFG-1: standings are kept per conference (one table of its teams each, as the standings service
        asks); an inter-conference match counts for both teams."""
        results = [result(1, 2, 10, 6), result(3, 4, 6, 10), result(1, 3, 9, 7)]
        east, west = standings([1, 2], results), standings([3, 4], results)
        assert order(east) == [1, 2]
        assert order(west) == [4, 3]
        assert row_of(west, 3).played == 2


class TestTiebreakerMatch:
    """TEAM-STAND-2 / TEAM-TV-11: G and H level through step 5; both last played Tue 2023-05-02."""

    G, H = 15, 16

    def table(self, teams_above: int) -> list[StandingRow]:
        results = [
            *(r for rank in range(teams_above) for r in at_home_against_outsider(rank + 1, 9 - rank, 1 + rank)),
            *at_home_against_outsider(self.G, 4, 6),
            *at_home_against_outsider(self.H, 4, 6),
            *at_home_against_outsider(20, 1, 9),
        ]
        return standings([*range(1, teams_above + 1), self.G, self.H, 20], results)

    def test_tie_at_the_playoff_cut_needs_a_tiebreaker_match(self) -> None:
        """TEAM-TV-11: a tie at the playoff cut (4th/5th) has playoff implications → tie-breaker match."""
        rows = self.table(teams_above=3)
        assert [(row_of(rows, t).rank, row_of(rows, t).tied_with) for t in (self.G, self.H)] == [
            (4, {self.H}),
            (4, {self.G}),
        ]
        assert ties_needing_tiebreaker_match(rows, playoff_teams=4) == [frozenset({self.G, self.H})]

    def test_with_a_bye_week_it_is_the_next_regular_match_night(self) -> None:
        """TEAM-TV-11 (a): bye week → Tue 2023-05-09, the next regular match night."""
        rows = self.table(teams_above=3)
        tied = [row_of(rows, self.G), row_of(rows, self.H)]
        played = tiebreaker_match_date(
            tied, regular_season_end=SEASON_END, match_night=TUESDAY, bye_week_before_playoffs=True
        )
        assert played == date(2023, 5, 9)

    def test_without_a_bye_week_it_is_two_nights_later(self) -> None:
        """TEAM-TV-11 (b): no bye → Thu 2023-05-04, two nights after the later last match."""
        rows = self.table(teams_above=3)
        tied = [row_of(rows, self.G), row_of(rows, self.H)]
        played = tiebreaker_match_date(
            tied, regular_season_end=SEASON_END, match_night=TUESDAY, bye_week_before_playoffs=False
        )
        assert played == date(2023, 5, 4)

    def test_tie_below_the_playoffs_needs_no_tiebreaker_match(self) -> None:
        """TEAM-TV-11 (c): a tie for 6th/7th with 4 playoff spots and no seeding effect → none scheduled."""
        rows = self.table(teams_above=5)
        assert row_of(rows, self.G).rank == 6
        assert ties_needing_tiebreaker_match(rows, playoff_teams=4) == []

    def test_tie_for_a_seed_inside_the_playoffs_needs_one(self) -> None:
        """TEAM-STAND-2: a tie decides seeding and HOME status even when both teams qualify (2nd/3rd)."""
        rows = self.table(teams_above=1)
        assert row_of(rows, self.G).rank == 2
        assert ties_needing_tiebreaker_match(rows, playoff_teams=4) == [frozenset({self.G, self.H})]

    def test_bye_week_uses_the_teams_match_night_after_the_season_end(self) -> None:
        """TEAM-STAND-2: the league's last regular night is a Thursday; a Tuesday pair plays the Tuesday after."""
        rows = self.table(teams_above=3)
        played = tiebreaker_match_date(
            [row_of(rows, self.G)],
            regular_season_end=date(2023, 5, 4),
            match_night=TUESDAY,
            bye_week_before_playoffs=True,
        )
        assert played == date(2023, 5, 9)
        assert tiebreaker_match_date(
            [row_of(rows, self.G)],
            regular_season_end=date(2023, 5, 4),
            match_night=THURSDAY,
            bye_week_before_playoffs=True,
        ) == date(2023, 5, 11)

    def test_once_played_the_tie_is_decided(self) -> None:
        """TEAM-AMB-19: the tie-breaker match result decides step 6 and the tie no longer needs a match."""
        results = [
            *(r for rank in range(3) for r in at_home_against_outsider(rank + 1, 9 - rank, 1 + rank)),
            *at_home_against_outsider(self.G, 4, 6),
            *at_home_against_outsider(self.H, 4, 6),
            result(self.G, self.H, 8, 8, winner=Side.AWAY, kind=MatchKind.TIEBREAKER_MATCH, on=date(2023, 5, 4)),
        ]
        rows = standings([1, 2, 3, self.G, self.H], results)
        assert [(r.team, r.rank) for r in rows][3:] == [(self.H, 4), (self.G, 5)]
        assert ties_needing_tiebreaker_match(rows, playoff_teams=4) == []


def random_season(rng: random.Random, teams: int, matches: int) -> list[MatchResult]:
    results = []
    for _ in range(matches):
        home, away = rng.sample(range(1, teams + 1), 2)
        home_points = rng.randint(0, 16)
        winner = rng.choice([Side.HOME, Side.AWAY]) if home_points == 8 else None
        kind = rng.choice([MatchKind.REGULAR] * 8 + [MatchKind.TIEBREAKER_MATCH, MatchKind.PLAYOFF])
        results.append(result(home, away, home_points, 16 - home_points, winner=winner, kind=kind))
    return results


class TestProperties:
    @given(st.integers(min_value=2, max_value=8), st.integers(min_value=0, max_value=30), st.randoms())
    def test_order_is_a_total_order_independent_of_input_order(
        self, teams: int, matches: int, rng: random.Random
    ) -> None:
        """TEAM-STAND-1: the same facts in any order give the same table; every team once; ranks agree."""
        results = random_season(rng, teams, matches)
        team_ids = list(range(1, teams + 1))
        rows = standings(team_ids, results)
        rng.shuffle(results)
        rng.shuffle(team_ids)
        assert standings(team_ids, results) == rows
        assert sorted(order(rows)) == list(range(1, teams + 1))
        for position, row in enumerate(rows, start=1):
            assert row.rank <= position
            assert (row.rank == position) == (position == 1 or rows[position - 2].team not in row.tied_with)
            assert all(row.team in row_of(rows, other).tied_with for other in row.tied_with)
        assert [r.win_pct for r in rows] == sorted((r.win_pct for r in rows), reverse=True)

    def test_ten_thousand_matches_rank_every_team_once(self) -> None:
        """At a large season's scale (its speed is bench/standings_curve.py's to measure)."""
        results = random_season(random.Random(7), 40, 10_000)
        rows = standings(range(1, 41), results)
        assert sorted(row.team for row in rows) == list(range(1, 41))
        assert [r.win_pct for r in rows] == sorted((r.win_pct for r in rows), reverse=True)


def test_team_stand_1_a_team_yet_to_play_ranks_below_a_team_at_five_hundred() -> None:
    """TEAM-STAND-1: no matches is a win percentage of 0, not a perfect record."""
    rows = standings([1, 2], [*at_home_against_outsider(2, wins=1, losses=1)])
    assert order(rows) == [2, 1]


def test_team_stand_2_teams_that_never_played_have_no_tiebreaker_date_without_a_bye_week() -> None:
    rows = standings([1, 2], [])
    with pytest.raises(ValueError, match=r"^the tied teams have played no regular-season match$"):
        tiebreaker_match_date(rows, regular_season_end=SEASON_END, match_night=TUESDAY, bye_week_before_playoffs=False)


class TestPlanTiebreakerMatch:
    """TEAM-STAND-2 / TEAM-AMB-19 / TEAM-TV-11: scheduling the tie-breaker match of G and H, level for 4th."""

    G, H, LAST = 15, 16, 20
    NAMES: ClassVar[dict[int, str]] = {1: "Aces", 2: "Bumpers", 3: "Cradles", 4: "Drains", 5: "Extra Balls"}
    NAMES |= {G: "Gutters", H: "Hold Ons", LAST: "Last Place", 30: "Other Conference", 31: "Elsewhere"}
    H_MAKE_UP = date(2023, 5, 3)  # H's tenth match, a Wednesday make-up: H's last match is the later one

    def table(self, teams_above: int = 3) -> list[StandingRow]:
        results = [
            *(r for rank in range(teams_above) for r in at_home_against_outsider(rank + 1, 9 - rank, 1 + rank)),
            *at_home_against_outsider(self.G, 4, 6),
            *at_home_against_outsider(self.H, 4, 5),
            result(self.H, OUTSIDER, 6, 10, on=self.H_MAKE_UP),
            *at_home_against_outsider(self.LAST, 1, 9),
        ]
        return standings([*range(1, teams_above + 1), self.G, self.H, self.LAST], results)

    def plan(
        self,
        pair: tuple[int, int],
        *,
        rows: list[StandingRow] | None = None,
        unfinished: int = 0,
        bye_week: bool = True,
        venue_home_of: frozenset[int] = frozenset({1}),
        toss_winner: int | None = None,
    ) -> TiebreakerMatchPlan:
        return plan_tiebreaker_match(
            self.table() if rows is None else rows,
            pair,
            names=self.NAMES,
            playoff_teams=4,
            unfinished_regular_matches=unfinished,
            regular_season_end=SEASON_END,
            match_night=TUESDAY,
            bye_week_before_playoffs=bye_week,
            venue_name="Ace Arcade",
            venue_home_of=venue_home_of,
            toss_winner=pair[0] if toss_winner is None else toss_winner,
        )

    def test_with_a_bye_week_it_is_played_the_next_regular_match_night(self) -> None:
        """TEAM-TV-11 (a): bye week → Tue 2023-05-09; the toss winner G is HOME."""
        assert self.plan((self.G, self.H)) == TiebreakerMatchPlan(date(2023, 5, 9), self.G, self.H)

    def test_without_a_bye_week_it_is_two_nights_after_the_later_last_match(self) -> None:
        """TEAM-STAND-2: no bye → two nights after H's Wed 2023-05-03 make-up, whichever team is named first."""
        assert self.plan((self.G, self.H), bye_week=False).play_on == date(2023, 5, 5)
        assert self.plan((self.H, self.G), bye_week=False).play_on == date(2023, 5, 5)

    def test_the_toss_winner_is_home_when_named_second(self) -> None:
        """TEAM-AMB-19: HOME/AWAY by the recorded coin toss, not by the order the teams are named."""
        assert self.plan((self.G, self.H), toss_winner=self.H) == TiebreakerMatchPlan(date(2023, 5, 9), self.H, self.G)

    def test_the_same_team_twice_is_refused(self) -> None:
        with pytest.raises(InvalidInput) as refused:
            self.plan((self.G, self.G))
        assert refused.value.message == "`team_b`: name the other team of the tie, not the same team twice."

    def test_refused_while_a_regular_match_has_no_final_result(self) -> None:
        """TEAM-STAND-2: the tie only stands once every regular-season result is final."""
        with pytest.raises(RuleViolation) as refused:
            self.plan((self.G, self.H), unfinished=2)
        assert refused.value.rule_id == "TEAM-STAND-2"
        assert refused.value.message == (
            "The regular season still has 2 match(es) without a final result; a tie-breaker match is scheduled "
            "once every result is final and the tie still stands."
        )

    def test_a_team_outside_the_table_is_refused(self) -> None:
        with pytest.raises(RuleViolation) as refused:
            self.plan((self.G, 30))
        assert refused.value.rule_id == "TEAM-STAND-2"
        assert refused.value.message == (
            "Other Conference has no result in this conference's table; a tie-breaker match is between two teams "
            "of one table. See `/standings`."
        )

    def test_two_teams_outside_the_table_are_both_named(self) -> None:
        with pytest.raises(RuleViolation) as refused:
            self.plan((30, 31))
        assert refused.value.message == (
            "Other Conference and Elsewhere have no result in this conference's table; a tie-breaker match is "
            "between two teams of one table. See `/standings`."
        )

    def test_teams_not_level_are_refused_with_their_places(self) -> None:
        """TEAM-STAND-2: G (4th, tied) and the last team (6th) are not level after step 5."""
        with pytest.raises(RuleViolation) as refused:
            self.plan((self.G, self.LAST))
        assert refused.value.rule_id == "TEAM-STAND-2"
        assert refused.value.message == (
            "Gutters and Last Place are not level after the tie-break steps (Gutters is 4th, Last Place 6th); a "
            "tie-breaker match is only for teams still level after step 5. See `/standings`."
        )

    def test_a_tie_below_the_playoff_line_is_refused(self) -> None:
        """TEAM-TV-11 (c): G and H level for 6th/7th with 4 playoff places → no tie-breaker match."""
        with pytest.raises(RuleViolation) as refused:
            self.plan((self.G, self.H), rows=self.table(teams_above=5))
        assert refused.value.rule_id == "TEAM-STAND-2"
        assert refused.value.message == (
            "Gutters and Hold Ons are level for 6th–7th place, below the 4 playoff places: the tie changes no "
            "qualification, seeding or home status, so no tie-breaker match is scheduled."
        )

    def test_a_venue_that_is_either_teams_home_is_refused(self) -> None:
        """TEAM-AMB-19: the venue is neutral; the second team's home is as much refused as the first's."""
        with pytest.raises(RuleViolation) as refused:
            self.plan((self.G, self.H), venue_home_of=frozenset({self.H}))
        assert refused.value.rule_id == "TEAM-AMB-19"
        assert refused.value.message == (
            "Ace Arcade is Hold Ons's home venue; a tie-breaker match is played at a neutral venue. Pick a venue "
            "that is neither team's home."
        )

    def test_a_toss_won_by_a_third_team_is_an_error(self) -> None:
        with pytest.raises(ValueError, match=r"^the coin toss is won by one of the two teams$"):
            self.plan((self.G, self.H), toss_winner=1)


@pytest.mark.parametrize(
    ("rank", "place"),
    [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (21, "21st"),
        (22, "22nd"),
        (23, "23rd"),
        (111, "111th"),
        (121, "121st"),
    ],
)
def test_team_stand_2_places_are_written_as_english_ordinals(rank: int, place: str) -> None:
    assert _place(rank) == place
