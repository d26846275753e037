"""Validation of league setup values: names, time zones, machines, IFPA data. Pure functions.

Each function returns the cleaned value or raises a Refusal that names the option and the fix.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum

from bot.rules import zones
from bot.rules.refusals import InvalidInput, NotFound, RuleViolation

LEAGUE_NAME_MAX = 60
VENUE_NAME_MAX = 80
TEAM_NAME_MAX = 40
MODEL_NAME_MAX = 80
VARIANT_MAX = 30
ADDRESS_MAX = 200
PLAYER_NAME_MAX = 64
MACHINE_PLAYER_CAPACITIES = (1, 2, 4)  # COMMON-MACH-2
BALLS_PER_GAME = (3, 5)  # COMMON-MACH-2
IFPA_NUMBER_MAX = 9_999_999

_WHITESPACE = re.compile(r"\s+")


class MachineStatus(StrEnum):
    """COMMON-MACH-2 statuses; only WORKING and KNOWN_ISSUE_ANNOUNCED count as in service."""

    WORKING = "working"
    KNOWN_ISSUE_ANNOUNCED = "known_issue_announced"
    REMOVED_FOR_MATCH = "removed_for_match"
    UNPLAYABLE = "unplayable"
    OUT_OF_SERVICE = "out_of_service"

    @property
    def in_service(self) -> bool:
        return self in (MachineStatus.WORKING, MachineStatus.KNOWN_ISSUE_ANNOUNCED)


@dataclass(frozen=True)
class CleanName:
    display: str
    key: str  # case-folded, for uniqueness


def clean_name(value: str | None, *, option: str, max_length: int) -> CleanName:
    """Trim and collapse whitespace; refuse empty, over-long and control-character names."""
    text = _WHITESPACE.sub(" ", unicodedata.normalize("NFC", value or "")).strip()
    if not text:
        raise InvalidInput(f"`{option}` cannot be empty. Give it a name people will recognise.")
    if any(unicodedata.category(ch) in ("Cc", "Cf") for ch in text):
        raise InvalidInput(f"`{option}` contains invisible control characters. Type the name plainly.")
    if len(text) > max_length:
        raise InvalidInput(f"`{option}` is {len(text)} characters long; the limit is {max_length}. Use a shorter name.")
    return CleanName(display=text, key=text.casefold())


def optional_text(value: str | None, *, option: str, max_length: int) -> str | None:
    if value is None or not value.strip():
        return None
    return clean_name(value, option=option, max_length=max_length).display


def known_league(names: list[str], typed: str) -> str:
    """The league `typed` names among the server's `names` (case and outer spaces aside), as it is stored."""
    if not names:
        raise NotFound("This server has no league yet. A server admin can start one with `/league create`.")
    key = typed.strip().casefold()
    for name in names:
        if name.casefold() == key:
            return name
    raise NotFound(f"No league named {typed.strip()!r} here. Leagues in this server: {', '.join(names)}.")


def league_format(value: str, known: Sequence[str]) -> str:
    """COMMON-LEAGUE-1: a league plays one of the `known` formats."""
    key = (value or "").strip().casefold()
    if key not in known:
        choices = f"{', '.join(known[:-1])} or {known[-1]}"
        raise RuleViolation("COMMON-LEAGUE-1", f"Unknown format {value!r}. Choose {choices}.")
    return key


def time_zone(value: str | None, *, league_format: str, required: bool, default: str) -> str:
    """COMMON-AMB-1: deadlines are computed in the league's region zone (`bot.rules.zones`).

    Leagues default to the configured zone (America/New_York unless changed), except where the format's sheet
    names no place (`required`, the field format): such a league must give its zone.
    """
    if value is None or not value.strip():
        if required:
            raise RuleViolation(
                "COMMON-AMB-1",
                f"A {league_format} league needs its time zone: add `timezone:` and pick the league's city as you "
                "type, e.g. America/Indiana/Indianapolis.",
            )
        return default
    return zones.region_zone(value)


def machine_capacity(max_players: int) -> int:
    if max_players not in MACHINE_PLAYER_CAPACITIES:
        raise RuleViolation(
            "COMMON-MACH-2", f"A machine takes 1, 2 or 4 players, not {max_players}. Set `players` to one of those."
        )
    return max_players


def balls_per_game(balls: int) -> int:
    if balls not in BALLS_PER_GAME:
        raise RuleViolation("COMMON-MACH-2", f"Games are 3 or 5 balls, not {balls}. Set `balls` to 3 or 5.")
    return balls


def model_family(model_name: str) -> str:
    """COMMON-MACH-1: the family key ignores the variant, which is kept apart; never guessed from the title.

    COMMON-TV-2: "Godzilla" as Premium and as Pro → family godzilla; "Medieval Madness (Remake)" stays its own.
    """
    folded = unicodedata.normalize("NFKD", model_name).encode("ascii", "ignore").decode().casefold()
    return re.sub(r"[^a-z0-9]+", "_", folded).strip("_") or model_name.casefold()


def ifpa_number(value: int | None) -> int | None:
    """COMMON-PLAYER-1: optional IFPA player number."""
    if value is None:
        return None
    if not 1 <= value <= IFPA_NUMBER_MAX:
        raise RuleViolation(
            "COMMON-PLAYER-1", f"IFPA number {value} is not valid: it is a whole number from 1 to {IFPA_NUMBER_MAX:,}."
        )
    return value


def ifpa_rank(value: int | None) -> int | None:
    if value is None:
        return None
    if value < 1:
        raise RuleViolation("COMMON-PLAYER-1", f"IFPA rank {value} is not valid: ranks start at 1.")
    return value


def parse_date(text: str, *, option: str) -> date:
    """A day typed as YYYY-MM-DD in the option named `option`."""
    try:
        return datetime.strptime(text.strip(), "%Y-%m-%d").date()
    except ValueError:
        raise InvalidInput(
            f"`{option}` {text.strip()!r} is not a date; write it as YYYY-MM-DD, e.g. 2026-03-05."
        ) from None


def removal_day(on: date, *, installed: date, removed: date | None, today: date, title: str) -> date:
    """COMMON-VENUE-1: a venue's machine list keeps its dated history, so a machine leaves on one day, from the day
    it was installed up to today, and only once (it stays in the record as removed)."""
    if removed is not None:
        raise RuleViolation("COMMON-VENUE-1", f"{title} was already removed on {removed:%Y-%m-%d}.")
    if on < installed:
        raise RuleViolation(
            "COMMON-VENUE-1", f"`on` {on:%Y-%m-%d} is before {title} was installed ({installed:%Y-%m-%d})."
        )
    if on > today:
        raise RuleViolation(
            "COMMON-VENUE-1", f"`on` {on:%Y-%m-%d} is in the future: record the removal on the day it goes."
        )
    return on
