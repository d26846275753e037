"""A ladder or field season's nights (COMMON-SEASON-1, bot/rules/nights.py) at the edges: one night or the most a
season has, a skip just before the last night, the refusals word for word, start times typed with seconds, and
the reminder planned on each scheduled night's day."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.rules.nights import MAX_NIGHTS, PLANNED, night_dates, parse_start, plan_each_night_day
from bot.rules.posts import Calendar, Channel, Event, PostKind, Timing
from bot.rules.refusals import Refusal

WEDNESDAY = date(2027, 3, 3)
TODAY = date(2027, 3, 1)
CHICAGO = ZoneInfo("America/Chicago")


def refusal(*args: object, **kwargs: object) -> str:
    with pytest.raises(Refusal) as caught:
        night_dates(*args, **kwargs)  # type: ignore[arg-type]
    return str(caught.value)


@pytest.mark.parametrize(("nights", "last"), [(1, WEDNESDAY), (MAX_NIGHTS, WEDNESDAY + timedelta(weeks=51))])
def test_common_season_1_a_season_of_one_night_or_of_the_most_nights(nights: int, last: date) -> None:
    dates = night_dates(WEDNESDAY, nights, [], today=TODAY)
    assert (len(dates), dates[0], dates[-1]) == (nights, WEDNESDAY, last)


def test_common_season_1_a_skip_between_the_last_two_nights_moves_the_last_one() -> None:
    assert night_dates(WEDNESDAY, 2, [date(2027, 3, 10)], today=TODAY) == [WEDNESDAY, date(2027, 3, 17)]


def test_common_season_1_skips_outside_the_season_are_all_named() -> None:
    assert refusal(WEDNESDAY, 3, [date(2027, 3, 31), date(2027, 2, 24)], today=TODAY) == (
        "COMMON-SEASON-1: `skip` 2027-02-24, 2027-03-31 is outside the season (2027-03-03 to 2027-03-17): skip only "
        "dates between the first and last night."
    )


def test_a_first_night_in_the_past_is_refused_with_today_in_the_leagues_zone() -> None:
    assert refusal(date(2027, 2, 24), 2, [], today=TODAY) == (
        "`first` 2027-02-24 is in the past (today is 2027-03-01 in the league's zone): give the date of the first "
        "night to come."
    )


@pytest.mark.parametrize("typed", ["19:15:30", "19:15:30.250", "19:15"])
def test_a_start_time_typed_with_seconds_keeps_the_minute(typed: str) -> None:
    assert parse_start(typed) == time(19, 15)


def test_a_reminder_on_each_scheduled_nights_day_in_the_leagues_zone() -> None:
    kind = PostKind("test_night_day", "night reminder", "on the night", Channel.ANNOUNCEMENTS, Timing(), None,
                    plan_each_night_day)  # fmt: skip
    calendar = Calendar(
        1,
        (
            Event(7, WEDNESDAY, 1, kind=PLANNED),
            Event(8, date(2027, 3, 17), 2, kind=PLANNED),  # after the change to daylight saving
            Event(9, date(2027, 3, 24), 3, kind="regular"),  # opened: no longer a scheduled night
        ),
    )
    posts = list(plan_each_night_day(kind, Timing(at=time(17, 30), days=-1), calendar, CHICAGO))
    assert [(p.kind, p.period, p.refs, p.local.strftime("%Y-%m-%d %H:%M %Z")) for p in posts] == [
        ("test_night_day", "2027-03-03", (7,), "2027-03-02 17:30 CST"),
        ("test_night_day", "2027-03-17", (8,), "2027-03-16 17:30 CDT"),
    ]
    assert [p.due_at for p in posts] == [
        datetime(2027, 3, 2, 23, 30, tzinfo=UTC),
        datetime(2027, 3, 16, 22, 30, tzinfo=UTC),
    ]
    [noon] = plan_each_night_day(kind, Timing(), Calendar(1, calendar.events[:1]), CHICAGO)
    assert noon.local.strftime("%Y-%m-%d %H:%M %Z") == "2027-03-03 12:00 CST"
