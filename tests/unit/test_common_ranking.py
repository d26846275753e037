"""Tie ranking lives once (bot/rules/common.py); every format's tables rank with it: standard competition ranking,
where a place is 1 + the number strictly ahead and level entries share the first of their places (1, 2, 2, 4)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from bot.rules.common import competition_ranks
from bot.rules.field.options import UKPL_OPTIONS, FieldOptions
from bot.rules.field.scoring import MachineScore, meet_results, rank_machine
from bot.rules.field.standings import season_standings
from bot.rules.ladder.standings import WeekRecord, standings

LPL = FieldOptions()  # Lafayette, the defaults


def test_level_entries_share_the_first_of_their_places() -> None:
    assert competition_ranks([30, 20, 20, 10]) == [1, 2, 2, 4]
    assert competition_ranks(["a", "a", "a"]) == [1, 1, 1]
    assert competition_ranks([]) == []


def test_level_can_be_any_relation_with_the_one_ahead() -> None:
    blocks = [("A", {"B"}), ("B", {"A"}), ("C", set())]
    assert competition_ranks(blocks, level=lambda ahead, team: team[0] in ahead[1]) == [1, 1, 3]


@given(st.lists(st.integers(min_value=-5, max_value=5), max_size=12))
def test_a_place_is_one_more_than_those_strictly_ahead(values: list[int]) -> None:
    best_first = sorted(values, reverse=True)
    ahead = [1 + sum(other > value for other in best_first) for value in best_first]
    assert competition_ranks(best_first) == ahead


weekly_points = st.dictionaries(
    st.integers(min_value=1, max_value=12),
    st.dictionaries(st.integers(min_value=1, max_value=6), st.integers(min_value=0, max_value=4), max_size=6),
    max_size=10,
)


@given(weekly_points, st.sampled_from([LPL, UKPL_OPTIONS]))
def test_field_season_ranks_count_the_players_ahead_field_stand_1(weekly, options) -> None:
    rows = season_standings(weekly, [1, 2, 3, 4, 5, 6], options)
    for row in rows:
        ahead = sum((other.total, other.tiebreak) > (row.total, row.tiebreak) for other in rows)
        assert row.rank == 1 + ahead


machine_scores = st.dictionaries(
    st.integers(min_value=1, max_value=12), st.integers(min_value=0, max_value=5), min_size=1, max_size=10
)


@given(machine_scores)
def test_field_machine_and_meet_places_count_those_ahead_field_score_2(scores: dict[int, int]) -> None:
    result = rank_machine([MachineScore(player, score) for player, score in scores.items()], UKPL_OPTIONS)
    for player, score in scores.items():
        assert result.points[player].rank == 1 + sum(other > score for other in scores.values())
    meet = meet_results({1: result}, UKPL_OPTIONS)
    for row in meet:
        assert row.position == 1 + sum(other.machine_points > row.machine_points for other in meet)


@given(
    st.dictionaries(
        st.integers(min_value=1, max_value=12),
        st.lists(st.tuples(st.integers(min_value=0, max_value=3), st.integers(min_value=0, max_value=3)), max_size=3),
        max_size=10,
    )
)
def test_ladder_positions_count_the_players_ahead_ladder_stand_1(weeks: dict[int, list[tuple[int, int]]]) -> None:
    records = {
        player: [WeekRecord(week, tlp, Fraction(tns)) for week, (tlp, tns) in enumerate(played, start=1)]
        for player, played in weeks.items()
    }
    rows = standings(records)
    for row in rows:
        assert row.position == 1 + sum((other.tlp, other.ans) > (row.tlp, row.ans) for other in rows)
