"""COMMON-AMB-1: a league's zone is a region zone (Area/City), so deadlines follow its daylight saving."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from bot.rules import zones
from bot.rules.refusals import InvalidInput, RuleViolation

ACCEPTED = [
    ("America/New_York", "America/New_York"),
    ("america/new_york", "America/New_York"),
    ("  EUROPE/LONDON ", "Europe/London"),
    ("America/Indiana/Indianapolis", "America/Indiana/Indianapolis"),
    ("america/argentina/buenos_aires", "America/Argentina/Buenos_Aires"),
    ("America/Phoenix", "America/Phoenix"),  # no daylight saving, yet the rules of a place
    ("Atlantic/Reykjavik", "Atlantic/Reykjavik"),  # on UTC all year, by its own name
    ("Pacific/Honolulu", "Pacific/Honolulu"),
    ("Australia/Sydney", "Australia/Sydney"),
]

REFUSED_WITH_SUGGESTION = [
    ("EST", "has no daylight saving; did you mean America/New_York?"),
    ("est", "has no daylight saving; did you mean America/New_York?"),
    ("PST", "has no daylight saving; did you mean America/Los_Angeles?"),
    ("CST", "has no daylight saving; did you mean America/Chicago?"),
    ("MST", "has no daylight saving; did you mean America/Denver or America/Phoenix?"),
    ("GMT", "has no daylight saving; did you mean Europe/London?"),
    ("Etc/GMT+5", "has no daylight saving; did you mean America/New_York, America/Chicago or America/Toronto?"),
    ("UTC-5", "has no daylight saving; did you mean America/New_York, America/Chicago or America/Toronto?"),
    ("-08:00", "has no daylight saving; did you mean America/Los_Angeles"),
    ("EST5EDT", "is not a region zone (Area/City); did you mean America/New_York?"),
    ("US/Eastern", "is not a region zone (Area/City); did you mean America/New_York?"),
    ("US/Pacific", "did you mean America/Los_Angeles?"),
    ("Eastern", "did you mean America/New_York?"),
    ("eastern time", "did you mean America/New_York?"),
    ("Central", "did you mean America/Chicago?"),
    ("Mountain", "did you mean America/Denver?"),
    ("Pacific", "did you mean America/Los_Angeles?"),
    ("Pacific Standard Time", "did you mean America/Los_Angeles?"),
    ("London", "did you mean Europe/London?"),
    ("UK", "did you mean Europe/London?"),
    ("Japan", "is not a region zone (Area/City); did you mean Asia/Tokyo?"),
]


@pytest.mark.parametrize(("typed", "zone"), ACCEPTED)
def test_region_zones_are_accepted_in_any_case(typed: str, zone: str) -> None:
    """COMMON-AMB-1: the stored name is the IANA spelling, whatever the case typed."""
    assert zones.region_zone(typed) == zone


@pytest.mark.parametrize(("typed", "explanation"), REFUSED_WITH_SUGGESTION)
def test_names_of_no_place_are_refused_with_the_zone_meant(typed: str, explanation: str) -> None:
    """COMMON-AMB-1: abbreviations, fixed offsets, legacy aliases and words name no place's clocks."""
    with pytest.raises(RuleViolation) as caught:
        zones.region_zone(typed)
    assert caught.value.rule_id == "COMMON-AMB-1"
    assert caught.value.message.startswith(f"`timezone` {typed} ") and explanation in caught.value.message


@pytest.mark.parametrize("typed", ["UTC", "utc", "Etc/UTC", "Zulu", "Universal"])
def test_utc_is_refused_pointing_at_a_city(typed: str) -> None:
    """COMMON-AMB-1: UTC is nobody's wall clock; a place on UTC all year has a region zone of its own."""
    with pytest.raises(RuleViolation, match=r"nobody's wall clock.*Atlantic/Reykjavik") as caught:
        zones.region_zone(typed)
    assert caught.value.rule_id == "COMMON-AMB-1"


@pytest.mark.parametrize("typed", ["UTC+5", "+05:30", "Etc/GMT-14"])
def test_offsets_with_no_common_zone_ask_for_the_city(typed: str) -> None:
    with pytest.raises(RuleViolation, match="give the zone of the league's city"):
        zones.region_zone(typed)


@pytest.mark.parametrize(
    ("typed", "hint"),
    [("chicago", " Did you mean America/Chicago?"), ("new york", " Did you mean America/New_York?"),
     ("Mars/Olympus", ""), ("EST+5", ""), ("x" * 300, ""), ("../../etc/passwd", "")],
)  # fmt: skip
def test_unknown_names_are_refused_with_a_city_when_one_matches(typed: str, hint: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        zones.region_zone(typed)
    assert caught.value.message.endswith(f"is not an IANA time zone name such as America/Chicago.{hint}")


def test_refusals_name_the_option_given() -> None:
    with pytest.raises(RuleViolation, match=r"^COMMON-AMB-1: `default_timezone` EST has no daylight saving"):
        zones.region_zone("EST", option="default_timezone")


def test_why_est_is_refused_a_summer_cutoff_is_an_hour_off() -> None:
    """COMMON-AMB-1 with TEAM-ROSTER-7: 4 p.m. in EST is 5 p.m. on New York's clocks in July."""
    in_est = datetime.combine(date(2027, 7, 7), time(16), tzinfo=ZoneInfo("EST"))
    on_new_york_clocks = in_est.astimezone(ZoneInfo(zones.region_zone("america/new_york")))
    assert on_new_york_clocks.hour == 17 and in_est.astimezone(UTC).hour == 21


class TestAutocomplete:
    def test_nothing_typed_offers_the_common_zones_with_readable_labels(self) -> None:
        choices = zones.zone_choices("", 25)
        assert choices[0] == zones.ZoneChoice("US Eastern (New York) · America/New_York", "America/New_York")
        assert len(choices) == len(zones.COMMON_ZONES) <= 25

    @pytest.mark.parametrize(
        ("typed", "first"),
        [("est", "America/New_York"), ("pacific", "America/Los_Angeles"), ("London", "Europe/London"),
         ("indianap", "America/Indiana/Indianapolis"), ("new_york", "America/New_York")],
    )  # fmt: skip
    def test_typing_a_word_abbreviation_or_city_finds_the_zone(self, typed: str, first: str) -> None:
        assert zones.zone_choices(typed, 25)[0].zone == first

    def test_every_choice_is_a_region_zone_listed_once_within_discord_limits(self) -> None:
        choices = zones.zone_choices("a", 25)
        assert len(choices) == 25 and len({c.zone for c in choices}) == 25
        assert all(zones.region_zone(c.zone) == c.zone and len(c.label) <= 100 for c in choices)

    def test_city_labels_read_city_first(self) -> None:
        assert zones.zone_choices("knox", 25)[0].label == "Knox, Indiana · America/Indiana/Knox"


def test_a_half_hour_offset_suggests_the_zone_whose_clocks_keep_it() -> None:
    """COMMON-AMB-1: St. John's keeps UTC-3:30 in winter (UTC-2:30 in summer), so `-03:30` means Newfoundland."""
    zones._offsets.cache_clear()  # work each zone's offsets out again rather than reuse an earlier test's
    assert zones.suggest("-03:30") == ["America/St_Johns"]
    with pytest.raises(RuleViolation, match=r"has no daylight saving; did you mean America/St_Johns\?"):
        zones.region_zone("-03:30")
