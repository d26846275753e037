"""Registration, attendance and No-Shows (bot/rules/ladder/attendance.py): LADDER-REG-*, LADDER-ATT-*,
LADDER-AMB-21/22/26."""

from datetime import date, datetime

import pytest

from bot.rules.ladder.attendance import (
    Attendance,
    GameStage,
    Notices,
    attendance_at_start,
    check_registration_open,
    check_skill,
    dropped_after,
    end_of_night_no_show,
    late_arrival_can_play,
    late_notice_binding,
    splits_into_divisions,
    third_no_show,
)
from bot.rules.ladder.options import LadderOptions
from tests.unit.ladder.helpers import refused, refused_saying

OPTIONS = LadderOptions()
NIGHT = date(2001, 4, 18)  # a Wednesday, week 7


def at(hour: int, minute: int = 0, day: date = NIGHT) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute)


def test_tv22a_registration_closes_when_week_three_starts():
    """LADDER-TV-22 (a) / LADDER-REG-1 / LADDER-AMB-26: joins until the week-3 night starts."""
    check_registration_open(weeks_started=0, options=OPTIONS)
    check_registration_open(weeks_started=2, options=OPTIONS)  # week 2 can be a newcomer's first night
    with refused("LADDER-REG-1", "Registration closed: no new players after week 2"):
        check_registration_open(weeks_started=3, options=OPTIONS)


@pytest.mark.parametrize("skill", [0, 11, -3])
def test_skill_must_be_one_to_ten(skill):
    """LADDER-REG-2: an integer 1 (novice) to 10 (expert)."""
    with refused("LADDER-REG-2", "from 1"):
        check_skill(skill)


def test_skill_in_range_is_kept():
    """LADDER-REG-2."""
    assert [check_skill(s) for s in (1, 10)] == [1, 10]


def test_division_mode_needs_eight_players():
    """LADDER-REG-3 / LADDER-DIV-3 / LADDER-AMB-18: fewer than 8 → one division all season."""
    assert not splits_into_divisions(7, OPTIONS)
    assert splits_into_divisions(8, OPTIONS)


def test_status_at_group_start():
    """LADDER-ATT-1: on time by 19:30, else the notices decide; nothing → missing."""
    assert attendance_at_start(Notices(checked_in_at=at(19, 10)), NIGHT, OPTIONS) is Attendance.ON_TIME
    assert attendance_at_start(Notices(checked_in_at=at(19, 30)), NIGHT, OPTIONS) is Attendance.ON_TIME
    assert attendance_at_start(Notices(checked_in_at=at(19, 45)), NIGHT, OPTIONS) is Attendance.MISSING
    assert attendance_at_start(Notices(), NIGHT, OPTIONS) is Attendance.MISSING


def test_late_notice_deadline_is_three_pm_on_league_day():
    """LADDER-ATT-3 / LADDER-AMB-21: a late notice binds if sent before league day or by 15:00 on it."""
    assert late_notice_binding(at(22, 0, date(2001, 4, 17)), NIGHT, OPTIONS)
    assert late_notice_binding(at(15, 0), NIGHT, OPTIONS)
    assert not late_notice_binding(at(15, 1), NIGHT, OPTIONS)
    assert attendance_at_start(Notices(late_notice_at=at(14, 0)), NIGHT, OPTIONS) is Attendance.LATE_NOTIFIED
    assert attendance_at_start(Notices(late_notice_at=at(16, 0)), NIGHT, OPTIONS) is Attendance.MISSING


def test_tv22d_absence_notice_is_not_a_no_show():
    """LADDER-TV-22 (d) / LADDER-ATT-4 / LADDER-AMB-21: an e-mail at 14:00 → absent_notified; valid before 19:00."""
    assert attendance_at_start(Notices(absence_notice_at=at(14, 0)), NIGHT, OPTIONS) is Attendance.ABSENT_NOTIFIED
    assert attendance_at_start(Notices(absence_notice_at=at(18, 59)), NIGHT, OPTIONS) is Attendance.ABSENT_NOTIFIED
    assert attendance_at_start(Notices(absence_notice_at=at(19, 0)), NIGHT, OPTIONS) is Attendance.MISSING
    assert not end_of_night_no_show(Attendance.ABSENT_NOTIFIED, games_played=0)


def test_late_arrival_joins_games_not_started_or_on_ball_one():
    """LADDER-ATT-2: a game not started or still on ball 1 (joined_in_progress); other games are missed."""
    assert late_arrival_can_play(GameStage.NOT_STARTED)
    assert late_arrival_can_play(GameStage.BALL_ONE)
    assert not late_arrival_can_play(GameStage.LATER)
    assert not late_arrival_can_play(GameStage.FINISHED)


def test_tv22b_third_no_show_fires_when_game_three_starts():
    """LADDER-TV-22 (b) / LADDER-ATT-5: 2 No-Shows, no check-in, no notice; game 3 starts → dropped."""
    assert not third_no_show(2, Attendance.MISSING, game_started=2, options=OPTIONS)
    assert third_no_show(2, Attendance.MISSING, game_started=3, options=OPTIONS)
    assert dropped_after(3, OPTIONS)
    assert not dropped_after(2, OPTIONS)


def test_tv22c_check_in_before_game_three_is_no_no_show():
    """LADDER-TV-22 (c) / LADDER-ATT-5: checking in at 20:35 before game 3 → no No-Show; games 1-2 are
    missed slots (LADDER-ATT-2)."""
    assert not third_no_show(2, Attendance.ON_TIME, game_started=3, options=OPTIONS)
    assert not end_of_night_no_show(Attendance.MISSING, games_played=3)


def test_first_two_no_shows_are_assessed_at_nights_end():
    """LADDER-AMB-22 / LADDER-ATT-4: no notice and no game played → a No-Show at the end of the night; the
    game-3 trigger is only for the 3rd."""
    assert end_of_night_no_show(Attendance.MISSING, games_played=0)
    assert not third_no_show(1, Attendance.MISSING, game_started=5, options=OPTIONS)
    assert not third_no_show(0, Attendance.MISSING, game_started=5, options=OPTIONS)


def test_an_out_of_range_skill_is_refused_saying_the_range():
    """LADDER-REG-2: the refusal word for word."""
    with refused_saying("LADDER-REG-2", "Skill must be a whole number from 1 (novice) to 10 (expert)."):
        check_skill(11)
