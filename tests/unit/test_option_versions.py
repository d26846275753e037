"""COMMON-LEAGUE-2: a league's options as dated versions, in the shape `League.options` / `option_history` store."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from bot.rules import option_versions as rules

MARCH_10 = date(2026, 3, 10)
MARCH_17 = date(2026, 3, 17)


def setting(key: str, value: Any) -> Any:
    return lambda options: {**options, key: value}


def test_a_change_splits_the_version_it_falls_in_and_leaves_earlier_days_alone() -> None:
    first = rules.versions({"drop_lowest_weeks": 2}, [])
    later = rules.changed(first, MARCH_10, setting("drop_lowest_weeks", 0))
    assert rules.in_effect(later, date(2026, 3, 3)) == {"drop_lowest_weeks": 2}
    assert rules.in_effect(later, MARCH_10) == {"drop_lowest_weeks": 0}
    options, history = rules.stored(later)
    assert options == {"drop_lowest_weeks": 0}
    assert history == [{"until": "2026-03-10", "options": {"drop_lowest_weeks": 2}}]
    assert rules.versions(options, history) == later  # the stored shape reads back as the same versions


def test_a_change_reaches_every_later_version_and_equal_neighbours_merge() -> None:
    stored: Mapping[str, Any] = {"top_points": 25, "top_bonus": 5}
    versions = rules.changed(rules.versions(stored, []), MARCH_17, setting("top_bonus", 0))
    # From the 10th, top_points changes: the version from the 17th keeps its own top_bonus and takes the change.
    versions = rules.changed(versions, MARCH_10, setting("top_points", 30))
    assert [(v.since, dict(v.options)) for v in versions] == [
        (None, {"top_points": 25, "top_bonus": 5}),
        (MARCH_10, {"top_points": 30, "top_bonus": 5}),
        (MARCH_17, {"top_points": 30, "top_bonus": 0}),
    ]
    # Setting top_bonus back to 5 from the 17th leaves nothing to tell the last two versions apart.
    merged = rules.changed(versions, MARCH_17, setting("top_bonus", 5))
    assert [v.since for v in merged] == [None, MARCH_10]


def test_a_change_from_the_beginning_rewrites_every_version() -> None:
    versions = rules.changed(rules.versions({"a": 1}, []), MARCH_10, setting("a", 2))
    assert [dict(v.options) for v in rules.changed(versions, None, setting("b", 3))] == [
        {"a": 1, "b": 3},
        {"a": 2, "b": 3},
    ]


def test_an_options_history_reads_as_its_spans() -> None:
    versions = rules.changed(rules.versions({}, []), MARCH_10, setting("allow_shorthand", True))
    spans = rules.key_history(versions, lambda options: options.get("allow_shorthand", False))
    line = rules.describe("allow_shorthand", spans, lambda value: "yes" if value else "no")
    assert line == "allow_shorthand: no until 2026-03-10, yes since 2026-03-10"
    unchanged = rules.key_history(versions, lambda options: options.get("top_points", 25))
    assert rules.describe("top_points", unchanged, str) == "top_points: 25"
