"""The benchmark's board path (bench/board_path.py) through the real bot, on a small league of each format and
on both databases: every game awaiting scores is pressed on its living board (a button, or the board's menu of
games), its form submitted with a score in every field, and confirmed under the echo by another member. Nothing
may be refused or fail, and every score must be stored and confirmed: a benchmark that timed refusals or errors
would time the wrong thing, and a full run is too long to find that out."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime

import pytest
from sqlmodel import col, select

from bench.board_path import CONFIRM, ENTER, SUBMIT
from bench.field import FieldLeagueSize, field_workloads, seed_field_league
from bench.ladder import LadderLeagueSize, ladder_workloads, seed_ladder_league
from bench.load import TimedEmulator, Workload, measure, selected
from bench.team import TeamLeagueSize, seed_team_league
from bench.team_load import team_workloads
from bot.clock import ManualClock
from storage.db import Database
from storage.field import FieldScore
from storage.ladder import LadderGroup, LadderScore
from storage.matches import GameScore
from tests.e2e.harness import running_bot


@dataclass
class Seeded:
    now: datetime
    workloads: list[Workload]
    games: int  # awaiting scores once the boards are ready
    rows: int  # score rows once they are all entered: one per player per game
    stored: Callable[[], Awaitable[tuple[int, int]]]  # score rows tonight, and how many of them are confirmed


async def team(db: Database, emulator: TimedEmulator) -> Seeded:
    league = await seed_team_league(db, emulator, TeamLeagueSize(teams=4, players=6, weeks_played=1, past_seasons=0))
    ids = [m.match_id for m in league.tonight]

    async def stored() -> tuple[int, int]:
        async with db.reading() as session:
            rows = (await session.exec(select(GameScore).where(col(GameScore.match_id).in_(ids)))).all()
        return len(rows), sum(row.confirmed_at is not None for row in rows)

    # 2 matches tonight, 12 games each (more than a row of buttons: the board offers a menu at first), 32 scores
    return Seeded(league.now, team_workloads(league, emulator), 24, 64, stored)


async def ladder(db: Database, emulator: TimedEmulator) -> Seeded:
    league = await seed_ladder_league(db, emulator, LadderLeagueSize(players=8, weeks_played=1))

    async def stored() -> tuple[int, int]:
        groups = select(LadderGroup.id).where(LadderGroup.night_id == league.night_id)
        async with db.reading() as session:
            rows = (await session.exec(select(LadderScore).where(col(LadderScore.group_id).in_(groups)))).all()
        return len(rows), sum(row.confirmed_by is not None for row in rows)

    async with db.reading() as session:
        groups = len((await session.exec(select(LadderGroup.id).where(LadderGroup.night_id == league.night_id))).all())
    # five games a group, every player in a group
    return Seeded(league.now, ladder_workloads(league, emulator), groups * 5, 8 * 5, stored)


async def field(db: Database, emulator: TimedEmulator) -> Seeded:
    league = await seed_field_league(db, emulator, FieldLeagueSize(players=8, weeks_played=1))

    async def stored() -> tuple[int, int]:
        async with db.reading() as session:
            rows = (await session.exec(select(FieldScore).where(FieldScore.night_id == league.night_id))).all()
        return len(rows), sum(row.confirmed_by is not None for row in rows)

    # two groups of four, five machines each
    return Seeded(league.now, field_workloads(league, emulator), 2 * 5, 8 * 5, stored)


SEEDS = {"team": team, "ladder": ladder, "field": field}


@asynccontextmanager
async def timed_emulator() -> AsyncIterator[TimedEmulator]:
    emulator = TimedEmulator()
    await emulator.start()
    try:
        yield emulator
    finally:
        await emulator.stop()


@pytest.mark.parametrize("format_name", list(SEEDS))
async def test_the_benchmark_enters_and_confirms_every_game_on_boards(db: Database, format_name: str) -> None:
    async with timed_emulator() as emulator:
        seeded = await SEEDS[format_name](db, emulator)
        async with running_bot(db, emulator, clock=ManualClock(seeded.now)):
            path = selected(seeded.workloads, [CONFIRM])
            assert [w.kind for w in path] == [ENTER, SUBMIT, CONFIRM]  # --kind brings in what Confirm needs
            for workload in path:
                timed = await measure(emulator, workload.kind, await workload.calls(1_000), concurrency=4)
                assert timed.errors == [] and timed.refusals == [], (workload.kind, timed.errors, timed.refusals)
                assert timed.count == len(timed.reply) == seeded.games, (workload.kind, timed.count)
        rows, confirmed = await seeded.stored()
        assert (rows, confirmed) == (seeded.rows, seeded.rows)
