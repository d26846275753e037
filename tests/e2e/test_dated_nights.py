"""Ladder and field nights on the calendar through the emulator (COMMON-SEASON-1): `/schedule nights` dates a
season's nights, skipped dates using up no week; each night's day reminder goes out at its local time once,
across the March and November clock changes and a restart; `/schedule ics` holds one event per night at its
New York time; bad input is refused with nothing written."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime, time, timedelta

import icalendar
import pytest
from sqlmodel import col, select

from bot.clock import ManualClock
from bot.local.emulator import Emulator, EmulatorError
from storage.db import Database
from storage.nights import PlannedNight
from tests.e2e.harness import RunningBot, running_bot
from tests.e2e.season import NEW_YORK, refused
from tests.e2e.test_scheduled_posts import MINUTE, claims, messages, ny, tick_at

REMINDERS = {"ladder": ("league_night", 12, "/ladder checkin"), "field": ("meet_night", 17, "/field checkin")}


async def ok(league: RunningBot, line: str, member: str = "alice") -> str:
    result = await league.run(line, as_member=member)
    assert not result.content.startswith("⛔") and "Something went wrong" not in result.text(), (line, result.text())
    return result.text()


async def dated_league(league: RunningBot, league_format: str) -> None:
    """A league of `league_format` in New York with its three post channels named; nothing scheduled yet."""
    created = f'/league create name:"Dated" format:{league_format} timezone:America/New_York'
    await ok(league, f"{created} commissioner_role:@Commissioner", "owner")
    await ok(league, "/posts channels announcements:#announcements scores:#scores commissioners:#commissioners")


async def planned(league: RunningBot) -> list[PlannedNight]:
    async with league.db.reading() as session:
        return list((await session.exec(select(PlannedNight).order_by(col(PlannedNight.play_on)))).all())


@pytest.mark.parametrize("league_format", ["ladder", "field"])
@pytest.mark.parametrize(
    ("first", "change", "utc_hours"),
    [(date(2027, 3, 10), date(2027, 3, 14), (5, 4)), (date(2027, 11, 3), date(2027, 11, 7), (4, 5))],
    ids=["march", "november"],
)
async def test_night_day_reminders_for_a_ladder_and_a_field_league_across_a_dst_change(
    sqlite_db: Database, league_format: str, first: date, change: date, utc_hours: tuple[int, int]
) -> None:
    """COMMON-SEASON-1: two Wednesday nights either side of the clock change; each night's reminder goes out on
    its day at the format's local time (ladder noon, field 5 p.m.), once, never a minute early, and nothing else
    is posted for nights not yet played."""
    kind, hour, checkin = REMINDERS[league_format]
    async with running_bot(sqlite_db, clock=ManualClock(ny(first - timedelta(days=6), 9))) as league:
        await dated_league(league, league_format)
        await ok(league, f"/schedule nights first:{first.isoformat()} nights:2")
        days = [first, first + timedelta(days=7)]
        assert [(n.week, n.play_on) for n in await planned(league)] == [(1, days[0]), (2, days[1])]

        for day in days:
            moment = ny(day, hour)
            assert await tick_at(league, moment - MINUTE) == 0, f"something went out early before {moment}"
            assert await tick_at(league, moment) == 1, moment
            assert await league.bot.posts.catch_up() == 0  # a second tick at the same minute sends nothing
        assert await tick_at(league, ny(days[1] + timedelta(days=2), 12)) == 0

        sent = {(c.kind, c.period): c for c in await claims(league)}
        assert set(sent) == {(kind, day.isoformat()) for day in days}
        for day in days:
            assert sent[(kind, day.isoformat())].claimed_at == ny(day, hour)
            assert sent[(kind, day.isoformat())].message_id is not None
        before, after = (sent[(kind, day.isoformat())].claimed_at.astimezone(UTC).hour for day in days)
        assert days[0] < change < days[1] and (before - hour, after - hour) == utc_hours  # UTC offsets (EST 5, EDT 4)
        reminders = [m.text() for m in messages(league, "announcements")]
        assert len(reminders) == 2 and "week 1 is tonight" in reminders[0] and "week 2 is tonight" in reminders[1]
        assert checkin in reminders[0]


async def test_a_night_reminder_due_while_the_bot_was_down_arrives_once_after_restart(sqlite_db: Database) -> None:
    """The bot stops before week 2's noon reminder and starts at 12:10: the reminder goes out once, at start;
    another start later sends nothing again."""
    first = date(2027, 3, 10)
    async with Emulator(guild_name="Pinball Club") as emulator:
        async with running_bot(sqlite_db, emulator, clock=ManualClock(ny(first - timedelta(days=2), 9))) as league:
            await dated_league(league, "ladder")
            await ok(league, f"/schedule nights first:{first.isoformat()} nights:2")
            assert await tick_at(league, ny(first, 12)) == 1
        week_two = first + timedelta(days=7)
        async with running_bot(sqlite_db, emulator, sync=False, clock=ManualClock(ny(week_two, 12, 10))) as league:
            for _ in range(50):  # the catch-up at start runs once the gateway is ready
                if len(await claims(league)) == 2:
                    break
                await asyncio.sleep(0.05)
            assert await league.bot.posts.catch_up() == 0
        async with running_bot(sqlite_db, emulator, sync=False, clock=ManualClock(ny(week_two, 13))) as league:
            assert await league.bot.posts.catch_up() == 0
            assert {c.period for c in await claims(league)} == {first.isoformat(), week_two.isoformat()}
        tonight = [m for m in emulator.messages_in("announcements") if "week 2 is tonight" in m.text()]
        assert len(tonight) == 1


async def test_schedule_ics_of_a_ladder_league_across_the_march_change_honours_a_skip(sqlite_db: Database) -> None:
    """COMMON-SEASON-1: three Wednesday nights from 3 March with 10 March skipped land on 3, 17 and 24 March,
    weeks 1–3; the calendar has one event per night at the check-in time, 19:15 New York time before and after
    the clocks change (00:15Z, then 23:15Z); `/schedule show` lists them in the league's zone."""
    async with running_bot(sqlite_db, clock=ManualClock(ny(date(2027, 3, 1), 9))) as league:
        await dated_league(league, "ladder")
        scheduled = await ok(league, '/schedule nights first:2027-03-03 nights:3 skip:2027-03-10 reason:"Spring break"')
        assert "3 nights scheduled" in scheduled and "Skipped: Wed 2027-03-10 (Spring break)" in scheduled, scheduled
        assert "Week 2 · Wed 2027-03-17 · 7:15 p.m." in scheduled, scheduled
        nights = [date(2027, 3, 3), date(2027, 3, 17), date(2027, 3, 24)]
        stored = [(n.week, n.play_on, n.skipped_because) for n in await planned(league)]
        assert stored == [(1, nights[0], None), (None, date(2027, 3, 10), "Spring break"), (2, nights[1], None),
                          (3, nights[2], None)]  # fmt: skip

        league.emulator.add_member("p1")
        reply = await league.run("/schedule ics", as_member="p1")
        assert reply.ephemeral and reply.answer is not None and "3 event(s)" in reply.content, reply.content
        [attachment] = reply.answer.attachments
        assert attachment.filename == "dated-nights.ics"
        events = sorted(
            icalendar.Calendar.from_ical(attachment.data).walk("VEVENT"), key=lambda e: e.decoded("DTSTART")
        )
        starts = [event.decoded("DTSTART") for event in events]
        assert [s.astimezone(NEW_YORK) for s in starts] == [datetime.combine(d, time(19, 15), NEW_YORK) for d in nights]
        assert [s.astimezone(UTC).strftime("%m-%d %H:%M") for s in starts] == [
            "03-04 00:15",
            "03-17 23:15",
            "03-24 23:15",
        ]
        assert [str(e["SUMMARY"]) for e in events] == [f"Dated: ladder night, week {w}" for w in (1, 2, 3)]
        assert all(e.decoded("DTEND") - e.decoded("DTSTART") == timedelta(hours=3) for e in events)
        assert len({str(e["UID"]) for e in events}) == 3

        shown = await league.run("/schedule show", as_member="p1")
        assert shown.ephemeral and "Week 3 · Wed 2027-03-24 · 7:15 p.m." in shown.text(), shown.text()
        assert "America/New_York" in shown.text() and "Skipped: Wed 2027-03-10 (Spring break)" in shown.text()
        one_week = await league.run("/schedule show week:2", as_member="p1")
        assert "Week 2 · Wed 2027-03-17" in one_week.text() and "Week 3" not in one_week.text(), one_week.text()
        await refused(league, "/schedule show week:4", as_member="p1", rule=None, message="has no week 4")


async def test_bad_night_schedules_are_refused_with_nothing_written(sqlite_db: Database) -> None:
    """COMMON-SEASON-1: a skip outside the season, a skip on another weekday, a past first night, zero nights, a
    bad start time, a second schedule and a team league are refused, each naming the option to fix."""
    async with running_bot(sqlite_db, clock=ManualClock(ny(date(2027, 3, 5), 9))) as league:
        await dated_league(league, "field")
        await refused(league, "/schedule ics", as_member="alice", rule=None, message="not scheduled yet")
        await refused(league, "/schedule nights first:2027-03-10 nights:3 skip:2027-03-17", as_member="alice",
                      rule="COMMON-SEASON-1", message="Say why the skipped dates have no night")  # fmt: skip
        await refused(league, "/schedule nights first:2027-03-10 nights:2 skip:2027-03-31", as_member="alice",
                      rule="COMMON-SEASON-1", message="`skip` 2027-03-31 is outside the season")  # fmt: skip
        await refused(league, "/schedule nights first:2027-03-10 nights:2 skip:2027-03-03", as_member="alice",
                      rule="COMMON-SEASON-1", message="outside the season (2027-03-10 to 2027-03-17)")  # fmt: skip
        await refused(league, "/schedule nights first:2027-03-10 nights:2 skip:2027-03-16", as_member="alice",
                      rule="COMMON-SEASON-1", message="is a Tuesday; the nights are on Wednesdays")  # fmt: skip
        await refused(league, "/schedule nights first:2027-03-03 nights:2", as_member="alice", rule=None,
                      message="`first` 2027-03-03 is in the past")  # fmt: skip
        await refused(league, "/schedule nights first:2027-03-10 nights:2 start:7pm", as_member="alice", rule=None,
                      message="`start` '7pm' is not a time")  # fmt: skip
        await refused(league, "/schedule nights first:10/03/2027 nights:2", as_member="alice", rule=None,
                      message="write it as YYYY-MM-DD")  # fmt: skip
        before = await league.row_counts()
        with pytest.raises(EmulatorError, match="'nights' must be between 1 and 52, got 0"):  # as Discord refuses
            await league.run("/schedule nights first:2027-03-10 nights:0", as_member="alice")
        assert await league.row_counts() == before
        league.emulator.add_member("p1")
        await refused(league, "/schedule nights first:2027-03-10 nights:2", as_member="p1", rule="COMMON-ROLE-1",
                      message="")  # fmt: skip

        await ok(league, "/schedule nights first:2027-03-10 nights:2 start:19:30")
        await refused(league, "/schedule nights first:2027-03-17 nights:2", as_member="alice", rule=None,
                      message="is scheduled already: 2 nights from 2027-03-10")  # fmt: skip
        await ok(league, '/league create name:"Teams" format:team timezone:America/New_York', "owner")
        await refused(league, '/schedule nights first:2027-03-10 nights:2 league:"Teams"', as_member="owner",
                      rule=None, message="`/schedule generate` schedules its season")  # fmt: skip
