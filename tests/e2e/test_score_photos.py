"""A photo of the machine's display sent with a game's scores from the living board's form (issue 15 item 1), in
every format: the form's optional file upload (a Label wrapping Discord's file upload, below the players' fields);
the photo kept with the game and linked on the board and the echo; a fix's photo replacing it and an undo removing
it; a game entered without one unchanged; and bad uploads refused as Discord refuses them (the emulator: too
big, too many, none where one is required) or as the bot does (not a picture), with nothing stored."""

from __future__ import annotations

import re

import pytest
from sqlmodel import select

from bot.local.emulator import Attachment, EmulatorError, InteractionResult, Output
from bot.local.emulator.limits import validate_modal
from bot.services.group_boards import Seat
from cogs._forms import ScoreForm
from storage.field import FieldGamePhoto
from storage.ladder import LadderGamePhoto
from storage.matches import GamePhoto
from storage.models import AuditEntry
from tests.e2e.harness import RunningBot
from tests.e2e.phones import Attached, Phones, Pick, Score, Value, photo_field, score_fields
from tests.e2e.team_night import Night, enter_and_confirm, four_each_checked_in, scoreboard
from tests.e2e.test_phone_night_groups import (  # noqa: F401 - the ladder and field fixtures
    FIELD_MACHINES,
    FIELD_MEMBERS,
    LADDER_PLAYERS,
    MACHINES,
    board_of,
    button,
    by_name,
    field,
    game_key,
    ladder,
    ok,
)

MIB = 1024 * 1024
PHOTO_LINK = re.compile(r"\[📷 photo\]\((http[^)\s]+)\)")


def picture(name: str = "display.jpg", size: int = 200_000, kind: str = "image/jpeg") -> Attachment:
    """A phone's picture of the display (its bytes do not matter to the bot: it keeps the link)."""
    return Attachment(name, kind, b"\xff\xd8\xff" + b"\0" * (size - 3))


def links(text: str) -> list[str]:
    return PHOTO_LINK.findall(text)


async def photo_rows(league: RunningBot, model: type[GamePhoto | LadderGamePhoto | FieldGamePhoto]) -> list[object]:
    async with league.db.reading() as session:
        return list((await session.exec(select(model))).all())


# --- the team match's scoreboard ---------------------------------------------------------------------------


async def declare_round_one(night: Night) -> None:
    await four_each_checked_in(night)
    m1, m2, _ = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")


async def open_form(
    night: Night, action: str, game: int, who: str, on: Output | InteractionResult
) -> InteractionResult:
    form = await night.league.emulator.click(on, f"score:{action}:{night.match_id}:1:{game}", as_member=who)
    assert form.modal is not None, form.text()
    return form


SCORES = {"home1": "45,210,330", "home2": "1,000", "away1": "2,000", "away2": "3,000"}


async def test_a_team_game_entered_with_a_photo_shows_it_on_the_board_and_a_fix_replaces_it(night: Night) -> None:
    """COMMON-SCORE-1, TEAM-GAME-1: the doubles form has four players and room for the photo; the photo sent is
    kept with the game (URL, filename, content type), linked on the echo and on the board's line of the game; a
    game entered without one shows none; the entrant's Edit with another photo replaces it (audited); Undo takes
    the photo back with the scores."""
    await declare_round_one(night)
    emulator = night.league.emulator
    form = await open_form(night, "enter", 1, "h1", await scoreboard(night))
    upload = photo_field(form.modal)
    assert upload is not None and upload["label"] == "📷 Photo of the display"
    assert upload["component"] | {"id": None} == {
        "type": 19, "id": None, "custom_id": "photo", "required": False, "min_values": 0, "max_values": 1,
    }  # fmt: skip
    entered = await emulator.submit_modal(form, SCORES | {"photo": picture()}, as_member="h1")
    assert not entered.ephemeral and "H1 45,210,330" in entered.content
    (url,) = links(entered.content)
    assert url.endswith("/display.jpg")
    (row,) = await photo_rows(night.league, GamePhoto)
    assert isinstance(row, GamePhoto)
    assert (row.round_index, row.game_number, row.url, row.filename, row.content_type) == (
        1, 1, url, "display.jpg", "image/jpeg",
    )  # fmt: skip
    board = await scoreboard(night)
    round_one = next(f["value"] for f in board.embeds[0]["fields"] if f["name"].startswith("Round 1"))
    line_one, line_two = round_one.splitlines()
    assert links(line_one) == [url] and links(line_two) == []

    # Game 2 without a photo: nothing changes from what the board showed before photos existed.
    form = await open_form(night, "enter", 2, "a1", board)
    entered_two = await emulator.submit_modal(form, SCORES, as_member="a1")
    assert links(entered_two.content) == [] and "📷" not in entered_two.content
    assert len(await photo_rows(night.league, GamePhoto)) == 1
    board = await scoreboard(night)
    assert "📷" not in board.embeds[0]["fields"][0]["value"].splitlines()[1]

    # The entrant fixes game 1 with a better photo: it replaces the first, audited before and after.
    form = await open_form(night, "edit", 1, "h1", entered)
    fixed = await emulator.submit_modal(
        form, SCORES | {"home2": "1,500", "photo": picture("display-2.png", kind="image/png")}, as_member="h1"
    )
    (new_url,) = links(fixed.content)
    assert new_url.endswith("/display-2.png") and new_url != url
    (row,) = await photo_rows(night.league, GamePhoto)
    assert isinstance(row, GamePhoto) and (row.url, row.content_type) == (new_url, "image/png")
    async with night.league.db.reading() as session:
        audited = (await session.exec(select(AuditEntry).where(AuditEntry.entity == "game_photo"))).all()
    assert [(a.action, (a.before or {}).get("filename"), (a.after or {}).get("filename")) for a in audited] == [
        ("create", None, "display.jpg"),
        ("update", "display.jpg", "display-2.png"),
    ]
    # A fix without a file keeps the photo: the upload cannot be pre-filled, so an empty one changes nothing.
    form = await open_form(night, "edit", 1, "h1", fixed)
    kept = await emulator.submit_modal(form, SCORES | {"home2": "1,600"}, as_member="h1")
    assert links(kept.content) == [new_url]
    assert links((await scoreboard(night)).embeds[0]["fields"][0]["value"].splitlines()[0]) == [new_url]

    undone = await emulator.click(kept, f"score:undo:{night.match_id}:1:1", as_member="h1")
    assert "taken back" in undone.text()
    assert await photo_rows(night.league, GamePhoto) == []
    assert "📷" not in (await scoreboard(night)).embeds[0]["fields"][0]["value"]


async def test_a_tied_games_replay_form_takes_a_photo_that_replaces_the_tied_ones(night: Night) -> None:
    """TEAM-AMB-4: a game confirmed level is replayed through the same form, photo included: the replay's photo
    replaces the tied game's; a replay sent without one, then taken back, leaves the tied game's photo alone."""
    await declare_round_one(night)
    emulator = night.league.emulator
    level = {"home1": "5,000,000", "home2": "5,000,000", "away1": "6,000,000", "away2": "4,000,000"}
    form = await open_form(night, "enter", 1, "h1", await scoreboard(night))
    tied = await emulator.submit_modal(form, level | {"photo": picture("tied.jpg")}, as_member="h1")
    (tied_url,) = links(tied.content)
    await emulator.click(tied, f"score:confirm:{night.match_id}:1:1", as_member="a1")

    form = await open_form(night, "enter", 1, "a1", await scoreboard(night))
    assert "replay" in form.modal["title"] and photo_field(form.modal) is not None
    without = await emulator.submit_modal(form, SCORES, as_member="a1")
    await emulator.click(without, f"score:undo:{night.match_id}:1:1", as_member="a1")
    (row,) = await photo_rows(night.league, GamePhoto)
    assert isinstance(row, GamePhoto) and row.url == tied_url

    form = await open_form(night, "enter", 1, "a1", await scoreboard(night))
    replayed = await emulator.submit_modal(form, SCORES | {"photo": picture("replay.jpg")}, as_member="a1")
    assert "replay entered" in replayed.content
    (replay_url,) = links(replayed.content)
    (row,) = await photo_rows(night.league, GamePhoto)
    assert isinstance(row, GamePhoto) and (row.url, row.filename) == (replay_url, "replay.jpg")
    assert links((await scoreboard(night)).embeds[0]["fields"][0]["value"].splitlines()[0]) == [replay_url]


async def test_bad_uploads_are_refused_as_discord_refuses_them_and_nothing_is_stored(night: Night) -> None:
    """Discord's client refuses a file over the member's upload limit (10 MiB on a server without boosts) and
    more files than `max_values`; its upload takes any file type, so the bot refuses what is not a picture,
    privately, naming the field and the fix, and offers the form again with the scores typed: no row changes
    until a good form is sent (COMMON-SCORE-1's one form, all or nothing)."""
    await declare_round_one(night)
    emulator = night.league.emulator
    form = await open_form(night, "enter", 1, "h1", await scoreboard(night))
    before = await night.league.row_counts()
    with pytest.raises(EmulatorError, match="over the 10 MiB"):
        await emulator.submit_modal(form, SCORES | {"photo": picture(size=10 * MIB + 1)}, as_member="h1")
    with pytest.raises(EmulatorError, match="takes 1–1 files, got 2"):
        await emulator.submit_modal(form, SCORES | {"photo": [picture(), picture("b.jpg")]}, as_member="h1")
    assert await night.league.row_counts() == before

    notes = Attachment("notes.txt", "text/plain", b"H1 45,210,330")
    refused = await emulator.submit_modal(form, SCORES | {"photo": notes}, as_member="h1")
    assert refused.ephemeral
    assert "Photo of the display: 'notes.txt' (text/plain) is not a photo" in refused.content
    assert "leave the field empty" in refused.content
    assert await night.league.row_counts() == before
    assert refused.answer is not None
    (retry,) = [item for row in refused.answer.components for item in row["components"]]
    again = await emulator.click(refused, retry["custom_id"], as_member="h1")
    assert again.modal is not None
    assert {c["component"]["custom_id"]: c["component"].get("value") for c in score_fields(again.modal)} == SCORES
    upload = photo_field(again.modal)
    assert upload is not None and "Optional" in upload["description"]  # the refused file is not kept
    # A picture at the limit is fine; one typo'd score refused keeps the good photo for the form sent again.
    typo = await emulator.submit_modal(
        again, SCORES | {"away1": "2.0.0", "photo": picture(size=10 * MIB)}, as_member="h1"
    )
    assert typo.ephemeral and "Away 1 (A1): '2.0.0' is not a score" in typo.content
    assert await night.league.row_counts() == before
    assert typo.answer is not None
    (retry,) = [item for row in typo.answer.components for item in row["components"]]
    last = await emulator.click(typo, retry["custom_id"], as_member="h1")
    upload = photo_field(last.modal)
    assert upload is not None and upload["description"].startswith("Kept: display.jpg")
    entered = await emulator.submit_modal(last, SCORES, as_member="h1")
    assert len(links(entered.content)) == 1
    assert len(await photo_rows(night.league, GamePhoto)) == 1


async def test_a_singles_round_of_photos_with_discords_long_links_keeps_the_board_within_discords_limits(
    night: Night,
) -> None:
    """TEAM-LINEUP-8, TEAM-GAME-4: a Singles game's form has one player a side and the photo; four games with
    photos whose links are as long as Discord's signed attachment URLs do not fit beside the games in one embed
    field (1,024 characters): the round's games are marked 📷 and the links go below them, in a field of their
    own, and the board is still accepted (the emulator refuses an embed past Discord's limits)."""
    await declare_round_one(night)
    m1, m2, m3 = night.machines
    for game in (1, 2):
        await enter_and_confirm(night, 1, game, ("2,000", "1"), ("1,000", "1"))
    await night.run(f"/lineup match:MATCH p1:H1 p2:H3 p3:H2 p4:H4 m1:{m1} m2:{m3}", "h1")
    await night.run("/lineup match:MATCH p1:A1 p2:A3 p3:A2 p4:A4", "a1")
    for game in (1, 2):
        await enter_and_confirm(night, 2, game, ("2,000", "1"), ("1,000", "1"))
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m1} m3:{m2} m4:{m3}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    emulator = night.league.emulator
    sent = []
    for game in (1, 2, 3, 4):
        board = await scoreboard(night)
        form = await emulator.click(board, f"score:enter:{night.match_id}:3:{game}", as_member="h1")
        assert [c["component"]["custom_id"] for c in score_fields(form.modal)] == ["home1", "away1"]
        name = f"PXL_20270303_2015{game:02d}_{'x' * 170}.jpg"  # a link of about 230 characters, as Discord's are
        entered = await emulator.submit_modal(
            form, {"home1": "5,000", "away1": "4,000", "photo": picture(name)}, as_member="h1"
        )
        (url,) = links(entered.content)
        sent.append(url)
    board = await scoreboard(night)
    fields = [(f["name"], f["value"]) for f in board.embeds[0]["fields"]]
    (round_three,) = [value for name, value in fields if name == "Round 3 · singles"]
    assert links(round_three) == [] and round_three.count("📷") == 4
    assert [url for name, value in fields if name == "Round 3 · photos" for url in links(value)] == sent
    assert all(len(value) <= 1024 for _, value in fields)


async def test_the_photo_takes_the_forms_fifth_place_and_a_five_player_form_goes_without() -> None:
    """Discord's modal holds five components: four players' fields leave the fifth for the photo; a five-player
    group's form has no room for it and is sent without one (both forms pass the emulator's modal checks)."""

    async def ignored(*_: object) -> None:
        return None

    for players, has_photo in ((2, True), (4, True), (5, False)):
        seats = [Seat(n, f"Player {n}", None) for n in range(1, players + 1)]
        payload = ScoreForm("Game 1 scores", seats, ignored, {}).to_dict()
        validate_modal(payload)
        kinds = [component["component"]["type"] for component in payload["components"]]
        assert kinds == [4] * players + ([19] if has_photo else []), kinds


# --- the ladder's and the field's group boards ---------------------------------------------------------------


async def enter(
    phones: Phones, board: Output, who: str, game: str, scores: dict[str, str], photo: Attachment | None = None
) -> InteractionResult:
    """Enter scores from the board: one press, one form; the photo picked from the phone counts nothing typed."""
    custom_id = button(board, f"Enter {game}")
    form = await phones.press(board, custom_id, who, purpose="enter")
    values: dict[str, Value] = by_name(form, {name: Score(text) for name, text in scores.items()})
    if photo is not None:
        values["photo"] = Attached(photo)
    return await phones.fill(form, who, values, purpose=("enter", *game_key(custom_id)))


def prefilled(form: InteractionResult) -> dict[str, str]:
    """The form's score fields as it shows them (a fix: the stored scores, left alone)."""
    return {c["component"]["custom_id"]: c["component"].get("value") or "" for c in score_fields(form.modal)}


def game_field(board: Output, name: str) -> str:
    return next(f["value"] for f in board.embeds[0]["fields"] if f["name"] == name)


async def test_a_ladder_game_entered_with_a_photo_shows_it_on_the_group_board(ladder: RunningBot) -> None:  # noqa: F811
    """LADDER-SCORE-1, COMMON-SCORE-1: a group of three: its form has the photo below the players; the photo is
    kept with the group's game and linked in the game's field of the board and on the echo; the next game,
    entered without one, shows none; Undo takes the photo back with the scores (COMMON-SCORE-3: before the
    confirmation). Nothing is typed for the photo."""
    phones = Phones(ladder)
    await ok(ladder, "/ladder night open")
    for player in LADDER_PLAYERS:
        await phones.command(player, "/ladder checkin")
    await ok(ladder, f'/ladder games set group:1 games:"{", ".join(MACHINES)}"')
    board = await board_of(ladder, "Week 1 · group 1")
    scores = {"Ann": "30,000,000", "Ben": "20,000,000", "Cat": "10,000,000"}
    entered = await enter(phones, board, "Cat", "Game 1", scores, picture("afm.heic", kind="image/heic"))
    (url,) = links(entered.content)
    (row,) = await photo_rows(ladder, LadderGamePhoto)
    assert isinstance(row, LadderGamePhoto)
    assert (row.slot, row.url, row.filename, row.content_type) == (0, url, "afm.heic", "image/heic")
    board = await board_of(ladder, "Week 1 · group 1")
    assert links(game_field(board, "Game 1 · Attack from Mars")) == [url]
    await phones.press(entered, button(entered, "Confirm"), "Ben", purpose="confirm")

    board = await board_of(ladder, "Week 1 · group 1")
    second = await enter(phones, board, "Ann", "Game 2", {"Ann": "1,000", "Ben": "2,000", "Cat": "3,000"})
    assert "📷" not in second.content
    board = await board_of(ladder, "Week 1 · group 1")
    assert "📷" not in game_field(board, "Game 2 · Black Knight")
    assert len(await photo_rows(ladder, LadderGamePhoto)) == 1
    assert phones.typed == []

    # A photo sent with a fix, then taken back with the scores: the game's photo goes with them.
    form = await ladder.emulator.click(second, button(second, "Edit"), as_member="Ann")
    fixed = await ladder.emulator.submit_modal(
        form, prefilled(form) | {"photo": picture("bk.png", kind="image/png")}, as_member="Ann"
    )
    assert len(links(fixed.content)) == 1 and len(await photo_rows(ladder, LadderGamePhoto)) == 2
    await ladder.emulator.click(fixed, button(fixed, "Undo"), as_member="Ann")
    (kept,) = await photo_rows(ladder, LadderGamePhoto)
    assert isinstance(kept, LadderGamePhoto) and kept.slot == 0  # game 1's, confirmed, stays


async def test_a_field_game_entered_with_a_photo_shows_it_and_a_fix_replaces_it(field: RunningBot) -> None:  # noqa: F811
    """FIELD-SCORE-1, COMMON-SCORE-1: a group of four on a machine: the form's fifth place is the photo; it is
    kept for the group's game on that machine and linked on its board; the entrant's fix with another photo
    replaces it; a machine entered without one shows none; a file that is not a picture is refused by the bot
    and stores no score."""
    phones, emulator = Phones(field), field.emulator
    machines = {f"m{n}": Pick(machine) for n, machine in enumerate(FIELD_MACHINES, start=1)}
    await phones.command("alice", "/field night open", **machines)
    for member in FIELD_MEMBERS:
        await phones.command(member, "/field checkin")
    await phones.command("alice", "/field groups")
    board = await board_of(field, "Week 1 · group 1")
    scores = {"Dee": "40,000", "Eve": "30,000", "Fay": "20,000", "Gil": "10,000"}

    form = await emulator.click(board, button(board, "Enter Black Knight"), as_member="Gil")
    assert len(score_fields(form.modal)) == 4 and photo_field(form.modal) is not None
    before = await field.row_counts()
    values = by_name(form, {name: Score(text) for name, text in scores.items()})
    texts = {key: value.text if isinstance(value, Score) else "" for key, value in values.items()}
    pdf = Attachment("sheet.pdf", "application/pdf", b"%PDF-1.7")
    refused = await emulator.submit_modal(form, texts | {"photo": pdf}, as_member="Gil")
    assert refused.ephemeral and "'sheet.pdf' (application/pdf) is not a photo" in refused.content
    assert await field.row_counts() == before

    entered = await enter(phones, board, "Gil", "Black Knight", scores, picture("bk.webp", kind="image/webp"))
    (url,) = links(entered.content)
    board = await board_of(field, "Week 1 · group 1")
    assert links(game_field(board, "Black Knight")) == [url]
    (row,) = await photo_rows(field, FieldGamePhoto)
    assert isinstance(row, FieldGamePhoto) and (row.group_number, row.filename) == (1, "bk.webp")

    form = await emulator.click(entered, button(entered, "Edit"), as_member="Gil")
    fixed = await emulator.submit_modal(form, prefilled(form) | {"photo": picture("bk-2.jpg")}, as_member="Gil")
    (new_url,) = links(fixed.content)
    (row,) = await photo_rows(field, FieldGamePhoto)
    assert isinstance(row, FieldGamePhoto) and (row.url, row.filename) == (new_url, "bk-2.jpg")

    board = await board_of(field, "Week 1 · group 1")
    await enter(phones, board, "Dee", "Attack from Mars", scores)
    board = await board_of(field, "Week 1 · group 1")
    assert "📷" not in game_field(board, "Attack from Mars")
    assert links(game_field(board, "Black Knight")) == [new_url]
    assert phones.typed == []
