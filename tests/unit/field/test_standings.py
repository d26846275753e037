"""Field season standings (bot/rules/field/standings.py): FIELD-STAND-1/3, FIELD-ATT-4, FIELD-AMB-11/16/19,
and the UKPL best-N season."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.field.options import UKPL_OPTIONS, FieldOptions
from bot.rules.field.standings import (
    SeasonRow,
    counted_total,
    ranked_by_running_total,
    regular_season_winner,
    season_standings,
)

LPL = FieldOptions()
WEEKS = list(range(1, 9))


def test_two_lowest_weeks_are_dropped_absences_count_as_zero_field_stand_1():
    """FIELD-STAND-1: sum minus the two lowest weeks, absent weeks are 0: best W−2 count."""
    weekly = {"A": {w: 100 + w for w in WEEKS}, "B": {w: 120 for w in WEEKS[:6]}}
    rows = {r.player: r for r in season_standings(weekly, WEEKS, LPL)}
    assert rows["A"].total == sum(100 + w for w in range(3, 9)) and rows["A"].raw_total == sum(100 + w for w in WEEKS)
    assert rows["B"].total == 720 and rows["B"].weeks_played == 6
    assert rows["B"].rank == 1 and rows["A"].rank == 2


def test_weeks_played_counts_weeks_with_a_score_field_att_4():
    """FIELD-ATT-4: weeks played = meets with at least one machine score (0 points still counts)."""
    rows = season_standings({"A": {1: 0, 3: 50}}, WEEKS, LPL)
    assert rows[0].weeks_played == 2


def test_season_length_other_than_eight_still_drops_two_field_amb_16():
    """FIELD-AMB-16: always drop 2, eligibility ceil(W/2)."""
    assert counted_total([10, 20, 30, 40, 50], FieldOptions(regular_weeks=5)) == (Fraction(120), ())
    assert FieldOptions(regular_weeks=5).finals_min_weeks == 3
    assert LPL.finals_min_weeks == 4


def test_guests_and_wiped_seasons_are_left_out_field_amb_11_field_amb_19():
    """FIELD-AMB-11: guests are not in season standings; FIELD-AMB-19: a wiped season leaves the table."""
    rows = season_standings({"A": {1: 90}, "G": {1: 150}, "W": {1: 140}}, [1], LPL, excluded={"G", "W"})
    assert [r.player for r in rows] == ["A"]


def test_equal_totals_share_a_rank_and_two_titles_field_stand_3():
    """FIELD-STAND-3: the regular-season winner is rank 1 of the table (the Playoffs Winner is separate)."""
    rows = season_standings({"A": {1: 90}, "B": {1: 90}, "C": {1: 10}}, [1], FieldOptions(drop_lowest_weeks=0))
    assert [r.rank for r in rows] == [1, 1, 3]
    assert regular_season_winner(rows) == ("A", "B")


def test_ukpl_best_four_meets_tie_broken_by_fifth_and_sixth():
    """UKPL: the best 4 meets count; ties broken by the best 5, then 6."""
    weekly = {"A": {1: 20, 2: 19, 3: 18, 4: 17, 5: 3}, "B": {1: 20, 2: 19, 3: 18, 4: 17, 5: 2, 6: 2}}
    rows = season_standings(weekly, [1, 2, 3, 4, 5, 6], UKPL_OPTIONS)
    assert rows[0].total == rows[1].total == 74
    assert [r.player for r in rows] == ["A", "B"] and [r.rank for r in rows] == [1, 2]


@given(st.lists(st.integers(min_value=0, max_value=150), min_size=2, max_size=12))
def test_dropping_the_lowest_equals_the_best_w_minus_2_field_stand_1(weeks):
    total, _ = counted_total(weeks, LPL)
    assert total == sum(sorted(weeks, reverse=True)[: len(weeks) - 2])


def test_ukpl_tiebreaks_are_the_best_five_and_best_six_meets():
    """UKPL best-N: the best 4 count; ties go to the best 5, then the best 6."""
    total, tiebreak = counted_total([10, 60, 30, 50, 20, 40, 5], UKPL_OPTIONS)
    assert (total, tiebreak) == (180, (200, 210))


@pytest.mark.parametrize(
    ("weeks_held", "options", "running"),
    [(0, LPL, True), (2, LPL, True), (3, LPL, False), (0, UKPL_OPTIONS, False), (1, UKPL_OPTIONS, False)],
)
def test_the_first_nights_go_by_the_running_total_field_stand_1(weeks_held, options, running):
    """FIELD-STAND-1: while no more nights are held than are dropped; never with best-N counting."""
    assert ranked_by_running_total(weeks_held, options) is running


def test_early_table_is_ordered_by_the_running_total_field_stand_1():
    """FIELD-STAND-1: after 2 nights every counted total is 0: Z (300 in one night) leads B (100 + 100)."""
    table = season_standings({"B": {1: 100, 2: 100}, "Z": {2: 300}}, [1, 2], LPL)
    assert [(r.player, r.rank, r.raw_total, r.weeks_played) for r in table] == [("Z", 1, 300, 1), ("B", 2, 200, 2)]


def test_excluded_players_leave_only_their_own_row_field_amb_11():
    weekly = {"G": {1: 500}, "A": {1: 100}, "B": {1: 200}}
    assert [r.player for r in season_standings(weekly, [1], LPL, excluded={"G"})] == ["B", "A"]


def test_an_absent_week_adds_nothing_field_stand_1():
    (row,) = season_standings({"A": {1: 100, 3: 50}}, [1, 2, 3], FieldOptions(drop_lowest_weeks=0))
    assert (row.total, row.raw_total, row.weeks_played) == (150, 150, 2)


def test_equal_totals_share_a_rank_and_are_listed_by_name_field_stand_1():
    table = season_standings({"C": {1: 100}, "A": {1: 100}, "B": {1: 300}}, [1, 2, 3], LPL)
    assert [(r.player, r.rank) for r in table] == [("B", 1), ("A", 2), ("C", 2)]


@pytest.mark.parametrize("options", [LPL, UKPL_OPTIONS])
def test_before_any_night_every_total_is_a_zero_fraction(options):
    """Totals are Fractions (UKPL position points are shared halves) even before anything is counted."""
    (row,) = season_standings({"A": {}}, [], options)
    assert row == SeasonRow("A", 1, Fraction(0), Fraction(0), 0, row.tiebreak)
    assert all(type(value) is Fraction for value in (row.total, row.raw_total, *row.tiebreak))
