"""UKPL eras (bot/rules/field/ukpl_eras.py): the field scoring options the league's history needs, and the
dated versions that pick them for each meet (docs/ukpl-eras.md)."""

from datetime import date
from fractions import Fraction

import pytest

from bot.rules.field.options import UKPL_OPTIONS, FieldOptions
from bot.rules.field.scoring import MachineScore, meet_results, position_points, rank_machine
from bot.rules.field.ukpl_eras import EVERY_REGION, RuleVersion, _version, era_options, versions_in_force


def ukpl(**changes) -> FieldOptions:
    return FieldOptions.model_validate({**UKPL_OPTIONS.model_dump(), **changes})


def points(entries, options) -> dict:
    return {p: row.total for p, row in rank_machine(entries, options).points.items()}


def test_tied_players_can_take_the_lower_points():
    """UKPL seasons 15-16: 29, 27, 27, 26 where the documented rule gives 29, 28, 28, 26 (the FIELD-SCORE-2
    ranking, with a configured tie rule in place of the FIELD-SCORE-3 playoff)."""
    entries = [MachineScore("A", 90), MachineScore("B", 50), MachineScore("C", 50), MachineScore("D", 10)]
    assert points(entries, UKPL_OPTIONS) == {"A": 4, "B": 3, "C": 3, "D": 1}
    assert points(entries, ukpl(machine_ties="share_lower")) == {"A": 4, "B": 2, "C": 2, "D": 1}


def test_an_unrecorded_score_has_three_readings():
    """Ranked last and scored (the SQL), or 0 points and no rank like a FIELD-SCORE-6 forfeit, with N the
    recorded scores or all the machine's rows."""
    entries = [MachineScore("A", 30), MachineScore("B", 20), MachineScore("C", None)]
    assert points(entries, UKPL_OPTIONS) == {"A": 3, "B": 2, "C": 1}
    assert points(entries, ukpl(unrecorded_scores="no_points")) == {"A": 2, "B": 1, "C": 0}
    assert points(entries, ukpl(unrecorded_scores="no_points_counted")) == {"A": 3, "B": 2, "C": 0}


def test_top_half_points_and_positions_by_league_points():
    """Seasons 1-4: 7 … 1, then 1 for every place in the top half; legacy positions rank league points,
    so everyone on 0 shares one position."""
    seven = ukpl(position_points_first=7, top_half_points=1)
    assert [position_points(k, 1, seven, field=20) for k in (1, 7, 10, 11)] == [7, 1, 1, 0]
    assert position_points(10, 2, seven, field=20) == Fraction(1, 2)
    assert position_points(10, 1, UKPL_OPTIONS, field=20) == 11  # no top-half floor by default
    machine = {1: rank_machine([MachineScore(f"P{i}", 100 - i) for i in range(20)], seven)}
    legacy = ukpl(position_points_first=7, top_half_points=1, position_by="position_points")
    rows = meet_results(machine, legacy)
    assert [r.position_points for r in rows] == [7, 6, 5, 4, 3, 2, 1, 1, 1, 1, *[0] * 10]
    assert [r.position for r in rows] == [1, 2, 3, 4, 5, 6, 7, 7, 7, 7, *[11] * 10]
    assert [r.position for r in meet_results(machine, seven)] == list(range(1, 21))


def test_the_league_points_scale_follows_the_season():
    assert era_options(1, "n", date(2007, 3, 1)).position_points_first == 7
    assert era_options(6, "n", date(2012, 3, 1)).position_points_first == 15
    assert era_options(9, "n", date(2015, 3, 1)).position_points_first == 20
    assert era_options(14, "n", None).position_by == "position_points"
    assert era_options(15, "n", date(2022, 4, 3)).position_by == "machine_points"


def test_a_dated_version_takes_effect_on_its_date_in_its_season():
    """Northern's first two season-15 meets kept the higher points; from 2022-02-14 ties took the lower."""
    assert era_options(15, "n", date(2022, 2, 13)).machine_ties == "share_higher"
    assert era_options(15, "n", date(2022, 4, 3)).machine_ties == "share_lower"
    assert era_options(16, "m", date(2023, 1, 8)).machine_ties == "share_lower"
    assert era_options(17, "m", date(2023, 10, 1)) == UKPL_OPTIONS


def test_a_regional_version_overrides_and_a_later_one_restores():
    assert era_options(11, "m", None).unrecorded_scores == "no_points"
    assert era_options(11, "n", None).unrecorded_scores == "rank_last"
    assert era_options(12, "m", None).unrecorded_scores == "rank_last"
    assert era_options(3, "s", None).top_bonus == 0 and era_options(3, "i", None).top_bonus == 1


def test_versions_apply_by_start_then_regional_after_every_region():
    late = RuleVersion(2, EVERY_REGION, {"top_bonus": 1})
    regional = RuleVersion(2, "n", {"top_bonus": 0})
    early = RuleVersion(1, "n", {"top_bonus": 1}, since=date(2007, 1, 1))
    versions = (regional, late, early)
    assert versions_in_force(2, "n", None, versions) == [early, late, regional]
    assert versions_in_force(1, "n", date(2006, 12, 31), versions) == []
    assert versions_in_force(2, "sw", None, versions) == [late]


def test_an_era_version_is_dated_regional_and_read_only():
    """UKPL_ERAS is written with `_version`, at import; checked here because a test cannot see it built.
    A version keeps its season, region, start date and options, and its options cannot be changed later."""
    version = _version(15, "n", date(2022, 2, 14), machine_ties="share_lower")
    assert version == RuleVersion(15, "n", {"machine_ties": "share_lower"}, date(2022, 2, 14))
    assert _version(5, EVERY_REGION).since is None
    with pytest.raises(TypeError):
        version.options["machine_ties"] = "share_higher"  # type: ignore[index]
    assert versions_in_force(15, "n", date(2022, 3, 1), (version,)) == [version]
    assert versions_in_force(15, "m", date(2022, 3, 1), (version,)) == []
