"""COMMON-SEASON-1: a ladder or field season's night dates (bot/rules/nights.py), one a week from the first night,
skipped dates using up no week number, and what is refused."""

from __future__ import annotations

import re
from datetime import date

import pytest

from bot.rules.nights import night_dates, parse_start
from bot.rules.refusals import InvalidInput, RuleViolation

WEDNESDAY = date(2027, 3, 3)
TODAY = date(2027, 3, 1)


def test_a_skipped_date_uses_up_no_week() -> None:
    """COMMON-SEASON-1: 4 nights with 10 and 24 March skipped run to 31 March."""
    dates = night_dates(WEDNESDAY, 4, [date(2027, 3, 24), date(2027, 3, 10)], today=TODAY)
    assert dates == [date(2027, 3, 3), date(2027, 3, 17), date(2027, 3, 31), date(2027, 4, 7)]
    assert night_dates(WEDNESDAY, 2, [], today=WEDNESDAY) == [WEDNESDAY, date(2027, 3, 10)]


@pytest.mark.parametrize(
    ("nights", "skips", "message"),
    [
        (2, [date(2027, 3, 24)], "`skip` 2027-03-24 is outside the season (2027-03-03 to 2027-03-10)"),
        (2, [date(2027, 2, 24)], "`skip` 2027-02-24 is outside the season"),
        (2, [date(2027, 3, 9)], "`skip` 2027-03-09 is a Tuesday; the nights are on Wednesdays"),
        (2, [WEDNESDAY], "is the first night"),
    ],
)
def test_a_skip_outside_the_season_or_off_the_weekday_is_refused(nights: int, skips: list[date], message: str) -> None:
    """COMMON-SEASON-1: only the season's own weekly dates can be skipped."""
    with pytest.raises(RuleViolation, match=re.escape(message)) as refused:
        night_dates(WEDNESDAY, nights, skips, today=TODAY)
    assert refused.value.rule_id == "COMMON-SEASON-1"


@pytest.mark.parametrize(
    ("first", "nights", "message"),
    [
        (WEDNESDAY, 0, "`nights` must be between 1 and 52, not 0"),
        (WEDNESDAY, 53, "`nights` must be between 1 and 52, not 53"),
        (date(2027, 2, 24), 2, "`first` 2027-02-24 is in the past"),
    ],
)
def test_zero_nights_or_a_past_first_night_is_refused(first: date, nights: int, message: str) -> None:
    with pytest.raises(InvalidInput, match=re.escape(message)):
        night_dates(first, nights, [], today=TODAY)


def test_start_times_are_24_hour_hh_mm() -> None:
    assert parse_start(" 19:15 ").isoformat() == "19:15:00"
    with pytest.raises(InvalidInput, match="`start` '7:15 PM' is not a time"):
        parse_start("7:15 PM")
