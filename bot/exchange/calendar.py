"""iCalendar (RFC 5545) files of matches: times in UTC (`…Z`), so every calendar app shows them in its own zone.

Written by hand (a few lines of text); the tests parse the result back with the `icalendar` library.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

PRODUCT = "-//pinleague//league calendar//EN"
_FOLD_AT = 75  # octets per line, before the CRLF (RFC 5545 §3.1)


@dataclass(frozen=True)
class CalendarEvent:
    uid: str  # stable across exports, so a re-imported calendar updates its events instead of doubling them
    starts: datetime  # aware
    ends: datetime
    summary: str
    location: str | None = None
    description: str | None = None


def icalendar_file(name: str, events: Iterable[CalendarEvent], *, stamp: datetime) -> bytes:
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{PRODUCT}", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
             f"X-WR-CALNAME:{_text(name)}"]  # fmt: skip
    for event in events:
        lines += ["BEGIN:VEVENT", f"UID:{event.uid}", f"DTSTAMP:{_utc(stamp)}", f"DTSTART:{_utc(event.starts)}",
                  f"DTEND:{_utc(event.ends)}", f"SUMMARY:{_text(event.summary)}"]  # fmt: skip
        if event.location:
            lines.append(f"LOCATION:{_text(event.location)}")
        if event.description:
            lines.append(f"DESCRIPTION:{_text(event.description)}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(_fold(line) + "\r\n" for line in lines).encode()


def _utc(moment: datetime) -> str:
    if moment.tzinfo is None:
        raise ValueError("calendar times must be aware")
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def _text(value: str) -> str:
    """TEXT escaping (RFC 5545 §3.3.11)."""
    return (
        value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\r\n", "\\n").replace("\n", "\\n")
    )


def _fold(line: str) -> str:
    """Long lines continue on the next line after a space, never splitting a UTF-8 character."""
    parts: list[str] = []
    current = ""
    for char in line:
        limit = _FOLD_AT if not parts else _FOLD_AT - 1
        if len((current + char).encode()) > limit:
            parts.append(current)
            current = ""
        current += char
    parts.append(current)
    return "\r\n ".join(parts)
