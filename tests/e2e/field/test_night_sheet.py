"""What a field meet shows its players through Discord: the machines announced with their extra balls
(FIELD-MSEL-1/3), each group's machines left (FIELD-MSEL-2), the board's suggested orders (FIELD-GROUP-3), a perfect
week's score (FIELD-SCORE-5), the regular-season winner once the regular weeks are final (FIELD-STAND-3), a
confirmed score an official cannot edit alone (COMMON-SCORE-3, FIELD-SCORE-4) and the finals date checked against
its weekday (FIELD-FIN-9, FIELD-AMB-6)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from sqlmodel import select

from bot.clock import ManualClock
from bot.local.emulator import InteractionResult, Output
from storage.db import Database
from storage.models import Season
from tests.e2e.harness import RunningBot, running_bot
from tests.e2e.phones import score_fields

ZONE = ZoneInfo("America/Indiana/Indianapolis")
MACHINES = ["Godzilla", "Medieval Madness", "Attack from Mars", "Twilight Zone", "Deadpool", "Jaws"]
PLAYERS = ["p01", "p02", "p03", "p04"]


@pytest.fixture
async def meet(sqlite_db: Database) -> AsyncIterator[RunningBot]:
    async with running_bot(sqlite_db) as league:
        clock = league.bot.clock
        assert isinstance(clock, ManualClock)
        clock.set(datetime(2027, 6, 1, 19, 0, tzinfo=ZONE))
        league.emulator.quiet_window = 0.001
        await league.run(
            '/league create name:"LPL" format:field timezone:America/Indiana/Indianapolis '
            "commissioner_role:@Commissioner",
            as_member="owner",
        )
        await league.run('/venue add name:"MSA"', as_member="alice")
        for model in MACHINES:
            await league.run(f'/machine add venue:"MSA" model:"{model}"', as_member="alice")
        for name in PLAYERS:
            league.emulator.add_member(name)
            await league.run(f"/player register member:@{name}", as_member="alice")
        yield league


async def board_of(league: RunningBot, title: str) -> Output:
    await league.scoreboards_published()
    boards = [o for o in league.emulator.messages_in("general") if o.embeds and o.embeds[0].get("title") == title]
    assert len(boards) == 1, [o.embeds for o in league.emulator.messages_in("general")]
    return boards[0]


def button(message: Output | InteractionResult, label: str) -> str:
    rows = message.components if isinstance(message, Output) else (message.answer.components if message.answer else [])
    found = [item["custom_id"] for row in rows for item in row["components"] if item.get("label", "").startswith(label)]
    assert len(found) == 1, (label, rows)
    return found[0]


async def test_the_night_sheet_and_the_board_show_what_is_announced_left_and_suggested(meet: RunningBot) -> None:
    league = meet
    configured = await league.run(
        r"/field config option:extra_ball_allowed value:[\"Godzilla\"] effective:2027-06-01", as_member="alice"
    )
    assert "⛔" not in configured.content, configured.content
    opened = await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    assert "Godzilla (extra ball allowed), Medieval Madness, Attack from Mars" in opened.text()  # FIELD-MSEL-1/3
    for name in PLAYERS:
        await league.run("/field checkin", as_member=name)
    await league.run("/field groups", as_member="alice")

    board = await board_of(league, "Week 1 · group 1")
    assert "Suggested order: P01, P02, P03, P04" in board.text()  # FIELD-GROUP-3: a rotation over the machines
    assert "Suggested order: P02, P03, P04, P01" in board.text()
    assert "Suggested order: P04, P01, P02, P03" in board.text()

    game = " ".join(f"p{i}:@{name} s{i}:{(5 - i) * 10_000:,}" for i, name in enumerate(PLAYERS, start=1))
    await league.run(f"/field game machine:1 {game}", as_member="alice")
    sheet = (await league.run("/field night show", as_member="p01")).text()
    # FIELD-MSEL-2: the group's progress; FIELD-SCORE-5: a first place on all five machines is 5 × 30
    assert "left: Medieval Madness, Attack from Mars, Twilight Zone, Deadpool" in sheet, sheet
    assert "Tonight's points (a perfect week: 150)" in sheet
    for machine in range(2, 6):
        await league.run(f"/field game machine:{machine} {game}", as_member="alice")
    sheet = (await league.run("/field night show", as_member="p01")).text()
    assert "left: none" in sheet


async def test_an_official_cannot_edit_a_confirmed_score_alone(meet: RunningBot) -> None:
    league, emulator = meet, meet.emulator
    await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    for name in PLAYERS:
        await league.run("/field checkin", as_member=name)
    await league.run("/field groups", as_member="alice")
    board = await board_of(league, "Week 1 · group 1")
    form = await emulator.click(board, button(board, "Enter Godzilla"), as_member="alice")
    values = {c["component"]["custom_id"]: f"{(n + 1) * 1000:,}" for n, c in enumerate(score_fields(form.modal))}
    entered = await emulator.submit_modal(form, values, as_member="alice")
    assert "Godzilla entered" in entered.content, entered.content
    unconfirmed = await emulator.click(entered, button(entered, "Edit"), as_member="alice")
    assert unconfirmed.modal is not None  # an official may fix it until it is confirmed
    confirmed = await emulator.click(entered, button(entered, "Confirm"), as_member="p02")
    assert "confirmed" in confirmed.content, confirmed.content

    refused = await emulator.click(entered, button(entered, "Edit"), as_member="alice")
    assert refused.ephemeral and "FIELD-SCORE-4" in refused.content and "`/field correct`" in refused.content


async def test_the_regular_season_winner_once_every_regular_week_is_final(meet: RunningBot) -> None:
    league = meet
    await league.run("/field config option:regular_weeks value:1 effective:2027-06-01", as_member="alice")
    await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    for name in PLAYERS:
        await league.run("/field checkin", as_member=name)
    await league.run("/field groups", as_member="alice")
    game = " ".join(f"p{i}:@{name} s{i}:{(5 - i) * 10_000:,}" for i, name in enumerate(PLAYERS, start=1))
    for machine in range(1, 6):
        await league.run(f"/field game machine:{machine} {game}", as_member="alice")
    open_table = (await league.run("/field standings", as_member="p02")).text()
    assert "Regular-season winner" not in open_table  # the night may still change
    await league.run("/field night close", as_member="alice")
    table = (await league.run("/field standings", as_member="p02")).text()
    assert "Regular-season winner (FIELD-STAND-3)" in table and "P01 — a title of its own" in table, table


async def test_the_finals_date_must_fall_on_the_weekday_given(meet: RunningBot) -> None:
    league = meet
    wrong = await league.run("/season postseason date:2027-06-22 weekday:Monday", as_member="alice")
    # FIELD-FIN-9: the finals date is entered in config and its weekday checked against the date
    assert wrong.ephemeral and "FIELD-AMB-6" in wrong.content and "is a Tuesday, not a Monday" in wrong.content
    async with league.db.reading() as session:
        assert (await session.exec(select(Season))).one().postseason_on is None  # nothing written
    right = await league.run("/season postseason date:2027-06-22 weekday:tuesday", as_member="alice")
    assert not right.ephemeral, right.content
    async with league.db.reading() as session:
        assert (await session.exec(select(Season))).one().postseason_on == date(2027, 6, 22)
