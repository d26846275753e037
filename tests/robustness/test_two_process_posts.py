"""Two real bot processes on one PostgreSQL database, started at the same moment with posts due: each process's
start-up catch-up races the other's for every post, and the claim (`post_claim`, unique per league, kind and
period) lets exactly one of them send it. Restarted both with a later clock, the next posts go out once and the
earlier ones, still within the grace, are not repeated (issues 6 and 9; COMMON-NOTIFY-1 for the notices)."""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import date, datetime, time, timedelta

import pytest
from sqlmodel import col, select

from bench.bot_process import BotProcess
from bench.team import NEW_YORK, TeamLeague, actor, seed_team_league
from bot.clock import ManualClock
from bot.local.emulator import Emulator
from bot.rules.notices import Notice
from bot.rules.posts import Channel
from bot.services import Services
from storage.db import Database
from storage.matches import Match
from storage.models import AuditEntry, Venue
from storage.posts import PostClaim
from tests.robustness.conftest import SMALL

CHANNELS = ("announcements", "scores", "commissioners")
SETTLE = 1.5  # seconds without a new message or claim after the expected ones: both catch-ups have run by then
DEADLINE = 20.0  # seconds for both processes to start and post


def at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=NEW_YORK)


async def claims(db: Database) -> list[PostClaim]:
    async with db.reading() as session:
        return list((await session.exec(select(PostClaim).order_by(col(PostClaim.id)))).all())


def posted(emulator: Emulator) -> list[tuple[str, int | None, str]]:
    return [(channel, m.message_id, m.text()) for channel in CHANNELS for m in emulator.messages_in(channel)]


async def move_a_later_match(league: TeamLeague, moment: datetime, number: int) -> str:
    """A commissioner moves one of next week's matches at `moment`: a notable audit entry, so a notice."""
    services = Services.build(league.db, ManualClock(moment), default_timezone="America/New_York")
    async with league.db.reading() as session:
        later = (await session.exec(select(Match).where(Match.week == 4).order_by(col(Match.id)))).all()[number]
        venues = (await session.exec(select(Venue).where(Venue.id != later.venue_id))).all()
    owner = actor(league.emulator, league.emulator.guild.owner.name, admin=True)
    reason = f"Venue closed for repairs ({number})"
    await services.schedule.move(
        owner, None, match_id=later.id or 0, venue_name=venues[0].name, reason=reason, justification=None
    )
    async with league.db.reading() as session:
        entry = (await session.exec(select(AuditEntry).where(AuditEntry.reason == reason))).one()
    return Notice.period_of(entry.id or 0)


async def both_processes_post(league: TeamLeague, now: datetime, expected: int) -> None:
    """Start two bot processes at once with their clocks at `now`; wait until `expected` posts are claimed and
    sent and nothing more arrives for SETTLE seconds (bounded by DEADLINE); then stop both."""
    emulator = league.emulator
    url = league.db.url.render_as_string(hide_password=False)
    bots = [BotProcess(emulator, url, now), BotProcess(emulator, url, now)]
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DEADLINE
    try:
        await asyncio.gather(*(bot.start(timeout=DEADLINE) for bot in bots))
        await emulator.wait_until_ready(deadline - loop.time(), sessions=2)
        last: tuple[int, int] | None = None
        quiet_since = loop.time()
        while loop.time() < deadline:
            rows = await claims(league.db)
            seen = (len(posted(emulator)), sum(row.message_id is not None for row in rows))
            if seen != last:
                last, quiet_since = seen, loop.time()
            elif min(seen) >= expected and loop.time() - quiet_since >= SETTLE:
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"{expected} posts expected; after {DEADLINE}s: {last} (messages, sent claims)")
    finally:
        await asyncio.gather(*(bot.stop() for bot in bots))


def assert_each_once(emulator: Emulator, rows: list[PostClaim], expected: set[tuple[str, str]]) -> None:
    """One claim per (league, kind, period), each with the id of a message in the channels, one message each."""
    messages = posted(emulator)
    keys = Counter((row.league_id, row.kind, row.period) for row in rows)
    assert [key for key, n in keys.items() if n > 1] == []
    assert {(row.kind, row.period) for row in rows} == expected
    assert all(row.message_id is not None for row in rows)
    ids = Counter(message_id for _, message_id, _ in messages)
    assert len(messages) == len(rows), Counter(text.splitlines()[0] for _, _, text in messages)
    assert set(ids) == {row.message_id for row in rows} and max(ids.values()) == 1


@pytest.mark.parametrize("db", ["postgresql"], indirect=True)
async def test_two_processes_started_together_send_each_due_post_once(db: Database) -> None:
    """TEAM-ROSTER-7 reminder, match-night reminder, roll calls, short-handed warnings (TEAM-SHORT-1) and a
    commissioner notice (COMMON-NOTIFY-1), all due at start-up: each sent once, whichever process claims it."""
    async with Emulator() as emulator:
        league = await seed_team_league(db, emulator, SMALL)
        day = league.match_day  # tonight: four matches, no roll-call answers, no scores yet
        setup = Services.build(db, ManualClock(at(day, 9)), default_timezone="America/New_York")
        owner = actor(emulator, emulator.guild.owner.name, admin=True)
        channels = {Channel(name): emulator.channel(name).id for name in CHANNELS}
        await setup.posts.set_channels(owner, None, channels, grace_minutes=24 * 60)
        # The day before at 18:00, so tonight's roll calls are still within the day's grace at 17:05 tonight.
        await setup.posts.set_timing(owner, None, "roll_call", enabled=None, at="18:00", days=None, hours=None)
        first_notice = await move_a_later_match(league, at(day, 16), 0)
        async with db.reading() as session:
            tonight = (await session.exec(select(Match.id).where(Match.play_on == day))).all()
        assert len(tonight) == 4

        await both_processes_post(league, at(day, 17, 5), expected=11)
        first_round = {
            ("roster_cutoff", day.isoformat()),
            ("match_night", day.isoformat()),
            ("notice", first_notice),
            *(("roll_call", f"match-{match_id}") for match_id in tonight),
            *(("short_warning", f"match-{match_id}") for match_id in tonight),
        }
        assert_each_once(emulator, await claims(db), first_round)
        announced = [text for _, _, text in posted(emulator)]
        assert sum("roster changes for tonight" in text for text in announced) == 1
        assert sum("Match night" in text for text in announced) == 1
        warnings = [text for text in announced if "fewer than four players" in text]
        assert len(warnings) == 4
        assert sum("🙋 Roll call" in text for text in announced if text not in warnings) == 4
        assert sum("Venue closed for repairs (0)" in text for text in announced) == 1

        # The next morning: the missing-score nudge and a new notice; last night's posts are still within the
        # grace, and must not go out again.
        second_notice = await move_a_later_match(league, at(day + timedelta(days=1), 8, 30), 1)
        await both_processes_post(league, at(day + timedelta(days=1), 9, 5), expected=13)
        second_round = first_round | {("missing_scores", day.isoformat()), ("notice", second_notice)}
        assert_each_once(emulator, await claims(db), second_round)
        assert len(emulator.messages_in("scores")) == 1
