"""Discipline (COMMON-DISC-1, COMMON-PLAYER-2, TEAM-DISC-1..4): who is barred on a day, when a warning
escalates, and what deserves the commissioner's attention. Plain ledger rows in, decisions out."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import Any

from bot.rules.refusals import RuleViolation

WARNINGS_BEFORE_SUSPENSION = 2  # TEAM-DISC-2: the 2nd warning in a season suspends
SUSPENSIONS_BEFORE_REVIEW = 2  # TEAM-DISC-2: 2 suspensions in a player's history → expulsion review
TEAM_WARNINGS_BEFORE_FLAG = 2  # TEAM-DISC-4: a later blatant-breach ruling is grounds for discipline
INTENTIONAL_SLAMS_BEFORE_REVIEW = 2  # LADDER-PEN-6: a repeated intentional slam → expulsion review
INCIDENT_CATEGORIES = ("harassment", "unsportsmanlike", "threats", "outside_food", "other")  # TEAM-DISC-1


class DisciplineKind(StrEnum):
    """COMMON-DISC-1 entry types the bot records (forfeits are match facts, not ledger entries)."""

    WARNING = "warning"
    SUSPENSION = "suspension"
    EXPULSION = "expulsion"
    OFFENCE = "offence"  # offense(n): a format's penalty in the ledger (LADDER-PEN-6, FIELD-PEN-3); bars nobody


def _no_slam_tilt_flag(options: Mapping[str, Any]) -> int | None:
    return None


@dataclass(frozen=True)
class LedgerRules:
    """What a format makes of the common ledger (COMMON-DISC-1): the rule each official's entry cites by default,
    the rule that makes expulsion permanent, whether a second warning suspends (TEAM-DISC-2) and from how many
    slam tilts a player is flagged (TEAM-DISC-3; `slam_tilt_flag` reads it from the league's options)."""

    warn_player: str = "COMMON-DISC-1"
    warn_team: str = "COMMON-DISC-1"
    suspend: str = "COMMON-DISC-1"
    expel: str = "COMMON-DISC-1"
    permanence: str = "COMMON-PLAYER-2"
    second_warning_suspends: bool = False
    slam_tilt_flag: Callable[[Mapping[str, Any]], int | None] = _no_slam_tilt_flag


COMMON_LEDGER = LedgerRules()


@dataclass(frozen=True)
class Sanction:
    """One ledger entry as the rules see it."""

    id: int
    kind: DisciplineKind
    season_id: int
    starts_on: date
    ends_on: date | None = None  # a suspension without an end runs to the end of its season
    lifted: bool = False
    rule_id: str | None = None

    def bars_on(self, day: date, season_id: int) -> bool:
        if self.lifted or day < self.starts_on:
            return False
        if self.kind is DisciplineKind.EXPULSION:
            return True  # TEAM-DISC-2: expulsion is permanent
        if self.kind is DisciplineKind.SUSPENSION:
            return day <= self.ends_on if self.ends_on is not None else season_id == self.season_id
        return False


def barring(sanctions: Iterable[Sanction], *, season_id: int, on: date) -> Sanction | None:
    """COMMON-PLAYER-2: the expulsion, else the suspension, that bars a player on `on`; None when in good standing.

    COMMON-TV-3: a suspension to the end of season S bars the player in S and no longer in S+1.
    """
    active = [s for s in sanctions if s.bars_on(on, season_id)]
    active.sort(key=lambda s: (s.kind is not DisciplineKind.EXPULSION, s.id))
    return active[0] if active else None


def require_in_good_standing(name: str, sanctions: Iterable[Sanction], *, season_id: int, on: date, doing: str) -> None:
    """COMMON-PLAYER-2: refuse rosters, lineups, groups and scores for a suspended or expelled player,
    naming the ruling. `doing` completes "… and cannot …", e.g. "play in a lineup"."""
    bar = barring(sanctions, season_id=season_id, on=on)
    if bar is None:
        return
    if bar.kind is DisciplineKind.EXPULSION:
        status = "expelled"
    elif bar.ends_on is not None:
        status = f"suspended through {bar.ends_on.isoformat()}"
    else:
        status = "suspended for the rest of the season"
    raise RuleViolation(
        "COMMON-PLAYER-2", f"{name} is {status} (ruling #{bar.id}) and cannot {doing}. Only a commissioner can lift it."
    )


def second_warning_suspends(sanctions: Iterable[Sanction], *, season_id: int) -> bool:
    """TEAM-DISC-2: with the warning just recorded, has the player had their 2nd warning this season?

    TEAM-TV-19: warned in week 3 and again in week 8 of one season → suspended to the season's end.
    COMMON-DISC-1: the ledger's escalation that applies by itself, read from the player's warning entries.
    """
    warnings = [s for s in sanctions if s.kind is DisciplineKind.WARNING and s.season_id == season_id and not s.lifted]
    return len(warnings) == WARNINGS_BEFORE_SUSPENSION


def expulsion_review(sanctions: Iterable[Sanction]) -> list[tuple[str, str]]:
    """TEAM-DISC-2: a player with 2 or more suspensions in their history (and not expelled) is reviewed."""
    rows = list(sanctions)
    suspensions = sum(1 for s in rows if s.kind is DisciplineKind.SUSPENSION)
    if suspensions >= SUSPENSIONS_BEFORE_REVIEW and not any(s.kind is DisciplineKind.EXPULSION for s in rows):
        return [("TEAM-DISC-2", f"{suspensions} suspensions on record: review for expulsion.")]
    return []


def player_flags(
    sanctions: Iterable[Sanction], *, slam_tilts_this_season: int, slam_tilt_flag: int | None
) -> list[tuple[str, str]]:
    """What a commissioner should look at: (rule id, text) pairs for a player's history. `slam_tilt_flag` is
    TEAM-DISC-3's threshold (None in formats without it)."""
    flags = expulsion_review(sanctions)
    if slam_tilt_flag is not None and slam_tilts_this_season >= slam_tilt_flag:
        flags.append(("TEAM-DISC-3", f"{slam_tilts_this_season} slam tilts this season: consider discipline."))
    return flags


def repeated_intentional_slams(sanctions: Iterable[Sanction], *, season_id: int) -> list[tuple[str, str]]:
    """LADDER-PEN-6: a second intentional slam in a season calls for an expulsion review (the commissioner's call)."""
    slams = sum(
        1
        for s in sanctions
        if s.kind is DisciplineKind.OFFENCE and s.rule_id == "LADDER-PEN-6" and s.season_id == season_id
    )
    if slams >= INTENTIONAL_SLAMS_BEFORE_REVIEW:
        return [("LADDER-PEN-6", f"{slams} intentional slam tilts this season: review for expulsion.")]
    return []


def team_flags(sanctions: Iterable[Sanction]) -> list[tuple[str, str]]:
    """TEAM-DISC-4: a team warned again after a blatant breach is flagged as grounds for discipline."""
    warnings = sum(1 for s in sanctions if s.kind is DisciplineKind.WARNING and not s.lifted)
    if warnings >= TEAM_WARNINGS_BEFORE_FLAG:
        return [("TEAM-DISC-4", f"{warnings} team warnings for ignoring written rules: grounds for discipline.")]
    return []
