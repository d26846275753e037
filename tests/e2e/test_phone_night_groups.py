"""A ladder night and a field night played from their group boards on the players' phones (DESIGN §2c).

Each group's living board names its games, who plays next and what awaits scores; a player presses **Enter
scores** and fills one field per player, labelled with the name; another player of the group, pinged once,
confirms with a button; a typo is fixed by its own entrant (Edit, pre-filled) before it is confirmed. What
members type is counted as the team night counts it (`tests/e2e/phones.py`): nothing beyond score values, at
most two interactions per game entered and one per confirmation.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.clock import ManualClock
from bot.local.emulator import InteractionResult, Output
from storage.db import Database
from tests.e2e.harness import RunningBot, running_bot
from tests.e2e.phones import Chosen, Phones, Pick, Score, Value, score_fields

NIGHT = datetime(2027, 3, 3, 18, 0, tzinfo=ZoneInfo("America/New_York"))  # a Wednesday
MACHINES = ["Attack from Mars", "Black Knight", "Cirqus Voltaire"]
LADDER_PLAYERS = ["Ann", "Ben", "Cat"]  # skill 9, 8, 7: Ann is ranked first, so Cat plays game 1 first


async def ok(league: RunningBot, line: str, member: str = "alice") -> str:
    """A commissioner's set-up line (before the night is played from the board: not counted)."""
    result = await league.run(line, as_member=member)
    assert not result.content.startswith("⛔") and "Something went wrong" not in result.text(), (line, result.text())
    return result.text()


@pytest.fixture
async def ladder(sqlite_db: Database) -> AsyncIterator[RunningBot]:
    """Three players on three games tonight, the games set by the commissioner."""
    async with running_bot(sqlite_db) as league:
        clock = league.bot.clock
        assert isinstance(clock, ManualClock)
        clock.set(NIGHT)
        league.emulator.quiet_window = 0.001
        await ok(league, '/league create name:"Jersey Ladder" format:ladder commissioner_role:@Commissioner', "owner")
        await ok(league, '/venue add name:"The Break"')
        for machine in MACHINES:
            await ok(league, f'/machine add venue:"The Break" model:"{machine}"')
            await ok(league, f'/ladder normalizer machine:"{machine}" value:20,000,000')
        await ok(league, "/ladder option name:games_per_match value:3")
        for number, name in enumerate(LADDER_PLAYERS):
            league.emulator.add_member(name)
            await ok(league, f"/ladder join skill:{9 - number}", name)
        yield league


async def board_of(league: RunningBot, title: str) -> Output:
    """The group's living board, once every change so far is published on it."""
    await league.scoreboards_published()
    boards = [o for o in league.emulator.messages_in("general") if o.embeds and o.embeds[0].get("title") == title]
    assert len(boards) == 1, [o.embeds for o in league.emulator.messages_in("general")]  # one board, edited
    return boards[0]


def button(message: Output | InteractionResult, label: str) -> str:
    """The custom id of the button whose label starts with `label`."""
    rows = message.components if isinstance(message, Output) else (message.answer.components if message.answer else [])
    found = [item["custom_id"] for row in rows for item in row["components"] if item.get("label", "").startswith(label)]
    assert len(found) == 1, (label, rows)
    return found[0]


def by_name(form: InteractionResult, scores: dict[str, Value]) -> dict[str, Value]:
    """The form's fields are labelled with the players' names: each score goes to its player's field; the
    fields not named keep what they show (left alone: nothing typed)."""
    assert form.modal is not None, form.text()
    fields = {c["label"]: c["component"] for c in score_fields(form.modal)}
    assert set(scores) <= set(fields), (scores, fields)
    return {field["custom_id"]: scores.get(name) or Chosen(field.get("value") or "") for name, field in fields.items()}


def game_key(custom_id: str) -> tuple[int, int]:
    """As `Phones` counts a press: the custom id's last two numbers (group and game, or group and machine)."""
    first, second = (int(n) for n in custom_id.split(":")[-2:])
    return first, second


async def enter(phones: Phones, board: Output, who: str, game: str, scores: dict[str, str]) -> InteractionResult:
    """Enter scores from the board: one press, one form."""
    custom_id = button(board, f"Enter {game}")
    form = await phones.press(board, custom_id, who, purpose="enter")
    values: dict[str, Value] = {name: Score(text) for name, text in scores.items()}
    return await phones.fill(form, who, by_name(form, values), purpose=("enter", *game_key(custom_id)))


async def fix(phones: Phones, echo: InteractionResult, who: str, scores: dict[str, str]) -> InteractionResult:
    """Edit under the echo, then the form pre-filled with what is stored: only the typo is typed again."""
    custom_id = button(echo, "Edit")
    form = await phones.press(echo, custom_id, who, purpose="fix")
    values: dict[str, Value] = {name: Score(text) for name, text in scores.items()}
    return await phones.fill(form, who, by_name(form, values), purpose=("fix", *game_key(custom_id)))


def assert_counted(phones: Phones, games: int, fixes: int) -> None:
    """Nothing typed beyond scores; each game entered in two interactions (press, form) and confirmed in one."""
    entering = {key[1:]: n for key, n in phones.taps.items() if key[0] == "enter"}
    confirming = {key[1:]: n for key, n in phones.taps.items() if key[0] == "confirm"}
    fixing = sum(n for key, n in phones.taps.items() if key[0] == "fix")
    print(
        f"typed beyond scores: {sum(len(t) for t in phones.typed)} characters; score characters: "
        f"{phones.score_characters}; interactions per game entered: {entering}; per confirmation: {confirming}; "
        f"the fix: {fixing}"
    )
    assert phones.typed == [] and phones.reason_characters == 0
    assert len(entering) == games and all(n <= 2 for n in entering.values()), entering
    assert set(confirming) == set(entering) and all(n == 1 for n in confirming.values()), confirming
    assert fixing == 2 * fixes  # Edit, then the pre-filled form


async def test_a_ladder_night_from_the_group_board(ladder: RunningBot) -> None:
    """DESIGN §2c with LADDER-ORDER-1/2, LADDER-SCORE-1, COMMON-SCORE-1 and COMMON-SCORE-3: the group board shows
    each game's players in play order and what awaits scores; one player enters a game in one form, another
    confirms it after one ping; a typo is fixed by its entrant before the confirmation, and is locked after."""
    phones, emulator = Phones(ladder), ladder.emulator
    await ok(ladder, "/ladder night open")
    for player in LADDER_PLAYERS:
        await phones.command(player, "/ladder checkin")
    await ok(ladder, f'/ladder games set group:1 games:"{", ".join(MACHINES)}"')
    board = await board_of(ladder, "Week 1 · group 1")
    assert "Order: Cat, Ben, Ann" in board.text() and "play Game 1 · Attack from Mars (Cat, Ben, Ann)" in board.text()
    ann, ben = emulator.member("Ann").id, emulator.member("Ben").id

    # Game 1: Cat enters everyone's score; the other two are asked to confirm, once; Ben confirms.
    scores = {"Ann": "30,000,000", "Ben": "20,000,000", "Cat": "10,000,000"}
    entered = await enter(phones, board, "Cat", "Game 1", scores)
    assert "Game 1 · Attack from Mars entered: Cat 10,000,000, Ben 20,000,000, Ann 30,000,000" in entered.content
    assert entered.answer is not None and sorted(entered.answer.pinged) == sorted([ann, ben])
    board = await board_of(ladder, "Week 1 · group 1")
    assert "awaits a confirmation" in board.text()
    assert "play Game 2 · Black Knight (Cat, Ben, Ann)" in board.text()  # ORDER-2: reverse of Ann, Ben, Cat
    asked = await ladder.run("/help", as_member="Ben")  # what can I do now? (not counted: a question)
    assert "The scores of game 1 (Attack from Mars) await your confirmation" in asked.text()
    refused = await emulator.click(entered, button(entered, "Confirm"), as_member="Cat")
    assert refused.ephemeral and "another player of your group confirms them" in refused.content
    confirmed = await phones.press(entered, button(entered, "Confirm"), "Ben", purpose="confirm")
    assert "Ben confirmed Game 1 · Attack from Mars" in confirmed.content
    assert confirmed.answer is not None and confirmed.answer.pinged == []

    # Game 2: a typo (90,000,000 for 9,000,000) fixed by its entrant, pre-filled, before Ann confirms.
    board = await board_of(ladder, "Week 1 · group 1")
    typo = {"Ann": "12,000,000", "Ben": "90,000,000", "Cat": "11,000,000"}
    entered = await enter(phones, board, "Ann", "Game 2", typo)
    refused = await emulator.click(entered, button(entered, "Edit"), as_member="Cat")
    assert refused.ephemeral and "Only whoever entered these scores" in refused.content
    fixed = await fix(phones, entered, "Ann", {"Ben": "9,000,000"})
    assert "Game 2 · Black Knight fixed: Cat 11,000,000, Ben 9,000,000, Ann 12,000,000" in fixed.content
    assert fixed.answer is not None and fixed.answer.pinged == []  # asked once, when entered
    board = await board_of(ladder, "Week 1 · group 1")
    await phones.press(board, button(board, "Confirm Game 2"), "Cat", purpose="confirm")
    locked = await emulator.click(entered, button(entered, "Undo"), as_member="Ann")
    assert locked.ephemeral and "Rule COMMON-SCORE-3" in locked.content

    # Game 3 from the board; confirmed from the board too.
    board = await board_of(ladder, "Week 1 · group 1")
    assert "play Game 3 · Cirqus Voltaire (Ben, Cat, Ann)" in board.text()
    scores = {"Ann": "5,000,000", "Ben": "6,000,000", "Cat": "7,000,000"}
    await enter(phones, board, "Ben", "Game 3", scores)
    board = await board_of(ladder, "Week 1 · group 1")
    await phones.press(board, button(board, "Confirm Game 3"), "Ann", purpose="confirm")
    board = await board_of(ladder, "Week 1 · group 1")
    assert "All games confirmed." in board.text() and board.components == []
    assert_counted(phones, games=3, fixes=1)


async def test_ladder_score_offers_the_groups_games_by_name_and_checks_them_again(ladder: RunningBot) -> None:
    """`/ladder score` stays for the keyboard: its game option offers the caller's games tonight by machine and
    state (nobody types a number they cannot see), a game not tonight is refused without a change (LADDER-GSEL-4),
    and the score lands on the group's board."""
    phones = Phones(ladder)
    await ok(ladder, "/ladder night open")
    for player in LADDER_PLAYERS:
        await phones.command(player, "/ladder checkin")
    await ok(ladder, f'/ladder games set group:1 games:"{", ".join(MACHINES)}"')
    offered = await ladder.emulator.autocomplete("/ladder score game:", focused="game", as_member="Ben")
    assert [c["name"] for c in offered] == [f"Game {n} · {m} (scores due)" for n, m in enumerate(MACHINES, start=1)]
    before = await ladder.row_counts()
    refused = await ladder.run("/ladder score game:4 score:1,000", as_member="Ben")
    assert refused.ephemeral and "Tonight has games 1 to 3" in refused.content
    assert await ladder.row_counts() == before
    await phones.command("Ben", "/ladder score", game=Pick("Black Knight"), score=Score("12,000,000"))
    assert "Ben 12,000,000" in (await board_of(ladder, "Week 1 · group 1")).text()
    assert phones.typed == []


async def test_more_games_than_a_row_of_buttons_holds_are_picked_from_a_menu(ladder: RunningBot) -> None:
    """Six games awaiting scores: the board offers them in one menu labelled by machine, and the game picked opens
    its form (one more interaction than a button, still nothing typed)."""
    extra = ["Demolition Man", "Elvira", "Funhouse"]
    for machine in extra:
        await ok(ladder, f'/machine add venue:"The Break" model:"{machine}"')
        await ok(ladder, f'/ladder normalizer machine:"{machine}" value:20,000,000')
    await ok(ladder, "/ladder option name:games_per_match value:6")
    await ok(ladder, "/ladder night open")
    for player in LADDER_PLAYERS:
        await ok(ladder, "/ladder checkin", player)
    await ok(ladder, f'/ladder games set group:1 games:"{", ".join([*MACHINES, *extra])}"')
    board = await board_of(ladder, "Week 1 · group 1")
    (menu,) = [item for row in board.components for item in row["components"]]
    assert [o["label"] for o in menu["options"]][-1] == "Enter Game 6 · Funhouse"
    form = await ladder.emulator.click(board, menu["custom_id"], as_member="Ann", values=["Enter Game 6 · Funhouse"])
    assert form.modal is not None and form.modal["title"] == "Game 6 · Funhouse scores"
    assert [c["label"] for c in score_fields(form.modal)] == ["Ann", "Ben", "Cat"]  # rank order: game 5 unplayed


async def test_a_group_boards_buttons_still_answer_after_a_restart(ladder: RunningBot) -> None:
    """The board's buttons are persistent (their custom ids carry the group and the game): after the bot
    restarts, Enter scores on the board posted before opens its form, and the scores are stored."""
    await ok(ladder, "/ladder night open")
    for player in LADDER_PLAYERS:
        await ok(ladder, "/ladder checkin", player)
    await ok(ladder, f'/ladder games set group:1 games:"{", ".join(MACHINES)}"')
    board = await board_of(ladder, "Week 1 · group 1")
    clock = ladder.bot.clock
    assert isinstance(clock, ManualClock)
    await ladder.bot.close()
    async with running_bot(ladder.db, ladder.emulator, sync=False, clock=clock) as restarted:
        form = await restarted.emulator.click(board, button(board, "Enter Game 1"), as_member="Ben")
        assert form.modal is not None, form.text()
        fields = {c["label"]: c["component"]["custom_id"] for c in score_fields(form.modal)}
        scores = {fields[name]: f"{n},000,000" for n, name in enumerate(LADDER_PLAYERS, start=1)}
        entered = await restarted.emulator.submit_modal(form, scores, as_member="Ben")
        assert "Cat 3,000,000, Ben 2,000,000, Ann 1,000,000" in entered.content


async def test_undo_takes_back_a_game_before_it_is_confirmed(ladder: RunningBot) -> None:
    """Whoever entered a game may take it back until it is confirmed; nobody else may (DESIGN §2c)."""
    await ok(ladder, "/ladder night open")
    for player in LADDER_PLAYERS:
        await ok(ladder, "/ladder checkin", player)
    await ok(ladder, f'/ladder games set group:1 games:"{", ".join(MACHINES)}"')
    board = await board_of(ladder, "Week 1 · group 1")
    form = await ladder.emulator.click(board, button(board, "Enter Game 1"), as_member="Cat")
    assert form.modal is not None
    entered = await ladder.emulator.submit_modal(
        form, {c["component"]["custom_id"]: "1,000" for c in score_fields(form.modal)}, as_member="Cat"
    )
    refused = await ladder.emulator.click(entered, button(entered, "Undo"), as_member="Ben")
    assert refused.ephemeral and "Only whoever entered these scores" in refused.content
    undone = await ladder.emulator.click(entered, button(entered, "Undo"), as_member="Cat")
    assert "Game 1 · Attack from Mars: the scores were taken back" in undone.content
    assert (await ladder.row_counts())["ladder_score"] == 0
    board = await board_of(ladder, "Week 1 · group 1")
    assert button(board, "Enter Game 1") and "awaits a confirmation" not in board.text()


FIELD_MEMBERS = ["Dee", "Eve", "Fay", "Gil"]
FIELD_MACHINES = [*MACHINES, "Demolition Man", "Elvira"]  # a meet has five (FIELD-MSEL-1); three are played here


@pytest.fixture
async def field(sqlite_db: Database) -> AsyncIterator[RunningBot]:
    """Four registered members and five machines."""
    async with running_bot(sqlite_db) as league:
        clock = league.bot.clock
        assert isinstance(clock, ManualClock)
        clock.set(datetime(2027, 6, 1, 19, 0, tzinfo=ZoneInfo("America/Indiana/Indianapolis")))
        league.emulator.quiet_window = 0.001
        created = '/league create name:"LPL" format:field timezone:America/Indiana/Indianapolis'
        await ok(league, f"{created} commissioner_role:@Commissioner", "owner")
        await ok(league, '/venue add name:"MSA"')
        for machine in FIELD_MACHINES:
            await ok(league, f'/machine add venue:"MSA" model:"{machine}"')
        for name in FIELD_MEMBERS:
            league.emulator.add_member(name)
            await ok(league, f"/player register member:@{name}")
        yield league


async def test_a_field_night_from_the_group_board(field: RunningBot) -> None:
    """DESIGN §2c with FIELD-MSEL-1/2, FIELD-GROUP-1, FIELD-SCORE-1, COMMON-SCORE-1 and COMMON-SCORE-3: the group's
    board lists tonight's machines, played in any order; one player enters the group's game on a machine in one
    form, another confirms it after one ping; a typo is fixed by its entrant before the confirmation."""
    phones, emulator = Phones(field), field.emulator
    machines = {f"m{n}": Pick(machine) for n, machine in enumerate(FIELD_MACHINES, start=1)}
    await phones.command("alice", "/field night open", **machines)
    for member in FIELD_MEMBERS:
        await phones.command(member, "/field checkin")
    await phones.command("alice", "/field groups")
    board = await board_of(field, "Week 1 · group 1")
    assert f"play {', '.join(FIELD_MACHINES)} in any order" in board.text()
    others = {emulator.member(name).id for name in ("Dee", "Eve", "Fay")}

    # Black Knight first (any order): Gil enters the group's game; the three others are asked, once.
    scores = {"Dee": "40,000", "Eve": "30,000", "Fay": "20,000", "Gil": "10,000"}
    entered = await enter(phones, board, "Gil", "Black Knight", scores)
    assert "Black Knight entered: Dee 40,000, Eve 30,000, Fay 20,000, Gil 10,000" in entered.content
    assert entered.answer is not None and set(entered.answer.pinged) == others
    refused = await emulator.click(entered, button(entered, "Confirm"), as_member="Gil")
    assert refused.ephemeral and "another player of your group confirms them" in refused.content
    await phones.press(entered, button(entered, "Confirm"), "Eve", purpose="confirm")
    locked = await emulator.click(entered, button(entered, "Edit"), as_member="Gil")
    assert locked.ephemeral and "Rule COMMON-SCORE-3" in locked.content

    # Attack from Mars: a typo (1,000,000 for 100,000) fixed by its entrant before Fay confirms from the board.
    board = await board_of(field, "Week 1 · group 1")
    typo = {"Dee": "1,000,000", "Eve": "90,000", "Fay": "80,000", "Gil": "70,000"}
    entered = await enter(phones, board, "Dee", "Attack from Mars", typo)
    fixed = await fix(phones, entered, "Dee", {"Dee": "100,000"})
    assert "Attack from Mars fixed: Dee 100,000, Eve 90,000, Fay 80,000, Gil 70,000" in fixed.content
    assert fixed.answer is not None and fixed.answer.pinged == []
    board = await board_of(field, "Week 1 · group 1")
    await phones.press(board, button(board, "Confirm Attack from Mars"), "Fay", purpose="confirm")

    # Cirqus Voltaire, entered and confirmed from the board.
    board = await board_of(field, "Week 1 · group 1")
    scores = {"Dee": "4,000", "Eve": "3,000", "Fay": "2,000", "Gil": "1,000"}
    await enter(phones, board, "Fay", "Cirqus Voltaire", scores)
    board = await board_of(field, "Week 1 · group 1")
    await phones.press(board, button(board, "Confirm Cirqus Voltaire"), "Gil", purpose="confirm")
    board = await board_of(field, "Week 1 · group 1")
    assert "play Demolition Man, Elvira in any order" in board.text() and "confirms" not in board.text()
    assert [button(board, f"Enter {machine}") for machine in ("Demolition Man", "Elvira")]
    assert_counted(phones, games=3, fixes=1)
