"""Scheduled posts through the emulator: a season's first two weeks walked across the March DST change with the
bot's clock (every post at its local time, once), roll-call buttons, the commissioner's /posts commands, the
weekly standings with images, a restart, and two bots on one PostgreSQL database."""

from __future__ import annotations

import asyncio
import io
import re
from datetime import UTC, date, datetime, time, timedelta

import pytest
from PIL import Image
from sqlmodel import col, select

from bot.clock import ManualClock
from bot.local.emulator import Emulator, Output
from bot.render.posts import Outgoing, render_post, standings_rows
from bot.rules.posts import Channel
from bot.rules.team.model import Side
from storage.db import Database
from storage.matches import Match, MatchChallenge
from storage.posts import PostClaim
from tests.e2e.harness import RunningBot, running_bot
from tests.e2e.season import NEW_YORK, Facts, set_up_season_league, stored_matches, teams_by_name

MINUTE = timedelta(minutes=1)
SCHEDULE_START = "2027-03-08"  # a Monday: week 1 before the 14 March change, week 2 after it
ROW = re.compile(r"^(\d+=?)\s+(.+?)\s+(\d+-\d+)\s+(\S+)\s+(\d+)\s*(\S*)$")


def ny(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=NEW_YORK)


def clock_of(league: RunningBot) -> ManualClock:
    clock = league.bot.clock
    assert isinstance(clock, ManualClock)
    return clock


async def tick_at(league: RunningBot, moment: datetime) -> int:
    clock_of(league).set(moment)
    return await league.bot.posts.catch_up()


async def set_up_posting(league: RunningBot, start: str = SCHEDULE_START) -> None:
    generated = await league.run(f"/schedule generate weeks:2 start:{start}", as_member="alice")
    assert "6 matches over 2 weeks" in generated.text(), generated.text()
    reply = await league.run(
        "/posts channels announcements:#announcements scores:#scores commissioners:#commissioners", as_member="alice"
    )
    assert reply.ephemeral and "Posting settings saved" in reply.text(), reply.text()


async def claims(league: RunningBot) -> list[PostClaim]:
    async with league.db.reading() as session:
        return list((await session.exec(select(PostClaim).order_by(col(PostClaim.id)))).all())


def messages(league: RunningBot, channel: str) -> list[Output]:
    return league.emulator.messages_in(channel)


@pytest.mark.parametrize(
    ("start", "change", "utc_hours"),
    [("2027-03-08", date(2027, 3, 14), (19, 18)), ("2027-11-01", date(2027, 11, 7), (18, 19))],
    ids=["march", "november"],
)
async def test_two_weeks_across_a_dst_change_every_post_at_its_local_time_once(
    season_league: RunningBot, start: str, change: date, utc_hours: tuple[int, int]
) -> None:
    """TEAM-ROSTER-7: the cutoff reminder goes at 2 p.m. New York time on every match day, before and after the
    clocks change (EST/EDT); roll calls at noon the day before, match-night reminders at 5 p.m., the
    missing-score nudge at 9 a.m. the day after. Each post arrives once, never a minute early."""
    league = season_league
    await set_up_posting(league, start)
    off = await league.run("/posts set kind:short_warning enabled:false", as_member="alice")
    assert "Short-handed warning: off" in off.text(), off.text()

    matches = await stored_matches(league)
    days = sorted({m.play_on for m in matches})
    expected: list[tuple[str, str, datetime, str]] = []  # kind, period, local time, channel
    for day in days:
        expected += [
            ("roster_cutoff", day.isoformat(), ny(day, 14), "announcements"),
            ("match_night", day.isoformat(), ny(day, 17), "announcements"),
            ("missing_scores", day.isoformat(), ny(day + timedelta(days=1), 9), "scores"),
        ]
    expected += [
        ("roll_call", f"match-{m.id}", ny(m.play_on - timedelta(days=1), 12), "announcements") for m in matches
    ]
    times = sorted({moment for _, _, moment, _ in expected})

    for moment in times:
        before = {channel: len(messages(league, channel)) for channel in ("announcements", "scores")}
        assert await tick_at(league, moment - MINUTE) == 0, f"something went out early before {moment}"
        due_now = [e for e in expected if e[2] == moment]
        assert await tick_at(league, moment) == len(due_now), moment
        assert await league.bot.posts.catch_up() == 0  # a second tick at the same minute sends nothing
        for channel in ("announcements", "scores"):
            arrived = len(messages(league, channel)) - before[channel]
            assert arrived == sum(1 for e in due_now if e[3] == channel), (moment, channel)

    sent = {(c.kind, c.period): c for c in await claims(league)}
    assert set(sent) == {(kind, period) for kind, period, _, _ in expected}
    for kind, period, moment, _ in expected:
        assert sent[(kind, period)].claimed_at == moment, (kind, period)
        assert sent[(kind, period)].message_id is not None
    cutoff_utc_hours = {day: sent[("roster_cutoff", day.isoformat())].claimed_at.hour for day in days}
    assert {h for d, h in cutoff_utc_hours.items() if d < change} == {utc_hours[0]}  # 14:00 before the change
    assert {h for d, h in cutoff_utc_hours.items() if d > change} == {utc_hours[1]}  # 14:00 after it

    teams = await teams_by_name(league)
    captain = league.emulator.member("sp1")
    monday_cutoff = next(m for m in messages(league, "announcements") if "roster changes for tonight" in m.content)
    assert "**2:00 p.m.**" not in monday_cutoff.content and "4:00 p.m." in monday_cutoff.content
    assert f"<@{captain.user.id}>" in monday_cutoff.content and "TEAM-ROSTER-7" in monday_cutoff.content
    match_night = next(m for m in messages(league, "announcements") if "Match night" in m.text())
    assert "Rollovers at Spinners" in match_night.text() or "Spinners at Rollovers" in match_night.text()
    assert teams["Spinners"].name in match_night.text()


async def test_roll_call_buttons_and_the_short_handed_warning(season_league: RunningBot) -> None:
    """Players answer in / maybe / out; the living message shows who is coming per team; a player on neither
    roster is refused; on match day both captains hear that a team has fewer than four
    (TEAM-SHORT-1)."""
    league = season_league
    await set_up_posting(league)
    monday = date(2027, 3, 8)
    assert await tick_at(league, ny(monday - timedelta(days=1), 12)) == 1  # Monday's one match (West)
    [post] = messages(league, "announcements")
    assert "Roll call" in post.text() and not post.ephemeral
    match_id = int(re.search(r"rollcall:(\d+):in", str(post.components)).group(1))  # type: ignore[union-attr]

    async def press(member: str, choice: str) -> str:
        result = await league.emulator.click(post, f"rollcall:{match_id}:{choice}", as_member=member)
        return result.content

    for member in ("sp1", "sp2", "sp3", "sp4", "ro1", "ro2", "ro3"):
        assert "Noted: you are in" in await press(member, "in")
    assert "you are out" in await press("ro4", "out")
    assert "a maybe" in await press("sp5", "maybe")
    refusal = await press("fk1", "in")
    assert refusal.startswith("⛔") and "Only players on either team's roster" in refusal
    [living] = messages(league, "announcements")
    shown = living.text()
    assert "In (4): Sp1, Sp2, Sp3, Sp4" in shown and "In (3): Ro1, Ro2, Ro3" in shown
    assert "Out: Ro4" in shown and "Maybe: Sp5" in shown and "No answer: Sp6" in shown

    await tick_at(league, ny(monday, 12))  # with Tuesday's roll calls
    [warning] = [m for m in messages(league, "announcements") if "fewer than four" in m.content]
    assert "**Rollovers** (3 coming)" in warning.content and "Spinners**" not in warning.content
    for captain in ("sp1", "ro1"):
        assert f"<@{league.emulator.member(captain).user.id}>" in warning.content
    assert "TEAM-SHORT-1" in warning.content


async def test_weekly_standings_with_images_once_the_week_is_final(season_league: RunningBot) -> None:
    """TEAM-STAND-1: the day after the week's last match, the table as an embed and as PNG images (table and
    rank race) that a phone can read; the image's cells are the embed's rows."""
    league = season_league
    await set_up_posting(league)
    await league.run("/posts set kind:weekly_standings at:10:30", as_member="alice")
    facts = await Facts.load(league)
    week_one = [m for m in await stored_matches(league) if m.week == 1]
    for number, match in enumerate(week_one):
        await facts.played(match, "HHAAHHHHAAAH" if number % 2 else "AAHHAAAAHHHA")
    last_day = max(m.play_on for m in week_one)
    clock_of(league).set(ny(last_day + timedelta(days=1), 10, 29))
    assert not [c for c in await claims(league) if c.kind == "weekly_standings"]
    await league.bot.posts.catch_up()
    assert not [c for c in await claims(league) if c.kind == "weekly_standings"]
    await tick_at(league, ny(last_day + timedelta(days=1), 10, 30))
    [post] = [m for m in messages(league, "announcements") if "standings after week 1" in m.text()]
    names = sorted(a.filename for a in post.attachments)
    assert names == ["race-1.png", "race-2.png", "standings-1.png", "standings-2.png"]
    for attachment in post.attachments:
        image = Image.open(io.BytesIO(attachment.data))
        assert image.format == "PNG" and image.width >= 800 and image.height >= 250

    embed_rows = {
        field["name"]: [ROW.match(line).groups() for line in field["value"].strip("`\n").splitlines()[1:]]  # type: ignore[union-attr]
        for field in post.embeds[0]["fields"]
        if field["value"].startswith("```")
    }
    async with league.db.reading() as session:
        claim = (await session.exec(select(PostClaim).where(PostClaim.kind == "weekly_standings"))).one()
    content = await league.bot.services.posts.content_for(claim.league_id, claim.kind, claim.period)
    assert content is not None and content.standings is not None
    outgoing = render_post(content)
    for number, table in enumerate(content.standings.tables, start=1):
        picture = outgoing.pictures[f"standings-{number}.png"]
        drawn = [tuple(cell for cell in row) for row in picture.cells[1:]]
        assert drawn == standings_rows(table)
        shown = [
            (rank, name, record, pct, points, tie) for rank, name, record, pct, points, tie in embed_rows[table.name]
        ]
        assert [(r[0], r[2], r[3], r[4], r[5]) for r in drawn] == [(s[0], s[2], s[3], s[4], s[5]) for s in shown]
        assert [r[1][:12] for r in drawn] == [s[1].rstrip("…")[:12] for s in shown]
    east, west = outgoing.pictures["standings-1.png"], outgoing.pictures["standings-2.png"]
    assert east.png != west.png and east.height > west.height  # four teams drawn against two


async def test_commissioner_lists_previews_pauses_resumes_and_resends(season_league: RunningBot) -> None:
    """/posts upcoming, preview (private), pause, resume and resend; only commissioners (COMMON-ROLE-1)."""
    league = season_league
    await set_up_posting(league)
    clock_of(league).set(ny(date(2027, 3, 7), 9))
    upcoming = await league.run("/posts upcoming", as_member="alice")
    assert upcoming.ephemeral
    assert "Sun 7 Mar, 12:00 p.m. · roll call" in upcoming.text() and "Mon 8 Mar, 2:00 p.m." in upcoming.text()
    refused = await league.run("/posts upcoming", as_member="sp1")
    assert refused.ephemeral and "Rule COMMON-ROLE-1" in refused.content

    preview = await league.run("/posts preview kind:roll_call", as_member="alice")
    assert preview.ephemeral and "Preview of `roll_call`" in preview.text() and "Roll call" in preview.text()
    assert messages(league, "announcements") == []

    paused = await league.run("/posts pause", as_member="alice")
    assert "paused" in paused.content
    assert await tick_at(league, ny(date(2027, 3, 7), 12)) == 0
    resumed = await league.run("/posts resume", as_member="alice")
    assert "running again" in resumed.content
    assert await tick_at(league, ny(date(2027, 3, 7), 12, 5)) == 0  # fell due while paused: not sent
    assert messages(league, "announcements") == []
    assert await tick_at(league, ny(date(2027, 3, 8), 12)) == 2  # later posts go out as usual: a roll call, a warning
    assert await tick_at(league, ny(date(2027, 3, 8), 14)) == 1  # and the cutoff reminder
    assert len(messages(league, "announcements")) == 3

    resend = await league.run("/posts resend kind:roster_cutoff period:2027-03-08", as_member="alice")
    assert "Sent `roster_cutoff` `2027-03-08` again" in resend.content, resend.content
    reminders = [m for m in messages(league, "announcements") if "roster changes for tonight" in m.content]
    assert len(reminders) == 2
    not_yet = await league.run("/posts resend kind:roster_cutoff period:2027-03-09", as_member="alice")
    assert not_yet.content.startswith("⛔") and "has fallen due" in not_yet.content
    audited = [e for e in await league.audit() if e.entity in ("league_posting", "post_claim")]
    assert [e.action for e in audited][-1] == "update" and audited[-1].reason == "re-sent by a commissioner"


async def test_a_post_due_while_the_bot_was_down_arrives_once_after_restart(sqlite_db: Database) -> None:
    """Stop the bot an hour before the 2 p.m. reminder, start it ten minutes after: it arrives once, at start.
    Start it again later: nothing is sent twice."""
    async with Emulator(guild_name="Pinball Club") as emulator:
        async with running_bot(sqlite_db, emulator) as league:
            await set_up_season_league(league)
            await set_up_posting(league)
            monday = date(2027, 3, 8)
            await tick_at(league, ny(monday - timedelta(days=1), 12))  # Monday's roll call, while running
            await tick_at(league, ny(monday, 13))  # Tuesday's roll calls, Monday's short-handed warning
            posted_before_stop = len(emulator.messages_in("announcements"))
        assert [m for m in emulator.messages_in("announcements") if "roster changes" in m.content] == []

        async with running_bot(sqlite_db, emulator, sync=False, clock=ManualClock(ny(monday, 14, 10))) as league:
            for _ in range(50):  # the catch-up at start runs once the gateway is ready
                if [c for c in await claims(league) if c.kind == "roster_cutoff"]:
                    break
                await asyncio.sleep(0.05)
            assert await league.bot.posts.catch_up() == 0
        cutoffs = [m for m in emulator.messages_in("announcements") if "roster changes" in m.content]
        assert len(cutoffs) == 1

        async with running_bot(sqlite_db, emulator, sync=False, clock=ManualClock(ny(monday, 14, 30))) as league:
            assert await league.bot.posts.catch_up() == 0
        assert len([m for m in emulator.messages_in("announcements") if "roster changes" in m.content]) == 1
        assert len(emulator.messages_in("announcements")) == posted_before_stop + 1


@pytest.mark.parametrize("db", ["postgresql"], indirect=True)
async def test_two_bots_on_one_postgresql_database_send_each_post_once(db: Database) -> None:
    """Two bot processes (own engines, own gateway sessions, own clocks) tick at the same moments: every post
    goes out once, whichever wins its claim."""
    async with Emulator(guild_name="Pinball Club") as emulator:
        async with running_bot(db, emulator) as first:
            await set_up_season_league(first)
            await set_up_posting(first)
            start = ny(date(2027, 3, 7), 11)
            second_db = Database(db.url.render_as_string(hide_password=False))
            try:
                async with running_bot(second_db, emulator, sync=False, clock=ManualClock(start)) as second:
                    clock_of(first).set(start)
                    sent = 0
                    moment = start
                    while moment <= ny(date(2027, 3, 9), 18):
                        clock_of(first).set(moment)
                        clock_of(second).set(moment)
                        sent += sum(await asyncio.gather(first.bot.posts.catch_up(), second.bot.posts.catch_up()))
                        moment += timedelta(minutes=30)
            finally:
                await second_db.dispose()
        posted = emulator.messages_in("announcements") + emulator.messages_in("scores")
        async with db.reading() as session:
            rows = (await session.exec(select(PostClaim))).all()
            match_count = len((await session.exec(select(Match.id))).all())
    assert match_count == 6
    assert sent == len(posted) == len(rows) >= 8
    assert len({(row.kind, row.period) for row in rows}) == len(rows)
    assert {row.message_id for row in rows} == {message.message_id for message in posted}
    assert len({row.claimed_by for row in rows}) == 1  # one OS process here: both bots share its name


async def test_dispute_report_reminded_at_12_hours_and_flagged_to_commissioners_at_24(
    season_league: RunningBot,
) -> None:
    """TEAM-DISP-1: a challenge's 24 h report window: the challenger is reminded at +12 h (in #scores, pinged)
    and the commissioners are told at +24 h (in #commissioners); a ruled challenge gets neither."""
    league = season_league
    await set_up_posting(league)
    for kind in ("roster_cutoff", "roll_call", "short_warning", "match_night", "missing_scores"):
        await league.run(f"/posts set kind:{kind} enabled:false", as_member="alice")
    monday = date(2027, 3, 8)
    [match, ruled_match] = [m for m in await stored_matches(league) if m.week == 1][:2]
    challenger = league.emulator.member("sp1").user.id
    raised = ny(monday, 22, 45)
    async with league.db.writing() as session:
        for disputed in (match, ruled_match):
            session.add(
                MatchChallenge(
                    match_id=disputed.id or 0,
                    side=Side.HOME,
                    games=[[1, 1]],
                    reason="Game 1: the away score was 1,230,000",
                    raised_by=challenger,
                    raised_at=raised,
                    ruled_at=raised + timedelta(hours=1) if disputed is ruled_match else None,
                )
            )
    assert await tick_at(league, raised + timedelta(hours=12) - MINUTE) == 0
    assert await tick_at(league, raised + timedelta(hours=12)) == 1
    [reminder] = messages(league, "scores")
    assert f"<@{challenger}>" in reminder.content and "TEAM-DISP-1" in reminder.content
    assert "by **Tue 9 Mar, 10:45 p.m.**" in reminder.content
    assert await tick_at(league, raised + timedelta(hours=24)) == 1
    [flag] = messages(league, "commissioners")
    assert "report window" in flag.content and "/match ruling" in flag.content
    assert "1,230,000" in flag.content


async def test_the_playoff_bracket_is_posted_when_drawn_and_edited_as_results_arrive(
    season_league: RunningBot,
) -> None:
    """When `/playoffs seed` draws the bracket, it is posted with an image per conference; a playoff result
    edits that same message (its embed and image), and a tick without news leaves it alone."""
    league = season_league
    await league.run("/schedule generate weeks:3 start:2027-03-01", as_member="alice")
    await league.run("/posts channels announcements:#announcements", as_member="alice")
    for kind in ("roster_cutoff", "roll_call", "short_warning", "match_night", "weekly_standings"):
        await league.run(f"/posts set kind:{kind} enabled:false", as_member="alice")
    matches, teams = await stored_matches(league), await teams_by_name(league)
    facts = await Facts.load(league)
    order = ["Flipper Kings", "Ball Busters", "Tilt Warriors", "Drain Masters", "Spinners", "Rollovers"]
    for match in matches:
        names = {name for name, team in teams.items() if team.id in (match.home_team_id, match.away_team_id)}
        winner = teams[min(names, key=order.index)]
        loser = Side.AWAY if match.home_team_id == winner.id else Side.HOME
        await facts.venue_forfeit(match, loser)
    seeded_at = ny(date(2027, 3, 22), 9)
    clock_of(league).set(seeded_at)
    seeded = await league.run("/playoffs seed start:2027-03-22", as_member="alice")
    assert "3 first-round matches scheduled" in seeded.text(), seeded.text()
    assert await league.bot.posts.catch_up() == 1
    [post] = messages(league, "announcements")
    assert sorted(a.filename for a in post.attachments) == ["bracket-1.png", "bracket-2.png"]
    assert "beat" not in post.text()
    first_image = {a.filename: a.data for a in post.attachments}["bracket-1.png"]
    assert Image.open(io.BytesIO(first_image)).width >= 800

    assert await tick_at(league, seeded_at + timedelta(minutes=5)) == 0
    assert not [output for output in league.emulator.outputs if output.kind == "message_edit"]
    kings = teams["Flipper Kings"]
    [final_four] = [m for m in await stored_matches(league) if m.bracket_match == "W1-1" and m.home_team_id == kings.id]
    await facts.played(final_four, "HHHHHHHHAAAA")
    await tick_at(league, ny(date(2027, 3, 24), 9))
    [edited] = messages(league, "announcements")
    assert edited.message_id == post.message_id
    assert len([output for output in league.emulator.outputs if output.kind == "message_edit"]) == 1
    assert "(1) Flipper Kings** beat (4) Drain Masters" in edited.text()
    assert {a.filename: a.data for a in edited.attachments}["bracket-1.png"] != first_image


async def test_one_off_notices_go_through_the_same_claim_once(season_league: RunningBot) -> None:
    """The one-off notice path any service can use (the commissioner notices of issue 7): `claim_and_send` posts
    a notice to the league's commissioner channel once per (kind, period), not at all while it is not named."""
    league = season_league
    async with league.db.reading() as session:
        league_id = (await session.exec(select(Match.league_id))).first() or 1
    notice = Outgoing("📅 Rollovers at Spinners moved to Wed 10 Mar.")
    posts = league.bot.posts
    assert await posts.claim_and_send(league_id, "match_moved", "match-1", Channel.COMMISSIONERS, notice) is False
    await league.run("/posts channels commissioners:#commissioners", as_member="alice")
    assert await posts.claim_and_send(league_id, "match_moved", "match-1", Channel.COMMISSIONERS, notice) is True
    assert await posts.claim_and_send(league_id, "match_moved", "match-1", Channel.COMMISSIONERS, notice) is False
    assert [m.content for m in messages(league, "commissioners")] == [notice.content]


async def test_scheduler_jobs_follow_the_settings_in_the_league_zone(season_league: RunningBot) -> None:
    """The APScheduler side: one cron job per league and kind at the kind's local time in the league's zone
    (so the next 2 p.m. after the March change is 18:00 UTC), a catch-up job every minute, jobs rebuilt when
    settings change and at start, none while paused."""
    league = season_league
    scheduler = league.bot.posts.scheduler
    assert scheduler.running and scheduler.get_job("posts:catch-up") is not None
    await set_up_posting(league)
    async with league.db.reading() as session:
        league_id = (await session.exec(select(Match.league_id))).first()
    cutoff = scheduler.get_job(f"posts:{league_id}:roster_cutoff")
    assert cutoff is not None and cutoff.misfire_grace_time == 120 * 60 and cutoff.coalesce
    saturday_evening = datetime(2027, 3, 13, 23, 0, tzinfo=UTC)
    assert cutoff.trigger.get_next_fire_time(None, saturday_evening) == ny(date(2027, 3, 14), 14)
    assert cutoff.trigger.get_next_fire_time(None, saturday_evening).astimezone(UTC).hour == 18
    assert scheduler.get_job(f"posts:{league_id}:dispute_reminder") is None  # timed from each challenge instead

    await league.run("/posts set kind:roster_cutoff at:15:30", as_member="alice")
    moved = scheduler.get_job(f"posts:{league_id}:roster_cutoff")
    assert moved.trigger.get_next_fire_time(None, saturday_evening) == ny(date(2027, 3, 14), 15, 30)
    await league.run("/posts set kind:roster_cutoff enabled:false", as_member="alice")
    assert scheduler.get_job(f"posts:{league_id}:roster_cutoff") is None
    await league.run("/posts pause", as_member="alice")
    assert [job.id for job in scheduler.get_jobs()] == ["posts:catch-up"]
