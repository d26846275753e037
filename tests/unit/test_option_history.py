"""A league's options over time (COMMON-LEAGUE-2, bot/rules/option_versions.py): a change from a date keeps the
weeks before it as they were played, whatever the number of earlier versions, and an option's history reads as
its spans."""

from __future__ import annotations

from datetime import date

from bot.rules.option_versions import (
    OptionVersion,
    ValueSpan,
    changed,
    describe,
    in_effect,
    key_history,
    stored,
    versions,
)

FEB, MAR, APR = date(2026, 2, 1), date(2026, 3, 1), date(2026, 4, 1)
THREE = [OptionVersion(None, {"a": 1}), OptionVersion(FEB, {"a": 2}), OptionVersion(MAR, {"a": 3})]


def test_common_league_2_a_change_after_the_last_version_leaves_every_earlier_version_alone() -> None:
    assert changed(THREE, date(2026, 3, 15), lambda o: {**o, "x": 1}) == [
        *THREE,
        OptionVersion(date(2026, 3, 15), {"a": 3, "x": 1}),
    ]


def test_common_league_2_a_change_on_the_day_a_version_began_changes_that_version_and_no_earlier() -> None:
    assert changed(THREE, FEB, lambda o: {**o, "x": 1}) == [
        OptionVersion(None, {"a": 1}),
        OptionVersion(FEB, {"a": 2, "x": 1}),
        OptionVersion(MAR, {"a": 3, "x": 1}),
    ]


def test_common_league_2_a_change_within_the_middle_version_splits_it() -> None:
    assert changed(THREE, date(2026, 2, 10), lambda o: {**o, "x": 1}) == [
        OptionVersion(None, {"a": 1}),
        OptionVersion(FEB, {"a": 2}),
        OptionVersion(date(2026, 2, 10), {"a": 2, "x": 1}),
        OptionVersion(MAR, {"a": 3, "x": 1}),
    ]


def test_common_league_2_versions_made_equal_merge_and_the_later_ones_stay() -> None:
    assert changed(THREE, None, lambda o: {"a": max(o["a"], 2)}) == [
        OptionVersion(None, {"a": 2}),
        OptionVersion(MAR, {"a": 3}),
    ]


def test_common_league_2_the_options_in_effect_on_a_day() -> None:
    days = (date(2026, 1, 5), FEB, date(2026, 3, 31))
    assert [in_effect(THREE, day) for day in days] == [{"a": 1}, {"a": 2}, {"a": 3}]
    assert in_effect([OptionVersion(None, {"a": 7})], APR) == {"a": 7}


def test_versions_go_back_to_the_stored_shape() -> None:
    current, history = stored(THREE)
    assert (current, history) == (
        {"a": 3},
        [{"until": "2026-02-01", "options": {"a": 1}}, {"until": "2026-03-01", "options": {"a": 2}}],
    )
    assert versions(current, history) == THREE


def test_an_options_history_joins_equal_spans_and_reads_with_its_dates() -> None:
    history = [*THREE, OptionVersion(APR, {"a": 3, "b": 1})]
    spans = key_history(history, lambda o: o["a"] >= 2)
    assert spans == [ValueSpan(False, None, FEB), ValueSpan(True, FEB, None)]
    assert key_history(history, lambda o: o.get("b", 0)) == [ValueSpan(0, None, APR), ValueSpan(1, APR, None)]
    three = key_history(history, lambda o: o["a"])
    assert three == [ValueSpan(1, None, FEB), ValueSpan(2, FEB, MAR), ValueSpan(3, MAR, None)]
    assert describe("a", three, lambda v: f"#{v}") == (
        "a: #1 until 2026-02-01, #2 from 2026-02-01 until 2026-03-01, #3 since 2026-03-01"
    )
