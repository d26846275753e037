"""Standings, division split and playoffs (bot/rules/ladder/standings.py): LADDER-STAND-*, LADDER-DIV-*,
LADDER-PO-*, LADDER-AMB-17/18/19/33."""

from fractions import Fraction

from bot.rules.ladder.groups import group_sizes
from bot.rules.ladder.options import LadderOptions
from bot.rules.ladder.standings import (
    SplitLine,
    WeekRecord,
    WinLoss,
    division_groups,
    playoff_count,
    playoff_field,
    season_totals,
    split_divisions,
    standings,
    win_loss,
)

OPTIONS = LadderOptions()


def test_season_totals_sum_tlp_and_average_tns_weeks():
    """LADDER-BONUS-4 / LADDER-NORM-3 / LADDER-AMB-25: TLP sums weeks; ANS skips weeks without TNS."""
    weeks = [WeekRecord(1, 12, Fraction(5)), WeekRecord(2, 0, None), WeekRecord(3, 9, Fraction(3))]
    assert season_totals(weeks) == (21, Fraction(4))
    assert season_totals(weeks, up_to_week=1) == (12, Fraction(5))


def test_standings_by_tlp_then_ans_sharing_positions():
    """LADDER-STAND-1 / LADDER-NORM-4: TLP descending, ties by ANS; fully level players share a position."""
    records = {
        1: [WeekRecord(1, 10, Fraction(2))],
        2: [WeekRecord(1, 12, Fraction(1))],
        3: [WeekRecord(1, 10, Fraction(3))],
        4: [WeekRecord(1, 10, Fraction(2))],
    }
    rows = standings(records)
    assert [(r.player, r.position) for r in rows] == [(2, 1), (3, 2), (1, 3), (4, 3)]


def test_standings_per_division_after_the_split():
    """LADDER-STAND-1 / LADDER-STAND-2: from week 6 standings are shown per division."""
    records = {p: [WeekRecord(1, 10 * p, Fraction(p))] for p in range(1, 5)}
    rows = standings(records, {1: "B", 2: "B", 3: "A", 4: "A"})
    assert [(r.division, r.player, r.position) for r in rows] == [("A", 4, 1), ("A", 3, 2), ("B", 2, 1), ("B", 1, 2)]


def test_win_loss_is_the_pairwise_game_record():
    """LADDER-AMB-17: +1 W per opponent placed lower, +1 L per opponent placed higher."""
    record = win_loss([{1: 30, 2: 20, 3: 10}, {1: 5, 2: 50}])
    assert record[1] == WinLoss(2, 1)
    assert record[2] == WinLoss(2, 1)
    assert record[3] == WinLoss(0, 2)
    assert WinLoss().share == 0


def test_tv20_division_split_odd_count():
    """LADDER-TV-20 / LADDER-DIV-1 / LADDER-ATT-6 / LADDER-AMB-18: 12 registered, one dropped → n = 11:
    A gets 5, B gets 6; p5 and p6 level on TLP 60 → ANS 1.25 beats 1.10."""
    tlp = {1: 80, 2: 75, 3: 71, 4: 66, 5: 60, 6: 60, 7: 55, 8: 50, 9: 45, 10: 40, 11: 35}
    average = {5: Fraction(125, 100), 6: Fraction(110, 100)}
    lines = [SplitLine(p, t, average.get(p, Fraction(1))) for p, t in tlp.items()]
    split = split_divisions(lines, OPTIONS)
    assert split is not None
    assert sorted(p for p, d in split.items() if d == "A") == [1, 2, 3, 4, 5]
    assert sum(1 for d in split.values() if d == "B") == 6
    a_groups = division_groups([1, 2, 3, 4, 5])
    assert a_groups == [[1, 2], [3, 4, 5]]  # LADDER-DIV-2 / LADDER-AMB-33 / LADDER-AMB-11: [2,3]
    assert [len(g) for g in division_groups([6, 7, 8, 9, 10, 11])] == [3, 3]


def test_tv20_even_and_too_small_leagues():
    """LADDER-TV-20 / LADDER-DIV-2 / LADDER-DIV-3: n = 8 → 4/4, each division 2 groups of 2; n = 7 → no split."""
    eight = split_divisions([SplitLine(p, 100 - p, Fraction(1)) for p in range(8)], OPTIONS)
    assert eight is not None and list(eight.values()).count("A") == 4
    assert group_sizes(4) == (2, 2)
    assert split_divisions([SplitLine(p, 100 - p, Fraction(1)) for p in range(7)], OPTIONS) is None


def test_split_ties_go_to_ans_then_win_loss():
    """LADDER-DIV-1 / LADDER-AMB-17: level TLP and ANS → the better weeks 1-5 win-loss record goes to A."""
    lines = [SplitLine(p, 50, Fraction(1), WinLoss(p, 10 - p)) for p in range(8)]
    split = split_divisions(lines, OPTIONS)
    assert split is not None
    assert sorted(p for p, d in split.items() if d == "A") == [4, 5, 6, 7]


def test_playoff_count_from_division_size():
    """LADDER-PO-1 / LADDER-AMB-19: clamp(size // 3, 2, 6), or the commissioner's number."""
    assert [playoff_count(n, OPTIONS) for n in (4, 6, 9, 12, 20, 30)] == [2, 2, 3, 4, 6, 6]
    assert playoff_count(12, LadderOptions(playoff_qualifiers=2)) == 2


def test_missing_qualifiers_are_replaced_by_runners_up():
    """LADDER-PO-2 / LADDER-STAND-2: at 19:30 a missing qualifier's place goes to the next runner-up present."""
    final = [1, 2, 3, 4, 5, 6]
    result = playoff_field(final, 3, present={1, 3, 4, 5, 6})
    assert result.players == (1, 4, 3)
    assert result.replacements == ((2, 4),)
    skipped = playoff_field(final, 3, present={1, 2, 5})
    assert skipped.players == (1, 2, 5)  # runner-up 4 absent too: the next one plays


def test_notified_absence_is_first_a_reschedule_task():
    """LADDER-PO-3: advance notice → a reschedule task; rescheduled → keeps the place; otherwise an alternate."""
    final = [1, 2, 3, 4]
    kept = playoff_field(final, 2, present={1, 3, 4}, notified_absent={2}, rescheduled={2})
    assert (kept.players, kept.reschedule_tasks) == ((1, 2), (2,))
    replaced = playoff_field(final, 2, present={1, 3, 4}, notified_absent={2})
    assert replaced.players == (1, 3)


def test_players_fully_level_are_listed_by_player_id_whatever_the_input_order():
    """LADDER-STAND-1: level on TLP and ANS they share a position, listed in a fixed order."""
    records = {5: [WeekRecord(1, 10, Fraction(2))], 2: [WeekRecord(1, 10, Fraction(2))]}
    assert [(r.player, r.position) for r in standings(records)] == [(2, 1), (5, 1)]


def test_a_player_without_a_division_is_listed_before_the_divisions():
    """LADDER-STAND-2 / LADDER-DIV-1: after the split, a player the split left out (no division) still has a
    row, in a table of their own ahead of A and B."""
    records = {
        1: [WeekRecord(1, 10, Fraction(2))],
        2: [WeekRecord(1, 20, Fraction(2))],
        3: [WeekRecord(1, 5, Fraction(1))],
    }
    rows = standings(records, {1: "B", 2: "A"})
    assert [(r.division, r.player, r.position) for r in rows] == [(None, 3, 1), ("A", 2, 1), ("B", 1, 1)]


def test_a_level_game_is_neither_a_win_nor_a_loss():
    """LADDER-AMB-17: equal placement scores count for neither player."""
    record = win_loss([{1: 100, 2: 100, 3: 50}])
    assert record[1] == WinLoss(1, 0)
    assert record[3] == WinLoss(0, 2)


def test_playoff_places_are_a_whole_number():
    """LADDER-PO-1 / LADDER-AMB-19: 10 players // 3 = 3 places (not 3⅓); 20 players → 6."""
    assert playoff_count(10, OPTIONS) == 3
    assert playoff_count(20, OPTIONS) == 6
