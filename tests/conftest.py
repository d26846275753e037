"""Fixtures shared by every test layer: databases on SQLite and PostgreSQL.

PostgreSQL cases skip with a reason when no server answers, except in CI (`CI=true`), where a missing
PostgreSQL fails the run.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
from hypothesis import HealthCheck, settings
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlmodel import SQLModel

from storage.db import Database
from storage.migrate import upgrade

PG_ADMIN_URL = os.environ.get("PINLEAGUE_TEST_PG_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
IN_CI = os.environ.get("CI", "").lower() == "true"

# Property tests check what the rules return, not how fast: a per-example deadline only fails a test whose machine
# is busy (parallel workers, a mutation run). Speed is the benchmark's business (bench/). A mutation run calls each
# test more than once in one process, with a new instance of its class each time: nothing a test relies on.
settings.register_profile("pinleague", deadline=None, suppress_health_check=[HealthCheck.differing_executors])
settings.load_profile("pinleague")

ALONE_LIST = "PINLEAGUE_TEST_ALONE_LIST"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Where `manage.py test` asks (ALONE_LIST names a file), the first worker of the parallel part writes the ids
    of the `alone` tests it collected, before `-m` deselects them: the `alone` part then runs those ids and
    collects their files only, not the whole suite again (about 6 s of imports and collection in one process)."""
    target = os.environ.get(ALONE_LIST)
    if target and os.environ.get("PYTEST_XDIST_WORKER", "gw0") == "gw0":
        alone = [item.nodeid for item in items if item.get_closest_marker("alone")]
        Path(target).write_text("".join(f"{nodeid}\n" for nodeid in alone))


# The longest tests, in seconds of a CI run (2 cores, 3 workers). Under xdist each worker's first share of the
# suite starts with some of these, spread so the shares hold about as many seconds of them: a test that began last
# on a busy worker would otherwise hold the end of the run on its own (`worksteal` moves only tests not yet begun).
# A test not listed runs where it was collected; a listed one renamed or gone is ignored.
SLOWEST = {
    "tests/robustness/test_crash.py::test_kill_9_mid_burst_loses_no_acknowledged_score": 52,
    "tests/e2e/team/test_example_season.py::test_the_example_season_plays_through_to_a_playoff_bracket": 28,
    "tests/exchange/test_cli.py::test_spreadsheets_league_file_and_backup_from_the_shell": 27,
    "tests/e2e/test_permission_matrix.py::test_permission_matrix[postgresql]": 25,
    "tests/e2e/field/test_season_example.py::test_the_field_season_plays_through_its_finals": 21,
    "tests/e2e/ladder/test_season.py::test_the_ladder_season_plays_through_to_standings_and_payouts": 20,
    "tests/e2e/test_scheduled_posts.py::test_two_bots_on_one_postgresql_database_send_each_post_once[postgresql]": 14,
    "tests/e2e/test_permission_matrix.py::test_permission_matrix[sqlite]": 13,
    "tests/storage/test_migrations.py::test_two_processes_migrating_at_once_both_succeed[postgresql]": 13,
    "tests/e2e/test_guild_isolation.py::test_two_guilds_cannot_read_or_write_each_other[postgresql]": 13,
    "tests/storage/test_migrations.py::test_two_processes_migrating_at_once_both_succeed[sqlite]": 10,
    "tests/e2e/test_guild_isolation.py::test_two_guilds_cannot_read_or_write_each_other[sqlite]": 8,
    "tests/robustness/test_two_processes.py::test_two_processes_answer_every_command_once[postgresql]": 8,
    "tests/robustness/test_sharded_processes.py::"
    "test_two_processes_with_a_shard_each_answer_and_post_for_their_own_guilds[postgresql]": 7,
    "tests/e2e/test_phone_night.py::test_a_whole_match_from_the_board_on_a_phone": 7,
    "tests/robustness/test_rate_limited_boards.py::test_twelve_boards_in_one_channel_lose_no_edit_under_rate_limits": 6,
    "tests/robustness/test_two_process_posts.py::"
    "test_two_processes_started_together_send_each_due_post_once[postgresql]": 6,
    "tests/e2e/test_local_chat_forms.py::test_phone_night_script_plays_a_whole_match_from_the_board": 5,
    "tests/e2e/test_local_cli.py::test_script_prints_one_json_object_per_bot_output": 5,
    "tests/e2e/test_startup_failures.py::test_run_without_a_token_says_which_database_the_demo_uses": 5,
}


class _SlowestFirst:
    @pytest.hookimpl(trylast=True)  # after `-m` and `-k` have deselected: the order of what will run
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
        if workers > 1:
            # A worker's own options say `--dist no`; the command line that started the run says which mode.
            argv = getattr(config, "workerinput", {}).get("mainargv", [])
            worksteal = any(arg in ("worksteal", "--dist=worksteal") for arg in argv)
            items[:] = slowest_first(items, workers, worksteal=worksteal)


def slowest_first(items: list[pytest.Item], workers: int, *, worksteal: bool) -> list[pytest.Item]:
    """The SLOWEST tests dealt, longest first, to the worker whose share has the fewest of their seconds; each
    share is then its slow tests followed by the others in collected order. `worksteal` hands out the collection
    in `workers` consecutive shares (len // workers, then what is left // workers - 1, …), so each share is laid
    out where it will start; other modes hand out tests from the front, so the shares are laid out in turn."""
    slow = sorted((item for item in items if item.nodeid in SLOWEST), key=lambda item: -SLOWEST[item.nodeid])
    if not slow:
        return items
    shares: list[list[pytest.Item]] = [[] for _ in range(workers)]
    for item in slow:
        min(shares, key=lambda share: sum(SLOWEST[i.nodeid] for i in share)).append(item)
    rest = [item for item in items if item.nodeid not in SLOWEST]
    if not worksteal:
        dealt = [share[k] for k in range(max(map(len, shares))) for share in shares if k < len(share)]
        return dealt + rest
    ordered: list[pytest.Item] = []
    left = len(items)
    for index, share in enumerate(shares):
        size = left // (workers - index)
        left -= size
        others = max(0, size - len(share))
        ordered += share + rest[:others]
        del rest[:others]
    return ordered + rest


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(_SlowestFirst(), "pinleague-slowest-first")


def _asyncpg_dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class ThrowawayPostgres:
    """Creates one PostgreSQL database for the test session on first use, migrated to head."""

    def __init__(self) -> None:
        self._admin: asyncpg.Connection | None = None
        self._url: str | None = None
        self._name = f"pinleague_test_{uuid.uuid4().hex[:12]}"

    async def url(self) -> str:
        if self._url is None:
            try:
                self._admin = await asyncpg.connect(_asyncpg_dsn(PG_ADMIN_URL), timeout=5)
            except (OSError, asyncpg.PostgresError) as exc:
                if IN_CI:
                    pytest.fail(f"PostgreSQL is required in CI but {PG_ADMIN_URL} did not answer: {exc}")
                pytest.skip(f"no PostgreSQL at {PG_ADMIN_URL} ({exc}); set PINLEAGUE_TEST_PG_URL to run these")
            await self._admin.execute(f'CREATE DATABASE "{self._name}"')
            # A commit then returns before its WAL record reaches the disk (about 1.5 ms less per commit here).
            # Nothing a test checks depends on surviving a crash of PostgreSQL itself: the crash tests kill
            # the bot, and what PostgreSQL acknowledged stays visible to every other connection.
            await self._admin.execute(f'ALTER DATABASE "{self._name}" SET synchronous_commit = off')
            url = make_url(PG_ADMIN_URL).set(database=self._name).render_as_string(hide_password=False)
            migrated = Database(url)
            await upgrade(migrated)
            await migrated.dispose()
            self._url = url
        return self._url

    async def drop(self) -> None:
        if self._admin is not None:
            await self._admin.execute(f'DROP DATABASE IF EXISTS "{self._name}" WITH (FORCE)')
            await self._admin.close()


@pytest.fixture(scope="session")
async def throwaway_postgres() -> AsyncIterator[ThrowawayPostgres]:
    server = ThrowawayPostgres()
    try:
        yield server
    finally:
        await server.drop()


@pytest.fixture(scope="session")
async def second_postgres() -> AsyncIterator[ThrowawayPostgres]:
    """Another session database, for tests that copy a league from one database into another."""
    server = ThrowawayPostgres()
    try:
        yield server
    finally:
        await server.drop()


def _emptying_script() -> str:
    """One statement that deletes every row, dependents first, and restarts every id sequence at 1. (TRUNCATE
    of the ~50 tables takes PostgreSQL about half a second, as it replaces each table's files; deleting the
    few rows a test leaves takes milliseconds.)"""
    deletes = " ".join(f'DELETE FROM "{table.name}";' for table in reversed(SQLModel.metadata.sorted_tables))
    restarts = "PERFORM setval(c.oid, 1, false) FROM pg_class c WHERE c.relkind = 'S';"
    return f"DO $$ BEGIN {deletes} {restarts} END $$"


async def empty_all(db: Database) -> None:
    async with db.engine.begin() as connection:
        await connection.execute(text(_emptying_script()))


@pytest.fixture(scope="session")
async def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to head once per session: tests get a copy, as migrating takes half a second and
    copying a millisecond (the migrations themselves are tested from empty databases in test_migrations)."""
    path = tmp_path_factory.mktemp("migrated") / "league.db"
    database = Database(f"sqlite+aiosqlite:///{path}")
    await upgrade(database)
    await database.dispose()
    assert not path.with_name(f"{path.name}-wal").exists(), "closing the last connection checkpoints the WAL"
    return path


def fresh_sqlite(migrated: Path, path: Path) -> Database:
    """A migrated, empty SQLite database at `path`, copied from the session's migrated file."""
    shutil.copyfile(migrated, path)
    return Database(f"sqlite+aiosqlite:///{path}")


@pytest.fixture(params=["sqlite", "postgresql"])
async def db(
    request: pytest.FixtureRequest, tmp_path: Path, throwaway_postgres: ThrowawayPostgres, migrated_sqlite: Path
) -> AsyncIterator[Database]:
    """A migrated, empty database: a fresh SQLite file, or the session's PostgreSQL database emptied."""
    if request.param == "sqlite":
        database = fresh_sqlite(migrated_sqlite, tmp_path / "league.db")
    else:
        database = Database(await throwaway_postgres.url())
        await empty_all(database)
    try:
        yield database
    finally:
        await database.dispose()


@pytest.fixture
async def sqlite_db(tmp_path: Path, migrated_sqlite: Path) -> AsyncIterator[Database]:
    database = fresh_sqlite(migrated_sqlite, tmp_path / "league.db")
    try:
        yield database
    finally:
        await database.dispose()
