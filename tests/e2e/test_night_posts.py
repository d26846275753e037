"""Scheduled posts of the ladder and field formats through the emulator, on the bot's clock: a closed ladder
night's next groups and standings, the ladder's playoff places at the season's end, a closed field night's
results and standings, and the field finals bracket posted when seeded and edited after a result. The leagues
come from the ladder, field-night and finals tests' fixtures (each test cites its rules)."""

from __future__ import annotations

import io
from datetime import datetime, time, timedelta

from PIL import Image
from sqlmodel import col, select

from bot.clock import ManualClock
from bot.local.emulator import Output
from storage.ladder import LadderGroup, LadderNight, LadderPlayer
from storage.models import Player
from tests.e2e.field.test_finals import finals_league  # noqa: F401 - a fixture
from tests.e2e.field.test_night import MEMBERS, ZONE, field_league  # noqa: F401 - a fixture
from tests.e2e.harness import RunningBot
from tests.e2e.ladder.test_night import MACHINES, NEW_YORK, NIGHT, ladder, ok  # noqa: F401 - a fixture

MINUTE = timedelta(minutes=1)
M = 1_000_000


def clock_of(league: RunningBot) -> ManualClock:
    clock = league.bot.clock
    assert isinstance(clock, ManualClock)
    return clock


async def tick_at(league: RunningBot, moment: datetime) -> int:
    clock_of(league).set(moment)
    return await league.bot.posts.catch_up()


def messages(league: RunningBot, channel: str) -> list[Output]:
    return league.emulator.messages_in(channel)


def edits(league: RunningBot) -> list[Output]:
    return [output for output in league.emulator.outputs if output.kind == "message_edit"]


async def play_ladder_night(league: RunningBot, opened_at: datetime) -> None:
    """Open a night, set every group's five games, check everyone in, enter each player's whole scoresheet
    (the group's players finish in rank order) and close it at 10:30 p.m."""
    clock_of(league).set(opened_at)
    await ok(league, "/ladder night open", "alice")
    async with league.db.reading() as session:
        night = (await session.exec(select(LadderNight).order_by(col(LadderNight.week).desc()))).first()
        assert night is not None
        groups = (await session.exec(select(LadderGroup).where(LadderGroup.night_id == night.id))).all()
        names = dict(
            (
                await session.exec(
                    select(LadderPlayer.id, Player.display_name).where(LadderPlayer.player_id == Player.id)
                )
            ).all()
        )
    for group in groups:
        await ok(league, f'/ladder games set group:{group.number} games:"{", ".join(MACHINES[:5])}"', "alice")
        for place, member in enumerate(group.members):
            name = names[member].lower()
            await ok(league, "/ladder checkin", name)
            score = (60 - 10 * place) * M
            await ok(league, f'/ladder score game:1 score:"{" ".join([f"{score}"] * 5)}"', name)
    clock_of(league).set(datetime.combine(opened_at.date(), time(22, 30), tzinfo=NEW_YORK))
    await ok(league, "/ladder night close", "alice")


def group_fields(embed: dict) -> dict[str, list[str]]:
    return {f["name"]: f["value"].splitlines() for f in embed.get("fields", []) if f["name"].startswith("Group")}


async def test_a_closed_ladder_night_posts_next_weeks_groups_once_at_noon_the_day_after(ladder: RunningBot) -> None:  # noqa: F811
    """LADDER-GROUP-3: the day after the night is closed, at 12:00 New York time, next week's groups go out once,
    the same groups `/ladder groups` shows, each with game 1's order, worst-placed first (LADDER-ORDER-1);
    the week's standings (LADDER-STAND-1) go out with them, with the table as an image."""
    league = ladder
    await ok(league, "/posts channels announcements:#announcements scores:#scores", "alice")
    await play_ladder_night(league, NIGHT)
    assert await league.bot.posts.catch_up() == 0  # nothing until noon tomorrow

    noon = datetime.combine(NIGHT.date() + timedelta(days=1), time(12), tzinfo=NEW_YORK)
    assert await tick_at(league, noon - MINUTE) == 0
    assert await tick_at(league, noon) == 2
    assert await tick_at(league, noon + 5 * MINUTE) == 0
    assert await tick_at(league, noon + timedelta(days=1)) == 0

    [groups_post, standings_post] = sorted(messages(league, "announcements"), key=lambda m: "standings" in m.text())
    assert "groups for week 2" in groups_post.text() and "LADDER-GROUP-3" in groups_post.text()
    shown = (await league.run("/ladder groups", as_member="p5")).embeds[0]
    posted = group_fields(groups_post.embeds[0])
    assert len(posted) == 3
    for name, lines in group_fields(shown).items():
        ranked = [line for line in lines if line.startswith("#")]
        assert posted[name][: len(ranked)] == ranked, (name, posted[name])  # the same groups, rank order
        order = [line.split(" ", 1)[1] for line in reversed(ranked)]
        assert posted[name][len(ranked)] == "Game 1 order: " + ", ".join(order)  # worst-placed first

    preview = await league.run("/posts preview kind:next_groups", as_member="alice")
    assert preview.ephemeral and group_fields(preview.embeds[0]) == posted
    other_format = await league.run("/posts set kind:night_results enabled:false", as_member="alice")
    assert other_format.ephemeral and "no kind of post named 'night_results'" in other_format.content

    assert "standings after week 1" in standings_post.text()
    [picture] = standings_post.attachments
    assert picture.filename == "standings.png" and Image.open(io.BytesIO(picture.data)).width >= 800


async def test_the_ladder_playoff_places_are_posted_when_the_last_regular_night_closes(ladder: RunningBot) -> None:  # noqa: F811
    """LADDER-PO-1: a two-week season (no division split for 10 players here): when week 2's night is closed the
    playoff places go out at once, with an image, the same as `/ladder playoffs`; week 1's close posts none."""
    league = ladder
    for name, value in (("min_players_for_split", "11"), ("split_after_week", "1"), ("regular_weeks", "2")):
        await ok(league, f"/ladder option name:{name} value:{value}", "alice")
    await ok(league, "/posts channels announcements:#announcements", "alice")
    for kind in ("next_groups", "weekly_standings"):
        await ok(league, f"/posts set kind:{kind} enabled:false", "alice")
    await play_ladder_night(league, NIGHT)
    assert await league.bot.posts.catch_up() == 0
    await play_ladder_night(league, NIGHT + timedelta(weeks=1))
    assert await league.bot.posts.catch_up() == 1
    assert await tick_at(league, clock_of(league).now() + MINUTE) == 0
    [post] = messages(league, "announcements")
    places = (await league.run("/ladder playoffs", as_member="p5")).embeds[0]
    assert "Final standings" in post.text() and post.embeds[0]["fields"] == places["fields"]
    seeds = places["fields"][0]["value"].split("\nAlternates: ")[0].splitlines()
    assert len(seeds) == 3  # LADDER-AMB-19: clamp(10 // 3, 2, 6) = 3 playoff places for 10 players
    [picture] = post.attachments
    assert picture.filename == "playoffs.png" and Image.open(io.BytesIO(picture.data)).width >= 800


async def test_a_closed_field_night_posts_its_results_once_the_morning_after(field_league: RunningBot) -> None:  # noqa: F811
    """FIELD-SCORE-2: the morning after a night is closed, at 10:00 league time, its results go to the scores
    channel once: each machine's points and the night's totals, with the table as an image; the season
    standings (FIELD-STAND-1) follow at noon in the announcements."""
    league = field_league
    await ok(league, "/posts channels announcements:#announcements scores:#scores", "alice")
    players = [MEMBERS[0], MEMBERS[1], MEMBERS[4], MEMBERS[5]]
    await ok(league, "/field night open m1:1 m2:2 m3:3 m4:4 m5:5", "alice")
    for name in players:
        await ok(league, "/field checkin", name)
    await ok(league, "/field groups", "alice")
    for rank, name in enumerate(players):
        for machine in range(1, 6):
            await ok(league, f"/field score machine:{machine} score:{(90 - rank) * 1000 + machine:,}", name)
    night_day = clock_of(league).now().astimezone(ZONE).date()
    await ok(league, "/field night close", "alice")

    morning = datetime.combine(night_day + timedelta(days=1), time(10), tzinfo=ZONE)
    assert await tick_at(league, morning - MINUTE) == 0
    assert await tick_at(league, morning) == 1
    assert await tick_at(league, morning + MINUTE) == 0
    [results] = messages(league, "scores")
    text = results.text()
    assert "Week 1 results" in text and "Godzilla" in text and "Deadpool" in text
    sheet = await ok(league, "/field night show week:1", "p05")
    totals = [line for line in sheet.splitlines() if line[:2].strip().isdigit()]
    assert [line.split()[1] for line in totals] == ["P01", "P02", "P05", "P06"]
    assert all(line in text for line in totals)  # the same totals as the night sheet
    assert "Godzilla: 1. P01 30 · 2. P02 24 · 3. P05 23 · 4. P06 22" in text  # FIELD-SCORE-2: 30, 24, 23, 22
    [picture] = results.attachments
    cells = Image.open(io.BytesIO(picture.data))
    assert picture.filename == "results.png" and cells.width >= 800
    assert await tick_at(league, morning + timedelta(hours=2)) == 1  # noon: the week's standings
    [standings] = messages(league, "announcements")
    assert "standings after week 1" in standings.text() and "P01" in standings.text()
    assert len(messages(league, "scores")) == 1


async def test_the_field_finals_bracket_is_posted_when_seeded_and_edited_after_a_result(
    finals_league: RunningBot,  # noqa: F811
) -> None:
    """FIELD-FIN-3/7: when the finals are seeded the double-elimination bracket is posted with an image; a decided
    pairing edits that same message (embed and image); a tick with no news leaves it alone."""
    league = finals_league
    seeded_at = datetime(2027, 7, 1, 19, 0, tzinfo=ZONE)
    clock_of(league).set(seeded_at)
    await ok(league, "/posts channels announcements:#announcements", "alice")
    for kind in ("weekly_standings", "night_results"):
        await ok(league, f"/posts set kind:{kind} enabled:false", "alice")
    for name in ("ann", "ben", "cat", "dov"):
        await ok(league, f"/field finals entry member:@{name} paid:true", "alice")
    assert await league.bot.posts.catch_up() == 0  # not seeded yet: no bracket
    await ok(league, "/field finals seed", "alice")
    assert await league.bot.posts.catch_up() == 1
    [post] = messages(league, "announcements")
    [image] = post.attachments
    assert image.filename == "bracket-1.png" and Image.open(io.BytesIO(image.data)).width >= 800
    assert "(1) Ann v (4) Dov" in post.text()
    assert await tick_at(league, seeded_at + 5 * MINUTE) == 0 and not edits(league)

    for game in (1, 2):
        chooser, other = ("ann", "dov") if game == 1 else ("dov", "ann")
        await ok(league, f"/field finals pick pairing:W3-1 machine:{game}", chooser)
        await ok(league, "/field finals pick pairing:W3-1 first:true", other)
        await ok(league, "/field finals result pairing:W3-1 winner:@ann", "alice")
    await tick_at(league, seeded_at + 30 * MINUTE)
    [edited] = messages(league, "announcements")
    assert edited.message_id == post.message_id and len(edits(league)) == 1
    assert edited.attachments[0].data != image.data
    assert "W3-1" not in edited.text().split("Finals rules")[0].split("Seeds")[1]  # decided: no longer in play
    assert await tick_at(league, seeded_at + 35 * MINUTE) == 0 and len(edits(league)) == 1
