"""The migrations build exactly the schema the models describe, and `storage.migrate` applies them safely.

`empty_db` is a database nobody has migrated (a new SQLite file or a new PostgreSQL database);
`db` is one the session fixtures already migrated to head.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, inspect
from sqlalchemy.exc import IntegrityError
from sqlmodel import SQLModel

import storage.migrate
from storage.db import Database
from storage.migrate import current_revision, upgrade, write_revision
from storage.models import League, Venue
from tests.storage import helpers as make
from tests.storage.helpers import count, insert

MODEL_TABLES = {table.name for table in SQLModel.metadata.sorted_tables}


def head_revision() -> str:
    config = Config()
    config.set_main_option("script_location", str(storage.migrate.MIGRATIONS))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


async def schema_differences(db: Database) -> list[Any]:
    """What Alembic's autogenerate would still have to do to turn the database into the models."""

    def compare(sync: Connection) -> list[Any]:
        context = MigrationContext.configure(sync, opts={"compare_type": True, "compare_server_default": True})
        return list(compare_metadata(context, SQLModel.metadata))

    async with db.connect() as connection:
        return await connection.run_sync(compare)


async def table_names(db: Database) -> set[str]:
    async with db.connect() as connection:
        return set(await connection.run_sync(lambda sync: inspect(sync).get_table_names()))


async def downgrade(db: Database, revision: str) -> None:
    """`storage.migrate` has no downgrade; run Alembic's on a connection the way it runs upgrades."""

    def run(sync: Connection) -> None:
        config = Config()
        config.set_main_option("script_location", str(storage.migrate.MIGRATIONS))
        config.attributes["connection"] = sync
        command.downgrade(config, revision)

    async with db.connect() as connection:
        await connection.run_sync(run)
        await connection.commit()


# --- the schema ---------------------------------------------------------------------------------------


async def test_migrating_an_empty_database_yields_exactly_the_models(empty_db: Database) -> None:
    await upgrade(empty_db)

    assert await schema_differences(empty_db) == []
    assert await table_names(empty_db) == MODEL_TABLES | {"alembic_version"}


async def test_session_database_is_at_head_and_matches_the_models(db: Database) -> None:
    assert await current_revision(db) == head_revision()
    assert await schema_differences(db) == []


async def test_constraint_names_in_the_database_follow_the_naming_convention(db: Database) -> None:
    """Named constraints are what later (batch) migrations drop and recreate by name."""

    def reflect(sync: Connection) -> dict[str, tuple[set[str | None], set[str | None]]]:
        inspector = inspect(sync)
        return {
            table: (
                {uq["name"] for uq in inspector.get_unique_constraints(table)},
                {fk["name"] for fk in inspector.get_foreign_keys(table)},
            )
            for table in MODEL_TABLES
        }

    async with db.connect() as connection:
        reflected = await connection.run_sync(reflect)

    for table in SQLModel.metadata.sorted_tables:
        unique_names = {c.name for c in table.constraints if c.__class__.__name__ == "UniqueConstraint"}
        fk_names = {fk.name for fk in table.foreign_key_constraints}
        assert reflected[table.name] == (unique_names, fk_names), table.name
    assert "uq_player_league_id_ifpa_number" in reflected["player"][0]
    assert "fk_machine_venue_id_venue" in reflected["machine"][1]


async def test_upgrading_again_is_a_no_op_and_keeps_the_data(db: Database) -> None:
    stored = await insert(db, make.league())

    await upgrade(db)
    await upgrade(db)

    assert await current_revision(db) == head_revision()
    assert await schema_differences(db) == []
    assert await count(db, League) == 1
    async with db.reading() as session:
        assert (await session.get(League, stored.id)) is not None


# --- revisions ---------------------------------------------------------------------------------------


async def test_current_revision_is_none_before_migrating(empty_db: Database) -> None:
    assert await current_revision(empty_db) is None


async def test_current_revision_reports_head_after_migrating(empty_db: Database) -> None:
    await upgrade(empty_db)

    assert await current_revision(empty_db) == head_revision()


async def test_downgrade_to_base_then_upgrade_again_rebuilds_the_schema(empty_db: Database) -> None:
    await upgrade(empty_db)
    await insert(empty_db, make.league())

    await downgrade(empty_db, "base")

    assert await current_revision(empty_db) is None
    assert await table_names(empty_db) <= {"alembic_version"}

    await upgrade(empty_db)

    assert await current_revision(empty_db) == head_revision()
    assert await schema_differences(empty_db) == []
    assert await count(empty_db, League) == 0
    lg = await insert(empty_db, make.league())
    await insert(empty_db, make.venue(lg.id))
    assert await count(empty_db, Venue) == 1


async def test_migrating_leaves_the_applications_logging_alone(empty_db: Database) -> None:
    """`logging.config.fileConfig` (Alembic's template default) would disable existing loggers."""
    app_logger = logging.getLogger("pinleague.test_migrations")
    root_handlers = list(logging.getLogger().handlers)
    root_level = logging.getLogger().level

    await upgrade(empty_db)

    assert app_logger.disabled is False
    assert logging.getLogger().handlers == root_handlers
    assert logging.getLogger().level == root_level


# --- migrations written later -----------------------------------------------------------------------


@pytest.fixture
def scratch_migrations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private copy of the migrations that `storage.migrate` uses instead of the real ones."""
    copy = tmp_path / "migrations"
    shutil.copytree(storage.migrate.MIGRATIONS, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(storage.migrate, "MIGRATIONS", copy)
    yield copy


async def test_autogenerated_revision_is_runnable_and_restores_the_models(
    scratch_migrations: Path, tmp_path: Path
) -> None:
    """`write_revision` renders our column types (UTCDateTime, AutoString) as importable code."""
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'authoring.db'}")
    try:
        await upgrade(db)
        async with db.connect() as connection:
            await connection.exec_driver_sql("DROP TABLE audit_entry")
            await connection.commit()

        existing = set((scratch_migrations / "versions").glob("*.py"))
        await write_revision(db, "bring back the audit log")

        (written,) = set((scratch_migrations / "versions").glob("*.py")) - existing
        source = written.read_text()
        assert "create_table('audit_entry'" in source or 'create_table("audit_entry"' in source
        assert "UTCDateTime" not in source
        assert "sqlmodel" not in source  # AutoString is rendered as sa.String: no model-library imports
        assert "sa.DateTime(timezone=True)" in source

        await upgrade(db)

        assert await schema_differences(db) == []
        assert (
            await current_revision(db)
            == ScriptDirectory.from_config(_config_for(scratch_migrations)).get_current_head()
        )
        await insert(db, make.audit())
    finally:
        await db.dispose()


def _config_for(location: Path) -> Config:
    config = Config()
    config.set_main_option("script_location", str(location))
    return config


REBUILD_LEAGUE = '''
"""rebuild the league table, as a batch migration on SQLite does for most ALTERs"""

from alembic import op

revision = "9001"
down_revision = "{down}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("league", recreate="always"):
        pass


def downgrade() -> None:
    pass
'''


async def test_sqlite_table_rebuild_migration_keeps_child_rows(scratch_migrations: Path, tmp_path: Path) -> None:
    """Foreign keys must be off while a batch migration drops and recreates a parent table."""
    previous_head = head_revision()
    (scratch_migrations / "versions" / "9001_rebuild_league.py").write_text(REBUILD_LEAGUE.format(down=previous_head))
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'rebuild.db'}")
    try:
        await upgrade(db, previous_head)
        lg = await insert(db, make.league())
        await insert(db, make.venue(lg.id))
        await insert(db, make.player(lg.id))

        await upgrade(db)

        assert await current_revision(db) == "9001"
        assert await count(db, League) == 1
        assert await count(db, Venue) == 1, "the rebuild deleted the league's venues"
    finally:
        await db.dispose()


FAILING_MIGRATION = '''
"""create a table, then fail half-way"""

import sqlalchemy as sa
from alembic import op

revision = "9002"
down_revision = "{down}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("half_done", sa.Column("id", sa.Integer(), primary_key=True))
    raise RuntimeError("migration 9002 failed half-way")


def downgrade() -> None:
    pass
'''


async def test_failing_migration_rolls_back_and_leaves_the_database_usable(
    empty_db: Database, scratch_migrations: Path
) -> None:
    previous_head = head_revision()
    (scratch_migrations / "versions" / "9002_fails.py").write_text(FAILING_MIGRATION.format(down=previous_head))
    await upgrade(empty_db, previous_head)

    with pytest.raises(RuntimeError, match="failed half-way"):
        await upgrade(empty_db)

    assert await current_revision(empty_db) == previous_head
    assert "half_done" not in await table_names(empty_db)
    # Foreign keys are back on for the connection the failed migration used (SQLite switches them off).
    lg = await insert(empty_db, make.league())
    with pytest.raises(IntegrityError):
        await insert(empty_db, make.machine(lg.id, venue_id=999_999))


# --- several processes ---------------------------------------------------------------------------------

REPO_ROOT = Path(storage.migrate.__file__).resolve().parent.parent

MIGRATING_PROCESS = """
import asyncio, sys
from storage.db import Database
from storage.migrate import current_revision, upgrade

async def main() -> None:
    db = Database(sys.argv[1])
    print("ready", flush=True)
    sys.stdin.readline()
    try:
        await upgrade(db)
        print("migrated", await current_revision(db), flush=True)
    finally:
        await db.dispose()

asyncio.run(main())
"""


async def test_two_processes_migrating_at_once_both_succeed(empty_db: Database) -> None:
    """The bot and a CLI command (or two bot processes after a deploy) start together on an old schema."""
    async with empty_db.connect() as connection:  # the SQLite file exists (WAL) before they start
        await connection.exec_driver_sql("SELECT 1")
    url = empty_db.url.render_as_string(hide_password=False)

    processes = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            MIGRATING_PROCESS,
            url,
            cwd=REPO_ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for _ in range(2)
    ]
    try:
        async with asyncio.timeout(30):
            for process in processes:
                assert process.stdout is not None
                assert (await process.stdout.readline()).strip() == b"ready"
            for process in processes:  # both start migrating within a millisecond or so
                assert process.stdin is not None
                process.stdin.write(b"go\n")
                await process.stdin.drain()
            outcomes = [await process.communicate() for process in processes]
    finally:
        for process in processes:
            if process.returncode is None:
                process.kill()
                await process.wait()

    errors = [_last_error_line(stderr.decode()) for _, stderr in outcomes if stderr.strip()]
    assert errors == []
    assert [stdout.strip() for stdout, _ in outcomes] == [f"migrated {head_revision()}".encode()] * 2
    assert await current_revision(empty_db) == head_revision()


def _last_error_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    return next((line for line in reversed(lines) if "Error" in line), lines[-1])
