"""kill -9 the bot in the middle of a burst of score entries, then check the database (shared by the CI test
and the benchmark run, which differ only in how many times)."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from dataclasses import dataclass

from sqlmodel import col, select

from bench.bot_process import BotProcess
from bench.team import ROUND_GAMES, TeamLeague
from bot.local.emulator import Emulator, InteractionResult
from bot.local.emulator.records import REPLY_KINDS
from storage.matches import GameScore

BURST = 24  # score entries dispatched at once, each for a different game


@dataclass
class CrashCycle:
    dispatched: int
    acknowledged: int  # answered with the echo of the saved scores before the kill
    integrity: str


async def crash_cycle(league: TeamLeague, bot: BotProcess, sqlite_path: str, rng: random.Random) -> CrashCycle:
    """One burst, killed part-way; then PRAGMA integrity_check, every acknowledged entry looked up, and every
    game's stored scores are one whole entry of the burst."""
    await league.reset_tonight(rounds_declared=4)
    await bot.start()
    games = [
        (match, r, g, len(players))
        for match in league.tonight
        for r, games in enumerate(ROUND_GAMES, start=1)
        for g, players in enumerate(games, start=1)
    ]
    chosen = rng.sample(games, min(BURST, len(games)))
    lines = []
    for match, r, g, players in chosen:
        values = [rng.randrange(10_000, 90_000_000) for _ in range(2 * players)]
        names = ["home1", "away1", "home2", "away2"][: 2 * players]
        options = " ".join(f"{name}:{value}" for name, value in zip(names, values, strict=True))
        lines.append((f"/score match:{match.match_id} round:{r} game:{g} {options}", match, r, g, values))
    emulator = league.emulator
    runs = [
        asyncio.ensure_future(emulator.run(line, as_member=match.home_captain, timeout=5)) for line, match, *_ in lines
    ]
    await _part_way(emulator, already=len(emulator.outputs), answers=len(lines) // 3)
    await asyncio.sleep(rng.uniform(0, 0.05))
    await bot.kill()
    # A dead bot answers nothing more: what it sent before dying settles within a moment, and waiting out the
    # entries' 5 s timeouts would only idle. A cancelled entry counts as unacknowledged, like a timed-out one.
    _, unanswered = await asyncio.wait(runs, timeout=0.5)
    for run in unanswered:
        run.cancel()
    outcomes = await asyncio.gather(*runs, return_exceptions=True)

    integrity = _integrity(sqlite_path)
    acknowledged = []
    for (_, match, r, g, values), outcome in zip(lines, outcomes, strict=True):
        if isinstance(outcome, InteractionResult) and any(
            o.kind in REPLY_KINDS and o.content.startswith("📝") for o in outcome.outputs
        ):
            acknowledged.append((match.match_id, r, g, values))
    async with league.db.reading() as session:
        ids = [m.match_id for m in league.tonight]
        stored = (await session.exec(select(GameScore).where(col(GameScore.match_id).in_(ids)))).all()
    by_game: dict[tuple[int, int, int], list[int]] = {}
    for row in sorted(stored, key=lambda row: (row.side.value != "home", row.id or 0)):
        by_game.setdefault((row.match_id, row.round_index, row.game_number), []).append(row.score)
    for match_id, r, g, values in acknowledged:
        assert by_game.get((match_id, r, g)) == _as_stored(values), f"acknowledged entry lost: match {match_id} {r}/{g}"
    # An entry the kill cut short was saved whole or not at all: never some of its scores, never other values.
    sent = {(match.match_id, r, g): _as_stored(values) for _, match, r, g, values in lines}
    for game, scores in by_game.items():
        assert scores == sent.get(game), (
            f"half-written or stray entry after the kill: match {game[0]} {game[1]}/{game[2]}"
        )
    return CrashCycle(len(lines), len(acknowledged), integrity)


def _as_stored(values: list[int]) -> list[int]:
    """The typed values (home1, away1, home2, away2) in the order the check reads them: home first, then away."""
    return [*values[0::2], *values[1::2]]


async def _part_way(emulator: Emulator, *, already: int, answers: int, within: float = 10.0) -> None:
    """Until `answers` entries of the burst have been acknowledged (so the kill lands mid-burst)."""
    for _ in range(int(within / 0.005)):
        echoed = [o for o in emulator.outputs[already:] if o.kind in REPLY_KINDS and "📝" in o.content]
        if len(echoed) >= answers:
            return
        await asyncio.sleep(0.005)


def _integrity(path: str) -> str:
    with sqlite3.connect(path) as connection:
        return str(connection.execute("PRAGMA integrity_check").fetchone()[0])
