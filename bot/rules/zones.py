"""A league's time zone (COMMON-AMB-1): the IANA zone of a place, `Area/City`, so deadlines follow its clocks.

IANA entries such as `EST` or `Etc/GMT+5`, and offsets such as `UTC+5`, name no place: they keep one offset all
year, so a 4 p.m. roster cutoff in `EST` falls at 5 p.m. on New York's clocks all summer. Legacy aliases
(`US/Eastern`, `EST5EDT`) do follow daylight saving but are kept only for old systems. All are refused with the
region zone people usually mean. Pure: the offsets used for suggestions come from fixed reference
dates, never from a clock.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from bot.rules.refusals import InvalidInput, RuleViolation

RULE = "COMMON-AMB-1"
REGION_AREAS = frozenset(
    {"Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific"}
)
# UTC is refused like any other offset: it is nobody's wall clock, and a place that keeps UTC all year has a
# region zone of its own (Atlantic/Reykjavik, Africa/Abidjan), so no league loses anything. Setting UTC is
# almost always a server default nobody chose, and it would put a New York cutoff at noon or 11 a.m.
UTC_NAMES = frozenset({"utc", "uct", "zulu", "universal", "etc/utc", "etc/uct", "etc/zulu", "etc/universal"})
MAX_SUGGESTIONS = 3
WINTER, SUMMER = datetime(2025, 1, 15, 12, tzinfo=UTC), datetime(2025, 7, 15, 12, tzinfo=UTC)
# Abbreviations of standard (winter) time: like EST, each keeps one offset all year.
STANDARD_TIME_ABBREVIATIONS = frozenset(
    {"est", "cst", "mst", "pst", "akst", "hst", "ast", "nst", "gmt", "wet", "cet", "eet", "aest", "nzst", "jst"}
)
_NOISE_WORDS = re.compile(r"\b(?:time|zone|standard|daylight|summer|winter)\b")
_OFFSET = re.compile(r"^(?:utc|gmt|z)?\s*([+\-−])\s*(\d{1,2})(?::?(\d{2}))?$")
_ETC_OFFSET = re.compile(r"^etc/gmt([+-])(\d{1,2})$")  # POSIX style: Etc/GMT+5 is five hours *behind* UTC


@dataclass(frozen=True)
class CommonZone:
    """A zone people name by a word or an abbreviation rather than by its city."""

    zone: str
    label: str  # as shown in autocomplete, e.g. "US Eastern (New York)"
    words: tuple[str, ...]  # case-folded words and abbreviations that mean it


COMMON_ZONES = (
    CommonZone("America/New_York", "US Eastern (New York)", ("eastern", "us eastern", "et", "est", "edt", "est5edt")),
    CommonZone("America/Chicago", "US Central (Chicago)", ("central", "us central", "ct", "cst", "cdt", "cst6cdt")),
    CommonZone("America/Denver", "US Mountain (Denver)", ("mountain", "us mountain", "mt", "mst", "mdt", "mst7mdt",
                                                        "navajo")),
    CommonZone("America/Phoenix", "Arizona (Phoenix, no daylight saving)", ("arizona", "us arizona", "mst")),
    CommonZone("America/Los_Angeles", "US Pacific (Los Angeles)", ("pacific", "us pacific", "pt", "pst", "pdt",
                                                                  "pst8pdt")),
    CommonZone("America/Anchorage", "Alaska (Anchorage)", ("alaska", "us alaska", "akst", "akdt")),
    CommonZone("Pacific/Honolulu", "Hawaii (Honolulu)", ("hawaii", "us hawaii", "hst")),
    CommonZone("America/Halifax", "Canada Atlantic (Halifax)", ("atlantic", "canada atlantic", "ast", "adt")),
    CommonZone("America/St_Johns", "Newfoundland (St. John's)", ("newfoundland", "canada newfoundland", "nst", "ndt")),
    CommonZone("America/Toronto", "Canada Eastern (Toronto)", ("canada eastern", "ontario")),
    CommonZone("America/Vancouver", "Canada Pacific (Vancouver)", ("canada pacific", "british columbia")),
    CommonZone("Europe/London", "UK (London)", ("london", "uk", "gb", "gb-eire", "britain", "england", "scotland",
                                                "wales", "gmt", "bst", "greenwich")),
    CommonZone("Europe/Dublin", "Ireland (Dublin)", ("ireland", "eire")),
    CommonZone("Europe/Lisbon", "Western Europe (Lisbon)", ("wet", "portugal")),
    CommonZone("Europe/Paris", "Central Europe (Paris)", ("cet", "cest", "met", "central europe", "france")),
    CommonZone("Europe/Berlin", "Central Europe (Berlin)", ("germany",)),
    CommonZone("Europe/Athens", "Eastern Europe (Athens)", ("eet", "eest", "eastern europe", "greece")),
    CommonZone("Australia/Sydney", "Australia Eastern (Sydney)", ("aest", "aedt", "australia eastern")),
    CommonZone("Pacific/Auckland", "New Zealand (Auckland)", ("nz", "nzst", "nzdt", "new zealand")),
    CommonZone("Asia/Tokyo", "Japan (Tokyo)", ("japan", "jst")),
)  # fmt: skip


@dataclass(frozen=True)
class ZoneChoice:
    label: str
    zone: str


def region_zone(text: str, *, option: str = "timezone") -> str:
    """COMMON-AMB-1: the region zone `text` names, in any case (`america/new_york` → America/New_York).

    Refuses names of no place (abbreviations, offsets, UTC, legacy aliases, words such as "Eastern") with the
    zone usually meant, and unknown names with the nearest city's zone when one matches. Refusals name `option`."""
    name = text.strip()
    key = name.casefold()
    region = _region_zones().get(key)
    if region is not None:
        return region
    if key in UTC_NAMES:
        raise RuleViolation(
            RULE,
            f"`{option}` {name} is nobody's wall clock, so deadlines would drift from the venue's clocks. Give the "
            "zone of the league's city, e.g. America/New_York or Europe/London (a place on UTC all year has its "
            "own, such as Atlantic/Reykjavik).",
        )
    known = _all_zones().get(key)
    offset = _offset_hours(key)
    suggestions = suggest(name)
    if known is None and offset is None and _common_meaning(key) is None:
        hint = f" Did you mean {_either(suggestions)}?" if suggestions else ""
        raise InvalidInput(f"`{option}` {name!r} is not an IANA time zone name such as America/Chicago.{hint}")
    one_offset = (
        offset is not None
        or key in STANDARD_TIME_ABBREVIATIONS
        or (known is not None and not _has_daylight_saving(known))
    )
    if one_offset and any(_has_daylight_saving(zone) for zone in suggestions):
        why = "has no daylight saving"
    else:
        why = "is not a region zone (Area/City)"
    meant = f"did you mean {_either(suggestions)}?" if suggestions else "give the zone of the league's city."
    raise RuleViolation(
        RULE, f"`{option}` {name} {why}; {meant} A city's zone keeps deadlines on its clocks all year round."
    )


def suggest(name: str) -> list[str]:
    """The region zones someone typing `name` probably means: by a common word, an offset, or a city's name."""
    key = name.strip().casefold()
    common = _common_meaning(key)
    if common is not None:
        return common
    hours = _offset_hours(key)
    if hours is not None:
        return [c.zone for c in COMMON_ZONES if hours in _offsets(c.zone)][:MAX_SUGGESTIONS]
    return _same_city(key)


def _common_meaning(key: str) -> list[str] | None:
    """The common zones a word means ("eastern time", "US/Pacific", "EST"), or None for no such word."""
    phrase = " ".join(_NOISE_WORDS.sub(" ", key.replace("_", " ")).split())
    for words in (phrase, phrase.split("/")[-1].strip()):
        meant = [c.zone for c in COMMON_ZONES if words in c.words]
        if meant:
            return meant[:MAX_SUGGESTIONS]
    return None


def _same_city(key: str) -> list[str]:
    city = "/" + key.split("/")[-1].replace(" ", "_")
    return sorted(zone for folded, zone in _region_zones().items() if folded.endswith(city))[:MAX_SUGGESTIONS]


def zone_choices(typed: str, limit: int) -> list[ZoneChoice]:
    """Autocomplete for a `timezone` option: common zones first (matched by word or abbreviation), then every
    region zone whose city or name contains what was typed, each once."""
    wanted = typed.strip().casefold().replace("_", " ")
    found: dict[str, ZoneChoice] = {}
    named = [c for c in COMMON_ZONES if wanted in c.words]  # "est" is New York before Western Europe
    for common in named + list(COMMON_ZONES):
        searched = " ".join((common.label, common.zone.replace("_", " "), *common.words)).casefold()
        if wanted in searched:
            found.setdefault(common.zone, ZoneChoice(f"{common.label} · {common.zone}", common.zone))
    for zone in sorted(_region_zones().values()) if wanted else ():  # nothing typed: the common zones only
        if len(found) >= limit:
            break
        if wanted in zone.casefold().replace("_", " "):
            found.setdefault(zone, ZoneChoice(f"{city_label(zone)} · {zone}", zone))
    return list(found.values())[:limit]


def city_label(zone: str) -> str:
    """`America/Indiana/Indianapolis` → "Indianapolis, Indiana"; `Europe/London` → "London"."""
    parts = [part.replace("_", " ") for part in zone.split("/")[1:]]
    return ", ".join(reversed(parts))


@cache
def _all_zones() -> dict[str, str]:
    return {zone.casefold(): zone for zone in available_timezones()}


@cache
def _region_zones() -> dict[str, str]:
    return {key: zone for key, zone in _all_zones().items() if zone.split("/")[0] in REGION_AREAS}


def _has_daylight_saving(zone: str) -> bool:
    return len(_offsets(zone)) > 1


@cache
def _offsets(zone: str) -> frozenset[float]:
    """The zone's UTC offsets in hours in January and July (one value when it keeps one offset all year)."""
    tz = ZoneInfo(zone)
    return frozenset(_hours_east(moment.astimezone(tz)) for moment in (WINTER, SUMMER))


def _hours_east(moment: datetime) -> float:
    offset = moment.utcoffset()
    assert offset is not None, "an aware time"
    return offset.total_seconds() / 3600


def _offset_hours(key: str) -> float | None:
    """Hours east of UTC that an offset name gives (`utc-5`, `+05:30`, `etc/gmt+5`), else None."""
    posix = _ETC_OFFSET.match(key)
    if posix:
        return -int(posix.group(2)) if posix.group(1) == "+" else int(posix.group(2))
    plain = _OFFSET.match(key)
    if not plain:
        return None
    hours = int(plain.group(2)) + int(plain.group(3) or 0) / 60
    return -hours if plain.group(1) in "-−" else hours


def _either(zones: list[str]) -> str:
    return zones[0] if len(zones) == 1 else f"{', '.join(zones[:-1])} or {zones[-1]}"
