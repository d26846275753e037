"""A league's time zone (COMMON-AMB-1, bot/rules/zones.py), word for word: the zone suggested for an offset, a
word or a city typed with underscores or a slash, why a name of no place is refused, and the autocomplete labels."""

from __future__ import annotations

import pytest

from bot.rules import zones
from bot.rules.refusals import Refusal

KEEPS = "A city's zone keeps deadlines on its clocks all year round."


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("UTC-5", ["America/New_York", "America/Chicago", "America/Toronto"]),  # in winter or in summer
        ("UTC-2:30", ["America/St_Johns"]),  # Newfoundland's summer offset
        ("-3:30", ["America/St_Johns"]),
        ("Etc/GMT-9", ["Asia/Tokyo"]),  # POSIX sign: nine hours ahead of UTC
        ("Etc/GMT+8", ["America/Los_Angeles", "America/Anchorage", "America/Vancouver"]),  # 8 hours behind
        ("US_Eastern", ["America/New_York"]),
        ("US Eastern", ["America/New_York"]),
        ("canada atlantic time", ["America/Halifax"]),
        ("US/Chicago", ["America/Chicago"]),  # a city after a slash
        ("new york", ["America/New_York"]),
    ],
)
def test_common_amb_1_the_zone_suggested_for_what_was_typed(typed: str, meant: list[str]) -> None:
    assert zones.suggest(typed) == meant


@pytest.mark.parametrize(
    ("typed", "text"),
    [
        (
            "Etc/GMT",
            "COMMON-AMB-1: `timezone` Etc/GMT has no daylight saving; did you mean Europe/London? " + KEEPS,
        ),
        (
            "Poland",  # a legacy alias that names no city to suggest
            "COMMON-AMB-1: `timezone` Poland is not a region zone (Area/City); give the zone of the league's city. "
            + KEEPS,
        ),
        (
            "Singapore",
            "COMMON-AMB-1: `timezone` Singapore is not a region zone (Area/City); did you mean Asia/Singapore? "
            + KEEPS,
        ),
        (
            "UTC",
            "COMMON-AMB-1: `timezone` UTC is nobody's wall clock, so deadlines would drift from the venue's clocks. "
            "Give the zone of the league's city, e.g. America/New_York or Europe/London (a place on UTC all year has "
            "its own, such as Atlantic/Reykjavik).",
        ),
    ],
)
def test_common_amb_1_why_a_name_of_no_place_is_refused(typed: str, text: str) -> None:
    with pytest.raises(Refusal) as caught:
        zones.region_zone(typed)
    assert str(caught.value) == text


@pytest.mark.parametrize(
    ("typed", "labels"),
    [
        ("st_johns", ["Newfoundland (St. John's) · America/St_Johns"]),  # its zone's city, not its label
        ("york eastern", ["US Eastern (New York) · America/New_York"]),  # the zone's city then one of its words
        (
            "north_dakota",
            [
                "Beulah, North Dakota · America/North_Dakota/Beulah",
                "Center, North Dakota · America/North_Dakota/Center",
                "New Salem, North Dakota · America/North_Dakota/New_Salem",
            ],
        ),
    ],
)
def test_autocomplete_finds_zones_typed_with_underscores_or_spaces(typed: str, labels: list[str]) -> None:
    assert [choice.label for choice in zones.zone_choices(typed, 5)] == labels


def test_a_city_label_reads_its_words_with_spaces() -> None:
    assert zones.city_label("America/North_Dakota/New_Salem") == "New Salem, North Dakota"
