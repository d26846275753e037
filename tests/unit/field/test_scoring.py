"""Field machine points and meet results (bot/rules/field/scoring.py): FIELD-SCORE-2/3/5/6, FIELD-ATT-3,
FIELD-AMB-3/11/17 and the worked vectors FIELD-TV-1/2/3/12/13."""

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from bot.rules.field.options import UKPL_OPTIONS, FieldOptions
from bot.rules.field.scoring import (
    MachinePoints,
    MachineScore,
    ScoreStatus,
    TieToBreak,
    meet_results,
    position_points,
    rank_machine,
    weekly_score,
)

LPL = FieldOptions()
TV1 = {"A": 1_200_000, "B": 950_000, "C": 2_400_000, "D": 300_000, "E": 950_000, "F": 1_000_000}


def scores(values: dict[str, int], **statuses: ScoreStatus) -> list[MachineScore]:
    return [MachineScore(p, s, statuses.get(p, ScoreStatus.NORMAL)) for p, s in values.items()]


def totals(result) -> dict:
    return {p: row.total for p, row in result.points.items()}


def test_tv1_tie_is_provisional_until_the_playoff_field_score_3():
    """FIELD-TV-1 / FIELD-SCORE-3: B and E tie, their points stay provisional, a playoff task is listed."""
    result = rank_machine(scores(TV1), LPL)
    assert result.open_ties == (TieToBreak(frozenset({"B", "E"}), 950_000),)
    assert result.points["B"].provisional and result.points["E"].provisional
    assert not result.points["A"].provisional
    assert totals(result) == {"C": 30, "A": 24, "F": 23, "B": 22, "E": 22, "D": 20}


def test_tv1_playoff_result_orders_the_tied_players_field_score_2():
    """FIELD-TV-1 / FIELD-SCORE-2: E wins the one-ball playoff: C 30, A 24, F 23, E 22, B 21, D 20 (140)."""
    result = rank_machine(scores(TV1), LPL, {frozenset({"B", "E"}): ("E", "B")})
    assert totals(result) == {"C": 30, "A": 24, "F": 23, "E": 22, "B": 21, "D": 20}
    assert sum(totals(result).values()) == 140
    assert result.open_ties == () and not any(row.provisional for row in result.points.values())


def test_tv2_big_field_ranks_26_and_later_get_zero():
    """FIELD-TV-2: field of 28: rank 1 → 30, rank 25 → 1, ranks 26-28 → 0."""
    result = rank_machine([MachineScore(f"P{i}", 1000 - i) for i in range(1, 29)], LPL)
    assert result.points["P1"].total == 30
    assert result.points["P25"].total == 1
    assert [result.points[f"P{i}"].total for i in (26, 27, 28)] == [0, 0, 0]


def test_tv3_weekly_score_field_score_5():
    """FIELD-TV-3 / FIELD-SCORE-5: ranks 1, 3, 2, 7, 1 → 126; a perfect week is 150."""
    assert weekly_score([1, 3, 2, 7, 1], LPL) == 126
    assert weekly_score([1] * 5, LPL) == 150


def test_weekly_score_sums_the_machines_and_absent_players_have_none_field_score_5():
    machines = {m: rank_machine(scores({"A": 10 + m, "B": 5}), LPL) for m in range(5)}
    rows = {row.player: row for row in meet_results(machines, LPL)}
    assert rows["A"].machine_points == 150 and rows["B"].machine_points == 5 * 24
    assert "C" not in rows


def test_tv12_death_save_zero_ranks_last_field_score_6():
    """FIELD-TV-12 / FIELD-SCORE-6 / FIELD-AMB-3: U's zero ranks 10th (16); others 30, 24 … 17."""
    values = {f"P{i}": 1000 - i for i in range(1, 10)} | {"U": 5000}
    result = rank_machine(scores(values, U=ScoreStatus.ZEROED), LPL)
    assert [result.points[f"P{i}"].total for i in range(1, 10)] == [30, 24, 23, 22, 21, 20, 19, 18, 17]
    assert result.points["U"].total == 16 and result.points["U"].rank == 10


def test_tv12_zero_no_rank_all_option_field_amb_3():
    """FIELD-TV-12 with `zero_no_rank_all`: U gets 0 and takes no rank; the others are unchanged."""
    values = {f"P{i}": 1000 - i for i in range(1, 10)} | {"U": 0}
    result = rank_machine(scores(values, U=ScoreStatus.ZEROED), FieldOptions(zero_no_rank_all=True))
    assert result.points["U"].total == 0 and result.points["U"].rank is None
    assert result.points["P9"].total == 17


def test_tv12_interference_forfeit_takes_no_rank_either_way_field_score_6():
    """FIELD-TV-12: a game forfeited for interference (4.3) gets 0 and no rank under either setting."""
    values = {f"P{i}": 1000 - i for i in range(1, 10)} | {"U": 0}
    for options in (LPL, FieldOptions(zero_no_rank_all=True)):
        result = rank_machine(scores(values, U=ScoreStatus.FORFEITED), options)
        assert result.points["U"].total == 0 and result.points["U"].rank is None
        assert result.points["P9"].total == 17


def test_all_penalty_zeros_share_the_lowest_rank_without_playoff_field_amb_3():
    result = rank_machine(scores({"A": 900, "B": 0, "C": 0}, B=ScoreStatus.ZEROED, C=ScoreStatus.ZEROED), LPL)
    assert result.points["B"].rank == result.points["C"].rank == 2
    assert result.open_ties == ()


def test_void_scores_are_not_ranked_field_score_6():
    result = rank_machine(scores({"A": 900, "B": 100}, A=ScoreStatus.VOID), LPL)
    assert "A" not in result.points and result.points["B"].total == 30


def test_unplayable_playoff_shares_best_rank_and_bonus_field_amb_17():
    """FIELD-AMB-17: standard competition ranking (1-2-2-4); a tie for 1st shares the +5; flagged."""
    result = rank_machine(scores({"A": 500, "B": 500, "C": 100}), LPL, {frozenset({"A", "B"}): None})
    assert totals(result) == {"A": 30, "B": 30, "C": 23}
    assert result.unplayed_ties and not result.points["A"].provisional


def test_tv13_guest_counts_in_the_ranking_field_att_3():
    """FIELD-TV-13 / FIELD-ATT-3 / FIELD-AMB-11: the guest's top score takes 30; members get 24 … 20."""
    members = {f"M{i}": 100 - i for i in range(1, 6)}
    entries = [*scores(members), MachineScore("G", 1000, guest=True)]
    result = rank_machine(entries, LPL)
    assert result.points["G"].total == 30
    assert [result.points[f"M{i}"].total for i in range(1, 6)] == [24, 23, 22, 21, 20]
    rows = meet_results({"M2": result}, LPL, guests={"G"})
    assert next(r for r in rows if r.player == "G").guest


def test_ukpl_guests_are_removed_before_ranking():
    result = rank_machine([MachineScore("A", 10), MachineScore("G", 99, guest=True)], UKPL_OPTIONS)
    assert "G" not in result.points and result.points["A"].points == 1


def test_ukpl_points_by_machine_field_ties_share_higher_and_double_bonus():
    """UKPL: N…1 by the players on the machine; ties share the higher points; +1 when first ≥ 2 × second."""
    result = rank_machine(scores({"A": 1000, "B": 400, "C": 400, "D": 10}), UKPL_OPTIONS)
    assert totals(result) == {"A": 5, "B": 3, "C": 3, "D": 1}
    assert result.open_ties == ()
    close = rank_machine(scores({"A": 700, "B": 400}), UKPL_OPTIONS)
    assert totals(close) == {"A": 2, "B": 1}


def test_ukpl_no_bonus_for_a_tied_first_place():
    result = rank_machine(scores({"A": 1000, "B": 1000, "C": 1}), UKPL_OPTIONS)
    assert totals(result) == {"A": 3, "B": 3, "C": 1}


def test_ukpl_unrecorded_score_ranks_last_and_counts():
    result = rank_machine([MachineScore("A", 10), MachineScore("B", None), MachineScore("C", 5)], UKPL_OPTIONS)
    assert result.points["B"].points == 1 and result.points["A"].points == 3


def test_meet_positions_and_shared_position_points():
    """UKPL position points: place k earns max(0, 21 − k); shared places average (20th and 21st → 0.5)."""
    assert position_points(1, 1, UKPL_OPTIONS) == 20
    assert position_points(2, 2, UKPL_OPTIONS) == Fraction(37, 2)
    assert position_points(20, 2, UKPL_OPTIONS) == Fraction(1, 2)
    assert position_points(25, 1, UKPL_OPTIONS) == 0
    machine = rank_machine(scores({"A": 3, "B": 2, "C": 2}), UKPL_OPTIONS)
    rows = meet_results({1: machine}, UKPL_OPTIONS)
    assert [(r.player, r.position) for r in rows] == [("A", 1), ("B", 2), ("C", 2)]


@given(st.lists(st.integers(min_value=0, max_value=50), min_size=1, max_size=30))
def test_points_never_negative_and_sum_to_the_scale(values):
    """FIELD-SCORE-2: with the ties broken every rank 1..n is used once, so the points are the scale's."""
    entries = [MachineScore(f"P{i}", v) for i, v in enumerate(values)]
    first = rank_machine(entries, LPL)
    orders = {tie.players: tuple(sorted(tie.players)) for tie in first.open_ties}
    result = rank_machine(entries, LPL, orders)
    n = len(values)
    assert sorted(row.rank for row in result.points.values()) == list(range(1, n + 1))
    assert sum(totals(result).values()) == sum(max(0, 26 - r) for r in range(1, n + 1)) + 5


def test_every_open_tie_of_a_machine_is_provisional_field_score_3():
    """FIELD-SCORE-3: two separate ties on one machine: all four players' points wait for their playoffs."""
    result = rank_machine(scores({"A": 900, "B": 900, "C": 500, "D": 500, "E": 100}), LPL)
    assert {p for p, row in result.points.items() if row.provisional} == {"A", "B", "C", "D"}
    assert len(result.open_ties) == 2


def test_an_unplayable_playoff_is_listed_for_the_slo_field_amb_17():
    """FIELD-AMB-17: a playoff that cannot happen leaves the tie shared and flagged."""
    result = rank_machine(scores({"A": 900, "B": 900, "C": 500}), LPL, {frozenset({"A", "B"}): None})
    assert result.unplayed_ties == (TieToBreak(frozenset({"A", "B"}), 900),)
    assert result.open_ties == () and (result.points["A"].rank, result.points["B"].rank) == (1, 1)


def test_a_forfeited_players_row_is_theirs_with_no_rank_field_score_6():
    result = rank_machine(scores({"A": 900, "X": 500}, X=ScoreStatus.FORFEITED), LPL)
    assert result.points["X"] == MachinePoints("X", None, 0, 0)


def test_a_real_zero_ranks_above_a_penalty_zero_field_score_6():
    """FIELD-SCORE-6: a penalty zero ranks after every real score, a real score of 0 included."""
    result = rank_machine(scores({"A": 900, "Z": 0, "P": 0}, P=ScoreStatus.ZEROED), LPL)
    assert {p: row.rank for p, row in result.points.items()} == {"A": 1, "Z": 2, "P": 3}


def test_exactly_double_the_second_earns_the_ukpl_bonus():
    """UKPL: a first place at least double the second earns +1."""
    result = rank_machine(scores({"A": 1000, "B": 500, "C": 100}), UKPL_OPTIONS)
    assert result.points["A"].bonus == 1
    assert rank_machine(scores({"A": 999, "B": 500}), UKPL_OPTIONS).points["A"].bonus == 0


def test_meet_rows_flag_only_players_with_a_provisional_machine_field_score_3():
    """FIELD-SCORE-3: a meet row is provisional when one of the player's machines waits for a playoff; equal
    totals are listed by name."""
    tied = rank_machine(scores({"B": 900, "C": 900, "A": 100}), LPL)
    clean = rank_machine(scores({"A": 900, "B": 100, "C": 500}), LPL)
    rows = meet_results({1: tied, 2: clean}, LPL)
    assert [(r.player, r.machine_points, r.provisional) for r in rows] == [
        ("C", 54, True),
        ("A", 53, False),
        ("B", 53, True),
    ]


def test_no_points_below_the_last_paying_place_field_score_5():
    """FIELD-SCORE-5: place 26 and lower earn nothing on a machine (25 points down to 1)."""
    assert weekly_score([25, 26, 40], LPL) == 1
