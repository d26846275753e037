"""The board path, for every format with living boards: a member presses a game's **Enter scores** on the board
(or picks the game from the board's menu, when more games await than a row of buttons holds), the bot answers
with the score form (a modal), the member submits it with the scores, and the member who must confirm presses
**Confirm** under the echo that pinged them. Each step is a command kind of its own, timed like the others:

- `board: Enter scores → form`: the press, answered by the modal (its acknowledgement is the reply);
- `board: form → echo`: the modal submitted, answered by the echo of the stored scores;
- `board: Confirm`: the confirming member's press under that echo.

A format says where its boards are and who acts on them (`Board`); `board_workloads` does the rest. The
modal is filled and submitted through the emulator as Discord's client would: every text field of the form
the bot sent (fields in Label components), each with a score; the emulator checks the modal's limits when the
bot sends it and the fields' lengths and required flags when it is submitted."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from bench.load import Call, TimedEmulator, Workload
from bot.local.emulator import EmulatorError, InteractionResult
from bot.local.emulator.components import ComponentType, walk
from bot.local.emulator.records import REPLY_KINDS

ENTER = "board: Enter scores → form"
SUBMIT = "board: form → echo"
CONFIRM = "board: Confirm"
READY_WITHIN = 30.0  # seconds for the boards to show every game awaiting scores after the preparation


@dataclass(frozen=True)
class Board:
    """One living board as the benchmark finds it: its games' Enter buttons (or menu) and, under each game's
    echo, its Confirm button; who enters and who confirms, in turn game by game."""

    enter: str  # the Enter buttons' custom id up to the game ("score:enter:15:"; the game: "2:3")
    menu: str  # the board's menu of games to enter, whose option values are the games ("board:enter:15")
    confirm: str  # the Confirm button's custom id up to the game, under the echo
    games: int  # how many games await scores once the board is ready
    entering: Sequence[str]  # who presses Enter and fills the form, in turn per game
    confirming: Sequence[str]  # who confirms, in turn per game: never the member who entered it


@dataclass(frozen=True)
class BoardGame:
    board: Board
    message_id: int  # the living board's message
    game: str  # the custom ids' tail naming the game
    enterer: str
    confirmer: str
    first_score: int  # the form's fields take first_score, first_score + 1,000, … (distinct everywhere)


def board_workloads(
    emulator: TimedEmulator, prepare: Callable[[], Awaitable[list[Board]]], *, who: str
) -> list[Workload]:
    """The path's three kinds. `prepare` puts tonight where every game awaits scores and has the bot post or
    edit the boards (unmeasured); each kind then takes as many games as the boards offer, at most the samples
    asked for. `who` says who acts, for the report."""
    opened: list[tuple[InteractionResult, BoardGame]] = []
    echoed: list[tuple[InteractionResult, BoardGame]] = []

    async def enter(n: int) -> list[Call]:
        ready = await ready_games(emulator, await prepare())
        opened.clear()
        echoed.clear()
        return [_press(emulator, game, opened) for game in ready[:n]]

    async def submit(n: int) -> list[Call]:
        return [_submit(emulator, form, game, echoed) for form, game in list(opened)[:n]]

    async def confirm(n: int) -> list[Call]:
        return [_confirm(emulator, echo, game) for echo, game in list(echoed)[:n]]

    return [
        Workload(ENTER, enter, note=f"each game awaiting scores tonight, from its board: {who}"),
        Workload(SUBMIT, submit, needs=(ENTER,), note="the form the press opened, a score in every field"),
        Workload(CONFIRM, confirm, needs=(SUBMIT,), note="under the echo that pinged the confirmer"),
    ]


async def ready_games(emulator: TimedEmulator, boards: Sequence[Board]) -> list[BoardGame]:
    """Every board's games awaiting scores, once the bot has published each board with all of them; game by game
    across the boards (the first game of every board, then the second…), as a night's groups play in parallel."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + READY_WITHIN
    while True:
        found = _boards_now(emulator, boards)
        short = [b for b in boards if len(found.get(b.enter, (0, []))[1]) != b.games]
        if not short:
            break
        if loop.time() > give_up:
            seen = {b.enter: found.get(b.enter, (0, []))[1] for b in short[:3]}
            raise RuntimeError(f"{len(short)} boards never showed every game awaiting scores: {seen}")
        await asyncio.sleep(0.05)
    offered = [(index, board, game) for index, board in enumerate(boards) for game in found[board.enter][1]]
    turns = sorted(
        ((found[board.enter][1].index(game), index, board, game) for index, board, game in offered),
        key=lambda t: (t[0], t[1]),
    )
    return [
        BoardGame(
            board,
            found[board.enter][0],
            game,
            board.entering[turn % len(board.entering)],
            board.confirming[turn % len(board.confirming)],
            first_score=1_000_000 + 10_000 * k,
        )
        for k, (turn, _, board, game) in enumerate(turns)
    ]


def _boards_now(emulator: TimedEmulator, boards: Sequence[Board]) -> dict[str, tuple[int, list[str]]]:
    """Per board (by its Enter prefix): the newest message carrying its Enter buttons or menu, and the games they
    offer."""
    menus = {b.menu: b.enter for b in boards}
    prefixes = {b.enter for b in boards}
    found: dict[str, tuple[int, list[str]]] = {}
    for message in emulator.messages.in_channel(emulator.channel("general").id):
        offered: dict[str, list[str]] = {}
        for component in walk(message.components):
            custom_id = str(component.get("custom_id") or "")
            if "enter" not in custom_id:  # echoes carry Confirm, Edit and Undo only
                continue
            if custom_id in menus:
                offered.setdefault(menus[custom_id], []).extend(str(o["value"]) for o in component["options"])
                continue
            # The game is the custom id's last number (a group's game, a machine) or two (a round's game).
            for prefix in (custom_id.rsplit(":", parts)[0] + ":" for parts in (1, 2)):
                if prefix in prefixes:
                    offered.setdefault(prefix, []).append(custom_id[len(prefix) :])
                    break
        for enter, games in offered.items():
            found[enter] = (message.id, games)
    return found


def _press(emulator: TimedEmulator, game: BoardGame, opened: list[tuple[InteractionResult, BoardGame]]) -> Call:
    """The game's Enter button where the board shows one, else the board's menu with the game picked."""
    button = game.board.enter + game.game

    async def call() -> InteractionResult:
        components = emulator.messages.get(game.message_id).components
        if any(c.get("custom_id") == button for c in walk(components)):
            result = await emulator.click(game.message_id, button, as_member=game.enterer, timeout=30)
        else:
            result = await emulator.click(
                game.message_id, game.board.menu, values=[game.game], as_member=game.enterer, timeout=30
            )
        opened.append((result, game))
        return result

    return call


def _submit(
    emulator: TimedEmulator,
    form: InteractionResult,
    game: BoardGame,
    echoed: list[tuple[InteractionResult, BoardGame]],
) -> Call:
    async def call() -> InteractionResult:
        if form.modal is None:
            raise EmulatorError(f"Enter scores answered without a form: {form.text()[:200]}")
        fields = [c["custom_id"] for c in walk(form.modal["components"]) if c["type"] == ComponentType.TEXT_INPUT]
        values = {key: f"{game.first_score + 1_000 * seat:,}" for seat, key in enumerate(fields)}
        result = await emulator.submit_modal(form, values, as_member=game.enterer, timeout=30)
        echoed.append((result, game))
        return result

    return call


def _confirm(emulator: TimedEmulator, echo: InteractionResult, game: BoardGame) -> Call:
    custom_id = game.board.confirm + game.game
    record = emulator.interactions[echo.interaction_id]
    carrying = (o for o in record.outputs if o.kind in REPLY_KINDS and _has(o.components, custom_id))
    reply = next(carrying, None)

    async def call() -> InteractionResult:
        if reply is None:
            raise EmulatorError(f"no {custom_id!r} under the echo: {echo.text()[:200]}")
        return await emulator.click(reply, custom_id, as_member=game.confirmer, timeout=30)

    return call


def _has(components: Sequence[dict[str, object]], custom_id: str) -> bool:
    return any(c.get("custom_id") == custom_id for c in walk(components))


def rotated(names: Sequence[str]) -> list[str]:
    """The same members, each moved one on: the confirmer of each game is another member than its entrant."""
    return list(itertools.islice(itertools.cycle(names), 1, len(names) + 1))
