"""The iCalendar writer, read back with the icalendar library."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import icalendar
import pytest

from bot.exchange.calendar import CalendarEvent, icalendar_file

NEW_YORK = ZoneInfo("America/New_York")
STAMP = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)


def test_events_keep_their_instant_across_daylight_saving_and_text_survives_escaping_and_folding() -> None:
    before = datetime(2027, 3, 9, 20, 0, tzinfo=NEW_YORK)  # EST, UTC-5
    after = datetime(2027, 3, 16, 20, 0, tzinfo=NEW_YORK)  # EDT, UTC-4
    long_place = "Ace Arcade, 12 Flipper Street; Brooklyn \\ NY — " + "ünïcödé " * 12
    events = [
        CalendarEvent("m1@pinleague", before, before + timedelta(hours=3), "Kings v Busters", long_place, "a\nb"),
        CalendarEvent("m2@pinleague", after, after + timedelta(hours=3), "Busters v Kings"),
    ]
    content = icalendar_file("NYC: Flipper Kings", events, stamp=STAMP)

    assert all(len(line.encode()) <= 75 for line in content.decode().split("\r\n"))
    assert b"DTSTART:20270310T010000Z" in content and b"DTSTART:20270317T000000Z" in content
    calendar = icalendar.Calendar.from_ical(content)
    assert str(calendar["X-WR-CALNAME"]) == "NYC: Flipper Kings"
    first, second = calendar.walk("VEVENT")
    assert first.decoded("DTSTART").astimezone(NEW_YORK) == before
    assert second.decoded("DTSTART").astimezone(NEW_YORK) == after
    assert str(first["LOCATION"]) == long_place and str(first["DESCRIPTION"]) == "a\nb"
    assert str(second["UID"]) == "m2@pinleague" and "LOCATION" not in second


def test_naive_times_are_refused() -> None:
    naive = datetime(2027, 3, 9, 20, 0)
    with pytest.raises(ValueError, match="aware"):
        icalendar_file("x", [CalendarEvent("u", naive, naive, "s")], stamp=STAMP)
