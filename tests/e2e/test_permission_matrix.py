"""COMMON-ROLE-1: every registered command × {commissioner, captain of the team concerned, captain of another
team, player, member not in the league, commissioner of another guild}, each cell's outcome asserted through the
emulator, and nothing changed in the database by a refusal.

Discord's `default_permissions` is only a hint a server's admins can change, so the emulator is told to ignore
it: what is asserted here is what the bot itself enforces. On each database (SQLite, PostgreSQL) one bot and one
seeded guild (a team league, a ladder and a field league: see tests/e2e/command_table.py for how the night
formats' players fill the team columns) serve every cell of a guild; the foreign commissioner's cells run on a
second guild's bot. The `/ladder …` and `/field …` cells run on SQLite only (their services share the storage
code the team cells exercise on both databases), to keep the matrix near a minute and a half.
"""

from __future__ import annotations

from pathlib import Path

from bot.local.emulator import Emulator
from storage.db import Database
from tests.e2e.command_table import (
    COMMANDS,
    NIGHT_FORMATS,
    ROLES,
    Seeded,
    format_of,
    leaf_commands,
    outcome,
    row_counts,
    seed,
)
from tests.e2e.harness import RunningBot, running_bot


async def run_cells(
    running: RunningBot, seeded: Seeded, leaves: dict[str, set[str]], roles: tuple[str, ...], paths: list[str]
) -> list[str]:
    """Run each command as each role; describe every cell whose outcome differs from the table."""
    wrong = []
    for path in paths:
        codes = COMMANDS[path][1]
        for role in roles:
            expected = codes[ROLES.index(role)]
            line = seeded.line(path, running, leaves[path])
            before = await row_counts(running)
            result = await running.run(line, as_member=seeded.acting(path, role))
            got = outcome(result)
            if got != expected:
                wrong.append(f"{path} × {role}: expected {expected}, got {got}: {line} → {result.content[:160]!r}")
            if got != "Y" and (not result.ephemeral or await row_counts(running) != before):
                wrong.append(f"{path} × {role}: a refusal must be private and change nothing: {line}")
    return wrong


async def test_permission_matrix(db: Database, tmp_path: Path) -> None:
    """COMMON-ROLE-1 for every command and role; a command missing from the table fails the test."""
    home = Emulator("Pinball Club")
    home.respect_default_permissions = False
    async with running_bot(db, home) as running:
        registered = running.emulator.commands["guilds"][running.emulator.guild.id]
        leaves = leaf_commands(registered)
        missing = sorted(set(leaves) - set(COMMANDS))
        assert not missing, f"add these commands to tests/e2e/command_table.py COMMANDS: {missing}"
        assert not set(COMMANDS) - set(leaves), f"no longer registered: {sorted(set(COMMANDS) - set(leaves))}"
        seeded = await seed(running, "NYC", tmp_path)
        paths = sorted(COMMANDS)
        if db.engine.dialect.name != "sqlite":  # the ladder and field cells run on SQLite only, to save time
            paths = [path for path in paths if format_of(path) not in NIGHT_FORMATS]
        wrong = await run_cells(running, seeded, leaves, ROLES[:-1], paths)

    # The commissioner of another guild's league, on that guild's bot, aims every command at this league.
    other = Emulator("Other Club", guild_seed=3)
    other.respect_default_permissions = False
    async with running_bot(db, other) as running:
        await seed(running, "Gotham", tmp_path)
        wrong += await run_cells(running, seeded, leaves, ROLES[-1:], paths)
    assert not wrong, "\n".join(wrong)
