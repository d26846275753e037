"""The team format's command kinds for the benchmark, on the league `bench.team` seeds.

Each kind's `calls(n)` first puts tonight's matches in the state its commands need (scores need declared
rounds and no scores yet; confirmations need entered scores; lineups need nothing declared), so every
measured command is one a captain could legally send, and is accepted.
"""

from __future__ import annotations

import asyncio
import itertools

from bench.board_path import Board, board_workloads
from bench.load import Call, TimedEmulator, Workload
from bench.team import FIRST_DECLARER, ROUND_GAMES, TeamLeague, TonightMatch
from bot.local.emulator import InteractionResult
from bot.local.emulator.records import REPLY_KINDS
from bot.rules.team.model import Side

SINGLES_SLOTS = 4


def team_workloads(league: TeamLeague, emulator: TimedEmulator) -> list[Workload]:
    entered: list[tuple[InteractionResult, TonightMatch, int, int]] = []  # the scores the confirm kind clicks

    async def noop(n: int) -> list[Call]:
        members = itertools.cycle(league.members)
        return [_run(emulator, "/noop", next(members)) for _ in range(n)]

    async def profile(n: int) -> list[Call]:
        """A player who played this season asks for their own profile (ratings over every confirmed game)."""
        played = itertools.cycle(name for match in league.tonight for side in Side for name in match.roster[side][:4])
        return [_run(emulator, "/player profile", next(played)) for _ in range(n)]

    async def standings(n: int) -> list[Call]:
        members = itertools.cycle(league.members)
        return [_run(emulator, "/standings", next(members)) for _ in range(n)]

    async def autocomplete(n: int) -> list[Call]:
        """A captain typing the first player of a lineup: present, eligible players of their team."""
        await league.reset_tonight(rounds_declared=0)
        matches = itertools.cycle(league.tonight)

        def call(match: TonightMatch) -> Call:
            line = f"/lineup match:{match.match_id} p1:"
            return lambda: emulator.autocomplete_result(line, focused="p1", as_member=match.away_captain)

        return [call(next(matches)) for _ in range(n)]

    async def lineup(n: int) -> list[Call]:
        """Every declaration of tonight's matches, in the order the rules allow (TEAM-LINEUP-2): round by round,
        the first declarer then the other; matches in parallel."""
        await league.reset_tonight(rounds_declared=0)
        steps: list[Call] = []
        done: dict[tuple[int, int], asyncio.Event] = {}
        order = [(r, side) for r in range(1, 5) for side in (FIRST_DECLARER[r - 1], FIRST_DECLARER[r - 1].other)]
        for step, (round_index, side) in enumerate(order):
            for match in league.tonight:
                done[(match.match_id, step)] = asyncio.Event()
                steps.append(_declaration(emulator, match, round_index, side, step, done))
        return steps[:n]

    async def score(n: int) -> list[Call]:
        """The home captain enters each game of tonight's matches once."""
        await league.reset_tonight(rounds_declared=4)
        entered.clear()
        calls = []
        for match in league.tonight:
            for round_index, games in enumerate(ROUND_GAMES, start=1):
                for game, players in enumerate(games, start=1):
                    calls.append(_score(emulator, match, round_index, game, len(players), entered))
        return calls[:n]

    async def confirm(n: int) -> list[Call]:
        """The away captain presses Confirm under each score the score kind entered."""
        return [_confirm(emulator, *entry) for entry in entered[:n]]

    matches = len(league.tonight)
    games = matches * sum(len(g) for g in ROUND_GAMES)
    return [
        Workload("no-op (/noop)", noop),
        Workload("/standings", standings),
        Workload("/player profile", profile, note="rating, machines and trend of a member who played every week"),
        Workload("autocomplete (/lineup p1)", autocomplete),
        Workload(
            "/lineup", lineup, max_concurrency=matches, limit=matches * 8,
            note=f"{matches} at once at most: within a match, declarations follow each other by rule (TEAM-LINEUP-2)",
        ),
        Workload("/score", score, limit=games, note=f"each of tonight's {games} games entered once"),
        Workload(
            "Confirm button", confirm, limit=games, needs=("/score",),
            note="the opposing captain confirms each entered game",
        ),
        *board_workloads(
            emulator, lambda: _boards(league, emulator),
            who="the home captain enters, the away captain confirms",
        ),
    ]  # fmt: skip


async def _boards(league: TeamLeague, emulator: TimedEmulator) -> list[Board]:
    """Tonight's matches with three rounds declared and no scores; then round 4 declared through the bot (HOME
    first, TEAM-LINEUP-2), which posts or edits each match's living board with all its games awaiting scores."""
    await league.reset_tonight(rounds_declared=3)
    last = len(ROUND_GAMES)

    async def declare(match: TonightMatch) -> None:
        for side in (FIRST_DECLARER[last - 1], FIRST_DECLARER[last - 1].other):
            result = await emulator.run(_lineup_line(match, last, side), as_member=match.captain(side), timeout=30)
            answer = await emulator.answer_of(result)  # the other side may declare only after this one did
            if answer.startswith("⛔"):
                raise RuntimeError(f"round {last} lineup refused: {answer}")

    await asyncio.gather(*(declare(match) for match in league.tonight))
    games = sum(len(g) for g in ROUND_GAMES)
    return [
        Board(
            enter=f"score:enter:{m.match_id}:", menu=f"board:enter:{m.match_id}",
            confirm=f"score:confirm:{m.match_id}:", games=games,
            entering=[m.home_captain], confirming=[m.away_captain],
        )
        for m in league.tonight
    ]  # fmt: skip


def _run(emulator: TimedEmulator, line: str, member: str) -> Call:
    return lambda: emulator.run(line, as_member=member, timeout=30)


def _declaration(
    emulator: TimedEmulator,
    match: TonightMatch,
    round_index: int,
    side: Side,
    step: int,
    done: dict[tuple[int, int], asyncio.Event],
) -> Call:
    line = _lineup_line(match, round_index, side)

    async def call() -> InteractionResult:
        if step > 0:
            await done[(match.match_id, step - 1)].wait()
        try:
            return await emulator.run(line, as_member=match.captain(side), timeout=30)
        finally:
            done[(match.match_id, step)].set()

    return call


def _lineup_line(match: TonightMatch, round_index: int, side: Side) -> str:
    players = [match.players[side][i] for game in ROUND_GAMES[round_index - 1] for i in game]
    options = [f"p{slot}:{player}" for slot, player in enumerate(players, start=1)]
    if side is FIRST_DECLARER[round_index - 1]:
        count = len(ROUND_GAMES[round_index - 1])
        options += [f"m{g}:{match.machines[(g + round_index) % len(match.machines)]}" for g in range(1, count + 1)]
    return f"/lineup match:{match.match_id} " + " ".join(options)


def _confirm(
    emulator: TimedEmulator, entry: InteractionResult, match: TonightMatch, round_index: int, game: int
) -> Call:
    record = emulator.interactions[entry.interaction_id]
    reply = next(o for o in record.outputs if o.kind in REPLY_KINDS)  # the echo with the buttons
    custom_id = f"score:confirm:{match.match_id}:{round_index}:{game}"
    return lambda: emulator.click(reply, custom_id, as_member=match.away_captain, timeout=30)


def _score(
    emulator: TimedEmulator,
    match: TonightMatch,
    round_index: int,
    game: int,
    players: int,
    entered: list[tuple[InteractionResult, TonightMatch, int, int]],
) -> Call:
    names = ["home1", "away1", "home2", "away2"][: 2 * players]
    values = [f"{(round_index * 10 + game) * 1_000_000 + n * 1_000:,}" for n in range(len(names))]
    line = f"/score match:{match.match_id} round:{round_index} game:{game} " + " ".join(
        f"{name}:{value}" for name, value in zip(names, values, strict=True)
    )

    async def call() -> InteractionResult:
        result = await emulator.run(line, as_member=match.home_captain, timeout=30)
        entered.append((result, match, round_index, game))
        return result

    return call
