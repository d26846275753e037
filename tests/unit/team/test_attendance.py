"""Match-night attendance (bot/rules/team/attendance.py): check-in, the start window, classification."""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.refusals import RuleViolation
from bot.rules.team.attendance import (
    AttendanceCall,
    AttendanceStatus,
    RosterEntry,
    Visit,
    WindowState,
    check_in,
    check_out,
    classify_attendance,
    present_players,
    short_attendance_flag_due,
    short_attendance_matches,
    window_settled_at,
)
from bot.rules.team.model import RosterRole, Side
from bot.rules.team.options import TeamOptions

DAY = date(2023, 4, 4)
OPTIONS = TeamOptions()
NORMAL, SHORT, FORFEIT = AttendanceStatus.NORMAL, AttendanceStatus.SHORT, AttendanceStatus.FORFEIT


def at(hhmm: str) -> datetime:
    hours, minutes = hhmm.split(":")
    return datetime(DAY.year, DAY.month, DAY.day, int(hours), int(minutes))


def arrivals(side: Side, *times: str, first_id: int = 1) -> tuple[Visit, ...]:
    return tuple(Visit(side, first_id + i, at(t)) for i, t in enumerate(times))


def crowd(home: int, away: int, when: str = "19:50") -> tuple[Visit, ...]:
    return arrivals(Side.HOME, *[when] * home) + arrivals(Side.AWAY, *[when] * away, first_id=100)


def call(visits: tuple[Visit, ...], now: str, extension: bool | None = None, options: TeamOptions = OPTIONS):
    return classify_attendance(
        visits, match_day=DAY, zone=None, now=at(now), extension_agreed=extension, options=options
    )


ROSTER = (
    RosterEntry(1, "Ann", RosterRole.CAPTAIN),
    RosterEntry(2, "Bob", RosterRole.STARTER),
    RosterEntry(3, "Cy", RosterRole.RESERVE),
)


class TestCheckInAndOut:
    def test_check_in_records_the_time(self) -> None:
        """TEAM-SCHED-2: a check-in is time-stamped."""
        visits = check_in((), ROSTER, Side.HOME, 2, now=at("19:41"))
        assert visits == (Visit(Side.HOME, 2, at("19:41")),)
        assert present_players(visits, Side.HOME, at("19:41")) == {2}
        assert present_players(visits, Side.HOME, at("19:40")) == frozenset()
        assert present_players(visits, Side.AWAY, at("19:45")) == frozenset()

    def test_check_out_closes_the_stay(self) -> None:
        """TEAM-SCHED-2, TEAM-SCHED-5: a check-out is time-stamped and the player is no longer present."""
        visits = check_in((), ROSTER, Side.HOME, 2, now=at("19:41"))
        visits = check_out(visits, ROSTER, Side.HOME, 2, now=at("21:30"))
        assert visits == (Visit(Side.HOME, 2, at("19:41"), at("21:30")),)
        assert present_players(visits, Side.HOME, at("21:29")) == {2}
        assert present_players(visits, Side.HOME, at("21:30")) == frozenset()

    def test_a_player_may_come_back(self) -> None:
        """TEAM-SCHED-2: checking in again after leaving starts a new stay."""
        visits = check_out(check_in((), ROSTER, Side.HOME, 1, now=at("19:00")), ROSTER, Side.HOME, 1, now=at("19:10"))
        visits = check_in(visits, ROSTER, Side.HOME, 1, now=at("20:40"))
        assert len(visits) == 2
        assert present_players(visits, Side.HOME, at("20:00")) == frozenset()
        assert present_players(visits, Side.HOME, at("20:41")) == {1}

    def test_checking_in_twice_is_refused(self) -> None:
        """TEAM-SCHED-2"""
        visits = check_in((), ROSTER, Side.HOME, 1, now=at("19:00"))
        with pytest.raises(RuleViolation, match="Ann is already checked in") as refused:
            check_in(visits, ROSTER, Side.HOME, 1, now=at("19:05"))
        assert refused.value.rule_id == "TEAM-SCHED-2"

    def test_only_rostered_players_check_in(self) -> None:
        """TEAM-SCHED-2"""
        with pytest.raises(RuleViolation, match="Player #9 is not on the roster"):
            check_in((), ROSTER, Side.HOME, 9, now=at("19:00"))

    def test_checking_out_without_checking_in_is_refused(self) -> None:
        """TEAM-SCHED-2"""
        with pytest.raises(RuleViolation, match="Bob is not checked in"):
            check_out((), ROSTER, Side.HOME, 2, now=at("19:00"))


class TestStartWindow:
    def test_before_the_start_time_nothing_is_decided(self) -> None:
        """TEAM-SCHED-3: matches start at 20:00, even when both teams are already there."""
        assert call(crowd(6, 6), "19:59").state is WindowState.BEFORE_START

    def test_starts_at_eight_when_both_have_four(self) -> None:
        """TEAM-SCHED-3: at 20:00 with 4+ each the match starts; nobody waits for a better player."""
        result = call(crowd(4, 5), "20:00")
        assert result.state is WindowState.DECIDED
        assert result.decided_at == at("20:00")
        assert result.status == {Side.HOME: NORMAL, Side.AWAY: NORMAL}

    def test_starts_as_soon_as_the_fourth_arrives(self) -> None:
        """TEAM-SCHED-3: a delayed start happens the moment both teams have 4."""
        visits = crowd(4, 3) + arrivals(Side.AWAY, "20:07", first_id=200)
        assert call(visits, "20:05").state is WindowState.WAITING
        result = call(visits, "20:10")
        assert (result.state, result.decided_at) == (WindowState.DECIDED, at("20:07"))
        assert result.status == {Side.HOME: NORMAL, Side.AWAY: NORMAL}

    def test_starts_at_the_moment_the_fourth_checks_in(self) -> None:
        """TEAM-SCHED-3: the fourth AWAY player checks in at 20:07; asked at 20:07, the match starts then."""
        visits = crowd(4, 3) + arrivals(Side.AWAY, "20:07", first_id=200)
        result = call(visits, "20:07")
        assert (result.state, result.decided_at) == (WindowState.DECIDED, at("20:07"))

    def test_a_short_team_is_not_ruled_on_before_the_courtesy_wait_ends(self) -> None:
        """TEAM-SCHED-3: no team is ruled short or forfeited before 20:15."""
        result = call(crowd(5, 2), "20:14")
        assert result.state is WindowState.WAITING
        assert result.status == {}

    def test_at_quarter_past_the_extra_wait_is_offered(self) -> None:
        """TEAM-SCHED-3: at 20:15 with a team still short the bot asks both captains about 15 more minutes."""
        assert call(crowd(5, 3), "20:15").state is WindowState.EXTENSION_OFFERED

    def test_declined_extension_closes_the_window_at_quarter_past(self) -> None:
        """TEAM-SCHED-3: window closes at 20:15; exactly 3 is short."""
        late = arrivals(Side.AWAY, "20:16", first_id=300)  # after the close: does not change the call
        result = call(crowd(5, 3) + late, "20:17", extension=False)
        assert (result.state, result.decided_at) == (WindowState.DECIDED, at("20:15"))
        assert result.status == {Side.HOME: NORMAL, Side.AWAY: SHORT}

    def test_tv7_two_players_forfeit(self) -> None:
        """TEAM-TV-7: no extension agreed; at 20:15 AWAY has 2 checked in and HOME 5 → AWAY forfeits."""
        result = call(crowd(5, 2), "20:15", extension=False)
        assert result.status == {Side.HOME: NORMAL, Side.AWAY: FORFEIT}

    def test_tv7c_three_against_two(self) -> None:
        """TEAM-TV-7 (c): HOME has only 3 and AWAY 2 → HOME short, AWAY forfeits."""
        result = call(crowd(3, 2), "20:15", extension=False)
        assert result.status == {Side.HOME: SHORT, Side.AWAY: FORFEIT}

    def test_tv7d_both_forfeit(self) -> None:
        """TEAM-TV-7 (d): both teams have 2 → both classified forfeit (double forfeit is TEAM-AMB-8)."""
        result = call(crowd(2, 2), "20:15", extension=False)
        assert result.status == {Side.HOME: FORFEIT, Side.AWAY: FORFEIT}

    def test_agreed_extension_waits_until_half_past(self) -> None:
        """TEAM-SCHED-3: with both captains' agreement the window runs to 20:30."""
        visits = crowd(5, 3)
        assert call(visits, "20:29", extension=True).state is WindowState.WAITING
        result = call(visits, "20:30", extension=True)
        assert (result.decided_at, result.status) == (at("20:30"), {Side.HOME: NORMAL, Side.AWAY: SHORT})

    def test_the_match_starts_during_the_extension_when_the_fourth_arrives(self) -> None:
        """TEAM-SCHED-3: again the match starts as soon as both have 4."""
        visits = crowd(5, 3) + arrivals(Side.AWAY, "20:22", first_id=300)
        result = call(visits, "20:40", extension=True)
        assert (result.decided_at, result.status) == (at("20:22"), {Side.HOME: NORMAL, Side.AWAY: NORMAL})

    def test_a_player_who_left_before_the_close_does_not_count(self) -> None:
        """TEAM-SCHED-3: the count is of players present when the window closes."""
        visits = (*crowd(3, 3), Visit(Side.AWAY, 400, at("19:55"), left=at("20:10")))
        result = call(visits, "20:15", extension=False)
        assert result.status == {Side.HOME: SHORT, Side.AWAY: SHORT}

    def test_four_briefly_together_before_eight_do_not_start_it(self) -> None:
        """TEAM-SCHED-3: the start is judged from 20:00 on, with those present then."""
        visits = (*crowd(4, 3), Visit(Side.AWAY, 400, at("19:30"), left=at("19:45")))
        assert call(visits, "20:05").state is WindowState.WAITING

    def test_without_an_extra_wait_the_window_closes_at_quarter_past(self) -> None:
        """TEAM-SCHED-3 with `optional_extra_wait_minutes=0`: nothing to offer."""
        result = call(crowd(5, 3), "20:15", options=TeamOptions(optional_extra_wait_minutes=0))
        assert result.status == {Side.HOME: NORMAL, Side.AWAY: SHORT}

    def test_an_extra_wait_of_one_minute_is_still_offered(self) -> None:
        """TEAM-SCHED-3 with `optional_extra_wait_minutes=1`: any extra wait is put to the captains."""
        result = call(crowd(5, 3), "20:15", options=TeamOptions(optional_extra_wait_minutes=1))
        assert result.state is WindowState.EXTENSION_OFFERED

    def test_the_start_time_is_taken_in_the_league_zone(self) -> None:
        """TEAM-SCHED-3: with aware times the 20:00 start is local league time."""
        zone = ZoneInfo("America/New_York")
        visits = tuple(Visit(side, i, datetime(2023, 4, 4, 19, 50, tzinfo=zone)) for side in Side for i in range(4))
        too_early = datetime(2023, 4, 4, 23, 30, tzinfo=ZoneInfo("UTC"))  # 19:30 in New York

        def call_at(now: datetime) -> AttendanceCall:
            return classify_attendance(
                visits, match_day=DAY, zone=zone, now=now, extension_agreed=None, options=OPTIONS
            )

        assert call_at(too_early).state is WindowState.BEFORE_START
        result = call_at(datetime(2023, 4, 5, 0, 1, tzinfo=ZoneInfo("UTC")))  # 20:01 in New York
        assert result.decided_at == datetime(2023, 4, 4, 20, 0, tzinfo=zone)

    @given(
        home=st.lists(st.integers(-30, 45), max_size=7),
        away=st.lists(st.integers(-30, 45), max_size=7),
        extension=st.sampled_from([None, True, False]),
        now=st.integers(0, 60),
    )
    def test_a_decision_matches_the_counts_at_that_moment(
        self, home: list[int], away: list[int], extension: bool | None, now: int
    ) -> None:
        """TEAM-SCHED-3: a start needs 4 on both sides; a close classifies by the count then (4+/3/fewer)."""
        start = at("20:00")
        visits = tuple(Visit(Side.HOME, i, start + timedelta(minutes=m)) for i, m in enumerate(home)) + tuple(
            Visit(Side.AWAY, 100 + i, start + timedelta(minutes=m)) for i, m in enumerate(away)
        )
        moment = start + timedelta(minutes=now)
        result = classify_attendance(
            visits, match_day=DAY, zone=None, now=moment, extension_agreed=extension, options=OPTIONS
        )
        if result.state is not WindowState.DECIDED:
            assert result.status == {}
            return
        assert result.decided_at is not None and start <= result.decided_at <= moment
        counts = {side: len(present_players(visits, side, result.decided_at)) for side in Side}
        if all(status is NORMAL for status in result.status.values()):
            assert min(counts.values()) >= 4
        else:
            assert result.decided_at in (at("20:15"), at("20:30"))
            expected = {s: NORMAL if n >= 4 else SHORT if n == 3 else FORFEIT for s, n in counts.items()}
            assert result.status == expected


class TestWindowSettled:
    def test_the_window_settles_after_both_waits(self) -> None:
        """TEAM-SCHED-3: 20:00, the 15-minute courtesy wait and the optional 15 more: 20:30 local time."""
        assert window_settled_at(DAY, zone=None, options=OPTIONS) == at("20:30")
        assert window_settled_at(DAY, zone=None, options=TeamOptions(optional_extra_wait_minutes=0)) == at("20:15")
        zone = ZoneInfo("America/New_York")
        assert window_settled_at(DAY, zone=zone, options=OPTIONS) == datetime(2023, 4, 4, 20, 30, tzinfo=zone)

    @given(
        home=st.lists(st.tuples(st.integers(-30, 90), st.none() | st.integers(1, 120)), max_size=7),
        away=st.lists(st.tuples(st.integers(-30, 90), st.none() | st.integers(1, 120)), max_size=7),
        extension=st.sampled_from([None, True, False]),
        extra_wait=st.sampled_from([0, 15, 30]),
        later=st.integers(0, 24 * 60),
    )
    def test_after_it_the_call_no_longer_changes(
        self,
        home: list[tuple[int, int | None]],
        away: list[tuple[int, int | None]],
        extension: bool | None,
        extra_wait: int,
        later: int,
    ) -> None:
        """TEAM-SCHED-3: from the settled moment on, the same visits give the same call at any later time."""
        start = at("20:00")
        options = TeamOptions(optional_extra_wait_minutes=extra_wait)

        def visits(side: Side, stays: list[tuple[int, int | None]], first: int) -> tuple[Visit, ...]:
            return tuple(
                Visit(
                    side,
                    first + i,
                    start + timedelta(minutes=came),
                    None if stay is None else start + timedelta(minutes=came + stay),
                )
                for i, (came, stay) in enumerate(stays)
            )

        everyone = visits(Side.HOME, home, 1) + visits(Side.AWAY, away, 100)
        settled = window_settled_at(DAY, zone=None, options=options)

        def call_at(moment: datetime) -> AttendanceCall:
            return classify_attendance(
                everyone, match_day=DAY, zone=None, now=moment, extension_agreed=extension, options=options
            )

        assert call_at(settled + timedelta(minutes=later)) == call_at(settled)


class TestShortAttendanceRecord:
    def test_counts_short_and_forfeited_matches(self) -> None:
        """TEAM-SCHED-4: short and forfeit both count."""
        assert short_attendance_matches([NORMAL, SHORT, NORMAL, FORFEIT]) == 2

    def test_flag_when_the_second_such_match_comes(self) -> None:
        """TEAM-SCHED-4: `short_attendance_flag=2` flags the commissioner on the second match."""
        assert not short_attendance_flag_due([NORMAL, SHORT], OPTIONS)
        assert short_attendance_flag_due([NORMAL, SHORT, NORMAL, FORFEIT], OPTIONS)

    def test_each_further_short_match_flags_again(self) -> None:
        """TEAM-SCHED-4: "repeatedly" short teams keep being flagged; a full match does not flag."""
        assert short_attendance_flag_due([SHORT, SHORT, SHORT], OPTIONS)
        assert not short_attendance_flag_due([SHORT, SHORT, NORMAL], OPTIONS)
        assert not short_attendance_flag_due([], OPTIONS)

    def test_threshold_is_configurable(self) -> None:
        """TEAM-SCHED-4: `config:short_attendance_flag`."""
        assert not short_attendance_flag_due([SHORT, SHORT], TeamOptions(short_attendance_flag=3))
        assert short_attendance_flag_due([SHORT, SHORT, SHORT], TeamOptions(short_attendance_flag=3))


class TestCheckOutCorners:
    """TEAM-SCHED-2, TEAM-SCHED-5: checking out closes that player's own stay and no other."""

    def test_only_the_leaving_players_stay_is_closed_and_every_other_visit_kept(self) -> None:
        visits = (Visit(Side.HOME, 3, at("19:00")), Visit(Side.AWAY, 2, at("19:05")), Visit(Side.HOME, 2, at("19:10")))
        after = check_out(visits, ROSTER, Side.AWAY, 2, now=at("21:00"))
        assert after == (visits[0], Visit(Side.AWAY, 2, at("19:05"), left=at("21:00")), visits[2])
        after = check_out(visits, ROSTER, Side.HOME, 2, now=at("21:00"))
        assert after == (visits[0], visits[1], Visit(Side.HOME, 2, at("19:10"), left=at("21:00")))

    def test_refusals_name_the_rule_and_the_player(self) -> None:
        for visits, player, message in (
            ((), 2, "Bob is not checked in, so cannot check out."),
            ((), 9, "Player #9 is not on the roster, so cannot check in or out."),
        ):
            with pytest.raises(RuleViolation) as info:
                check_out(visits, ROSTER, Side.HOME, player, now=at("21:00"))
            assert (info.value.rule_id, info.value.message) == ("TEAM-SCHED-2", message)
