"""Two guilds on one database, each with a team, a ladder and a field league: every read and write command, aimed
by one guild's server admin at the other guild's league of its format (its name, match, team, machines, players),
is refused and changes nothing there; lists and autocomplete in one guild never show the other's leagues
(COMMON-ROLE-1, multi-tenancy)."""

from __future__ import annotations

import functools
from datetime import datetime, time
from pathlib import Path

from sqlalchemy import Table, TextClause, text

from bot.clock import ManualClock
from bot.local.emulator import Emulator
from storage.db import Database
from tests.e2e.command_table import COMMANDS, MATCH_DAY, NEW_YORK, Seeded, leaf_commands, outcome, row_counts, seed
from tests.e2e.harness import RunningBot, league_tables, running_bot

CREATES_IN_OWN_GUILD = {"league create"}  # names no league: it acts in the caller's own guild


def league_rows(table: Table) -> str | None:
    """A condition selecting `table`'s rows of the league `:name`, through its own `league_id` or the foreign keys
    up to a table that has one (a match's scores, a night's groups, a group's picks…); None if it has no league."""
    if "league_id" in table.columns:
        return "league_id = (SELECT id FROM league WHERE name = :name)"
    for key in sorted(table.foreign_keys, key=lambda key: key.parent.name):
        parent = key.column.table
        if parent is not table and (condition := league_rows(parent)) is not None:
            return f'{key.parent.name} IN (SELECT {key.column.name} FROM "{parent.name}" WHERE {condition})'
    return None


@functools.cache
def fingerprint_query() -> TextClause:
    """Everything stored for the league `:name`: its row, and the count of its rows in every table that belongs to
    it directly or through other tables (built once: walking the foreign keys of every table takes a while)."""
    roles = "CAST(commissioner_role_id AS TEXT) || CAST(extra_commissioner_role_ids AS TEXT)"
    parts = [f"(SELECT name || {roles} FROM league WHERE name = :name)"]
    for table in league_tables():
        if table.name != "league" and (condition := league_rows(table)) is not None:
            parts.append(f'(SELECT count(*) FROM "{table.name}" WHERE {condition})')
    return text(f"SELECT {', '.join(parts)}")


async def league_fingerprints(running: RunningBot, league_names: tuple[str, ...]) -> list[tuple[object, ...]]:
    async with running.db.engine.connect() as connection:
        return [tuple((await connection.execute(fingerprint_query(), {"name": name})).one()) for name in league_names]


async def aim_everything_at(running: RunningBot, target: Seeded, leaves: dict[str, set[str]]) -> list[str]:
    """As this guild's owner (a server admin), run every command against the other guild's league."""
    wrong = []
    names = (target.league, target.ladder.league, target.field_league.league)
    untouched = await league_fingerprints(running, names)
    for path in sorted(COMMANDS):
        line = target.line(path, running, leaves[path])
        before = await row_counts(running)
        result = await running.run(line, as_member="owner")
        got = outcome(result)
        if got == "Y" and path not in CREATES_IN_OWN_GUILD:
            wrong.append(f"{path}: reached the other guild's league: {line} → {result.text()[:160]!r}")
        if got != "Y" and await row_counts(running) != before:
            wrong.append(f"{path}: refused but changed the database: {line}")
        now = await league_fingerprints(running, names)
        if now != untouched:
            wrong.append(f"{path}: changed the other guild's league: {line}")
            untouched = now
    return wrong


async def test_two_guilds_cannot_read_or_write_each_other(db: Database, tmp_path: Path) -> None:
    """COMMON-ROLE-1: a guild can never see or touch another guild's data, whoever asks, through any command."""
    first, second = Emulator("Pinball Club"), Emulator("Other Club", guild_seed=3)
    assert first.guild.id != second.guild.id
    for emulator in (first, second):
        emulator.respect_default_permissions = False
        await emulator.start()
    try:
        async with running_bot(db, first) as running:
            nyc = await seed(running, "NYC", tmp_path)
            leaves = leaf_commands(running.emulator.commands["guilds"][running.emulator.guild.id])
        async with running_bot(db, second) as running:
            gotham = await seed(running, "Gotham", tmp_path)
            wrong = await aim_everything_at(running, nyc, leaves)
            offered = await running.emulator.autocomplete("/standings league:", as_member="owner")
            assert "Gotham" in [c["name"] for c in offered] and "NYC" not in [c["name"] for c in offered]
            offered = await running.emulator.autocomplete('/match show league:"Gotham" match:', focused="match")
            assert [choice["value"] for choice in offered] == [gotham.match]
        async with running_bot(db, first) as running:
            clock = running.bot.clock
            assert isinstance(clock, ManualClock)
            clock.set(datetime.combine(MATCH_DAY, time(19, 50), tzinfo=NEW_YORK))
            wrong += await aim_everything_at(running, gotham, leaves)
            shown = await running.run("/league show", as_member="carol")
            assert "NYC" in shown.text() and "Gotham" not in shown.text()
    finally:
        for emulator in (first, second):
            await emulator.stop()
    assert not wrong, "\n".join(wrong)
