"""Registration, attendance, notices and No-Shows (LADDER-REG-*, LADDER-ATT-*).

Times are local league times handed in by the caller; the rules never read a clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum

from bot.rules.ladder.options import LadderOptions
from bot.rules.refusals import RuleViolation


def check_registration_open(weeks_started: int, options: LadderOptions) -> None:
    """LADDER-REG-1, LADDER-AMB-26: joins close when the week-3 night starts."""
    if weeks_started > options.last_join_week:
        raise RuleViolation("LADDER-REG-1", f"Registration closed: no new players after week {options.last_join_week}.")


def check_skill(skill: int) -> int:
    """LADDER-REG-2: a self-estimated skill from 1 (novice) to 10 (expert)."""
    if not 1 <= skill <= 10:
        raise RuleViolation("LADDER-REG-2", "Skill must be a whole number from 1 (novice) to 10 (expert).")
    return skill


def splits_into_divisions(active_players: int, options: LadderOptions) -> bool:
    """LADDER-REG-3, LADDER-DIV-3, LADDER-AMB-18: an A/B split only with 8 or more active players."""
    return active_players >= options.min_players_for_split


class Attendance(StrEnum):
    """A player's status at group start (LADDER-ATT-1)."""

    ON_TIME = "on_time"
    LATE_NOTIFIED = "late_notified"
    ABSENT_NOTIFIED = "absent_notified"
    MISSING = "missing"


@dataclass(frozen=True)
class Notices:
    checked_in_at: datetime | None = None
    late_notice_at: datetime | None = None
    absence_notice_at: datetime | None = None


def late_notice_binding(notice_at: datetime, night: date, options: LadderOptions) -> bool:
    """LADDER-ATT-3, LADDER-AMB-21: binding if before league day, or by 15:00 on it."""
    return notice_at.date() < night or (notice_at.date() == night and notice_at.time() <= options.late_notice_deadline)


def absence_notice_valid(notice_at: datetime, night: date, options: LadderOptions) -> bool:
    """LADDER-ATT-4, LADDER-AMB-21: an absence notice counts if received before 19:00 on league night."""
    return notice_at.date() < night or (
        notice_at.date() == night and notice_at.time() < options.absence_notice_deadline
    )


def attendance_at_start(notices: Notices, night: date, options: LadderOptions) -> Attendance:
    """LADDER-ATT-1: the status by group start (19:30)."""
    start = datetime.combine(night, options.group_start)
    if notices.checked_in_at is not None and notices.checked_in_at <= start:
        return Attendance.ON_TIME
    if notices.absence_notice_at is not None and absence_notice_valid(notices.absence_notice_at, night, options):
        return Attendance.ABSENT_NOTIFIED
    if notices.late_notice_at is not None and late_notice_binding(notices.late_notice_at, night, options):
        return Attendance.LATE_NOTIFIED
    return Attendance.MISSING


class GameStage(StrEnum):
    """How far a group's game has gone, for a late arrival (LADDER-ATT-2)."""

    NOT_STARTED = "not_started"
    BALL_ONE = "ball_one"
    LATER = "later"
    FINISHED = "finished"


def late_arrival_can_play(stage: GameStage) -> bool:
    """LADDER-ATT-2: games not started, or joined while the group is on ball 1 (`joined_in_progress`).
    Every other game is a missed slot, scored as absent (premakeup, else ghost with 0 points)."""
    return stage in (GameStage.NOT_STARTED, GameStage.BALL_ONE)


def third_no_show(prior_no_shows: int, status: Attendance, game_started: int, options: LadderOptions) -> bool:
    """LADDER-ATT-5: with 2 No-Shows, the 3rd fires when the group starts game 3 without the player."""
    return status is Attendance.MISSING and third_no_show_possible(prior_no_shows, game_started, options)


def third_no_show_possible(prior_no_shows: int, game_started: int, options: LadderOptions) -> bool:
    """LADDER-ATT-5: whether starting this game could be a player's 3rd No-Show, whatever their attendance."""
    return prior_no_shows == options.no_shows_to_drop - 1 and game_started >= options.drop_trigger_game


def end_of_night_no_show(status: Attendance, games_played: int) -> bool:
    """LADDER-ATT-4, LADDER-AMB-22: No-Shows 1 and 2 are assessed at night's end: no notice, no game."""
    return status is Attendance.MISSING and games_played == 0


def dropped_after(no_shows: int, options: LadderOptions) -> bool:
    """LADDER-ATT-5/6: the 3rd No-Show removes the player for the rest of the season."""
    return no_shows >= options.no_shows_to_drop
