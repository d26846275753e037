"""Roll calls of planned ladder and field nights through the emulator (COMMON-SEASON-1): the night-day post goes out
once at its local time with In / Maybe / Out buttons and the league's players listed; answers are stored per
(planned night, player) and the post is edited to show them; on the ladder, Out is the absence notice
`/ladder absent` records (LADDER-ATT-4); a stranger is refused with nothing written."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from sqlmodel import col, select

from bot.clock import ManualClock
from bot.local.emulator import Emulator, Output
from bot.rules.posts import RollCallAnswer
from storage.db import Database
from storage.ladder import LadderAttendance, LadderPlayer
from storage.models import Player
from storage.nights import NightRollCallReply
from tests.e2e.harness import RunningBot, running_bot
from tests.e2e.test_dated_nights import REMINDERS, dated_league, ok
from tests.e2e.test_scheduled_posts import MINUTE, claims, clock_of, messages, ny, tick_at

FIRST = date(2027, 3, 10)  # a Wednesday
JOIN = {"ladder": "/ladder join skill:5", "field": "/player register member:@{member}"}


async def with_players(league: RunningBot, league_format: str) -> None:
    """P1 and P2 play: they join the ladder themselves; a commissioner registers them in the field league."""
    for member in ("p1", "p2"):
        league.emulator.add_member(member)
        if league_format == "ladder":
            await ok(league, JOIN["ladder"], member)
        else:
            await ok(league, JOIN["field"].format(member=member))


async def answers(league: RunningBot) -> dict[str, RollCallAnswer]:
    async with league.db.reading() as session:
        query = select(Player.display_name, NightRollCallReply.answer).join(
            Player, col(Player.id) == NightRollCallReply.player_id
        )
        return {name: answer for name, answer in (await session.exec(query)).all()}


async def absences(league: RunningBot) -> dict[str, tuple[int, object, object]]:
    """Each ladder player's attendance row: (week, absence notice, late notice)."""
    async with league.db.reading() as session:
        query = (
            select(Player.display_name, LadderAttendance)
            .join(LadderPlayer, col(LadderPlayer.id) == LadderAttendance.ladder_player_id)
            .join(Player, col(Player.id) == LadderPlayer.player_id)
        )
        return {
            name: (row.week, row.absence_notice_at, row.late_notice_at)
            for name, row in (await session.exec(query)).all()
        }


def roll_call_post(league: RunningBot) -> tuple[Output, int]:
    [post] = messages(league, "announcements")
    found = re.search(r"nightcall:(\d+):in", str(post.components))
    assert found is not None, post.components
    return post, int(found.group(1))


@pytest.mark.parametrize("league_format", ["ladder", "field"])
async def test_a_night_roll_call_posts_once_lists_the_players_and_shows_the_answers(
    sqlite_db: Database, league_format: str
) -> None:
    """COMMON-SEASON-1: week 1's night-day post goes out on its day at the format's local time (ladder noon, field
    5 p.m.), once, listing both players as not answered; P1 answers In then Out, P2 Maybe; the stored answers and
    the edited post agree; a stranger is refused with nothing written; the next day the roll call is closed."""
    kind, hour, _ = REMINDERS[league_format]
    async with running_bot(sqlite_db, clock=ManualClock(ny(FIRST - timedelta(days=6), 9))) as league:
        await dated_league(league, league_format)
        await with_players(league, league_format)
        await ok(league, f"/schedule nights first:{FIRST.isoformat()} nights:2")

        assert await tick_at(league, ny(FIRST, hour) - MINUTE) == 0
        assert await tick_at(league, ny(FIRST, hour)) == 1
        assert await league.bot.posts.catch_up() == 0
        assert [(c.kind, c.period) for c in await claims(league)] == [(kind, FIRST.isoformat())]
        post, night_id = roll_call_post(league)
        assert "week 1 is tonight" in post.text() and "No answer: P1, P2" in post.text(), post.text()

        async def press(member: str, choice: str) -> str:
            result = await league.emulator.click(post, f"nightcall:{night_id}:{choice}", as_member=member)
            assert result.ephemeral, result.content
            return result.content

        coming = await press("p1", "in")
        assert "Noted: you are in for week 1, Wed 10 Mar." in coming, coming
        assert await answers(league) == {"P1": RollCallAnswer.IN}
        assert "In (1): P1" in roll_call_post(league)[0].text()
        out = await press("p1", "out")
        assert "Noted: you are out for week 1" in out, out
        assert "a maybe" in await press("p2", "maybe")
        assert await answers(league) == {"P1": RollCallAnswer.OUT, "P2": RollCallAnswer.MAYBE}
        shown = roll_call_post(league)[0].text()
        assert "In (0): —" in shown and "Maybe (1): P2" in shown and "Out (1): P1" in shown, shown
        assert "No answer: —" in shown, shown

        league.emulator.add_member("stranger")
        before = await league.row_counts()
        refusal = await press("stranger", "in")
        assert refusal.startswith("⛔") and "Only Dated's players answer its roll call" in refusal, refusal
        assert await league.row_counts() == before

        clock_of(league).set(ny(FIRST + timedelta(days=1), 9))
        closed = await press("p2", "in")
        assert closed.startswith("⛔") and "Week 1's night has been played" in closed, closed
        assert await answers(league) == {"P1": RollCallAnswer.OUT, "P2": RollCallAnswer.MAYBE}
        if league_format == "field":  # FIELD-ATT-1: who plays is who checks in
            assert "/field checkin" in coming and "FIELD-ATT-1" in coming and "checkin" not in out, (coming, out)


async def test_out_on_a_ladder_roll_call_is_the_absence_notice_of_ladder_absent(sqlite_db: Database) -> None:
    """LADDER-ATT-4: P1's Out records the same absence notice as P2's `/ladder absent` at the same moment (week 1,
    timed then, no late notice); In afterwards cannot withdraw it, as `/ladder absent` cannot, and says so."""
    async with running_bot(sqlite_db, clock=ManualClock(ny(FIRST - timedelta(days=6), 9))) as league:
        await dated_league(league, "ladder")
        await with_players(league, "ladder")
        await ok(league, f"/schedule nights first:{FIRST.isoformat()} nights:2")
        assert await tick_at(league, ny(FIRST, 12)) == 1
        post, night_id = roll_call_post(league)

        clock_of(league).set(ny(FIRST, 13))
        out = await league.emulator.click(post, f"nightcall:{night_id}:out", as_member="p1")
        assert "absence notice for week 1 is recorded" in out.content and "LADDER-ATT-4" in out.content, out.content
        await ok(league, "/ladder absent", "p2")
        recorded = await absences(league)
        assert recorded["P1"] == recorded["P2"] == (1, ny(FIRST, 13), None), recorded

        back = await league.emulator.click(post, f"nightcall:{night_id}:in", as_member="p1")
        assert "Noted: you are in" in back.content and "absence notice for week 1 stands" in back.content, back.content
        assert "`/ladder checkin` by 19:30" in back.content and "LADDER-ATT-1" in back.content, back.content
        assert (await absences(league))["P1"] == (1, ny(FIRST, 13), None)
        assert await answers(league) == {"P1": RollCallAnswer.IN}


async def test_the_roll_call_buttons_still_answer_after_a_restart(sqlite_db: Database) -> None:
    """The buttons are persistent: a bot started after the post went out answers them and edits the post."""
    async with Emulator(guild_name="Pinball Club") as emulator:
        async with running_bot(sqlite_db, emulator, clock=ManualClock(ny(FIRST - timedelta(days=6), 9))) as league:
            await dated_league(league, "field")
            await with_players(league, "field")
            await ok(league, f"/schedule nights first:{FIRST.isoformat()} nights:1")
            assert await tick_at(league, ny(FIRST, 17)) == 1
            post, night_id = roll_call_post(league)
        async with running_bot(sqlite_db, emulator, sync=False, clock=ManualClock(ny(FIRST, 18))) as league:
            answered = await emulator.click(post, f"nightcall:{night_id}:in", as_member="p2")
            assert "Noted: you are in for week 1" in answered.content, answered.content
            assert "In (1): P2" in roll_call_post(league)[0].text()
