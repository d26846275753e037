"""The bot process is killed with SIGKILL in the middle of a burst of score entries, several times: after
each kill SQLite passes its integrity check, every entry the bot acknowledged is stored as echoed, and every
entry it had not acknowledged is stored whole or not at all, never half written (checked in `crash_cycle`).
The benchmark run does the same 20 times (`python -m bench`)."""

from __future__ import annotations

import random
from pathlib import Path

from bench.bot_process import BotProcess
from bench.crash import crash_cycle
from bench.team import seed_team_league
from bot.local.emulator import Emulator
from tests.conftest import fresh_sqlite
from tests.robustness.conftest import SMALL

CYCLES = 3


async def test_kill_9_mid_burst_loses_no_acknowledged_score(tmp_path: Path, migrated_sqlite: Path) -> None:
    path = tmp_path / "league.db"
    db = fresh_sqlite(migrated_sqlite, path)  # the migrated schema, copied (migrating takes half a second)
    rng = random.Random(3)
    try:
        async with Emulator() as emulator:
            league = await seed_team_league(db, emulator, SMALL)
            emulator.quiet_window = 0.001
            bot = BotProcess(emulator, str(db.url), league.now)
            cycles = []
            for _ in range(CYCLES):
                try:
                    cycles.append(await crash_cycle(league, bot, str(path), rng))
                finally:
                    await bot.kill()
    finally:
        await db.dispose()
    assert all(cycle.integrity == "ok" for cycle in cycles), cycles
    assert all(0 < cycle.acknowledged < cycle.dispatched for cycle in cycles), f"each kill comes mid-burst: {cycles}"
