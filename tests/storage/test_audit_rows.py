"""Audit entries are written in one statement per batch, and a transaction still reads the ones it recorded;
a rolled-back transaction leaves none, and a read-only block refuses to record one. SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import event, func
from sqlmodel import col, select

from bot.services import audit
from bot.services.actor import Actor
from storage import audit_rows
from storage.db import Database, WriteInReadingBlock
from storage.models import AuditEntry, League
from tests.storage import helpers as make

ACTOR = Actor(5, 111, "Alice", frozenset(), False, "/test")
AT = datetime(2026, 3, 4, 20, 15, tzinfo=UTC)


async def _entries(db: Database) -> list[AuditEntry]:
    async with db.reading() as session:
        return list((await session.exec(select(AuditEntry).order_by(col(AuditEntry.id)))).all())


async def test_entries_of_one_transaction_go_out_in_one_statement_in_their_order(db: Database) -> None:
    league = await make.insert(db, make.league())
    inserts: list[bool] = []

    def seen(_conn: object, _cursor: object, statement: str, _params: object, _context: object, many: bool) -> None:
        if statement.startswith("INSERT INTO audit_entry"):
            inserts.append(many)

    event.listen(db.engine.sync_engine, "before_cursor_execute", seen)
    try:
        async with db.writing() as session:
            row = await session.get(League, league.id)
            assert row is not None
            for n in range(3):
                audit.noted(session, ACTOR, row, action=f"step {n}", detail={"n": n}, at=AT)
    finally:
        event.remove(db.engine.sync_engine, "before_cursor_execute", seen)
    assert len(inserts) == 1, inserts
    stored = await _entries(db)
    assert [(e.action, e.after, e.entity, e.entity_id, e.league_id) for e in stored] == [
        (f"step {n}", {"n": n}, "league", league.id, league.id) for n in range(3)
    ]
    assert all(e.at == AT and e.actor_id == ACTOR.user_id and e.command == "/test" for e in stored)


async def test_a_transaction_reads_the_entries_it_recorded(db: Database) -> None:
    league = await make.insert(db, make.league())
    async with db.writing() as session:
        row = await session.get(League, league.id)
        assert row is not None
        await audit.noted_once(session, ACTOR, row, action="tie", detail={"machine": 3}, at=AT)
        newest = (await session.exec(select(func.max(AuditEntry.id)))).one()
        await audit.noted_once(session, ACTOR, row, action="tie", detail={"machine": 3}, at=AT)  # already noted
    assert newest is not None
    assert [e.after for e in await _entries(db)] == [{"machine": 3}]


async def test_a_rolled_back_transaction_leaves_no_entry(db: Database) -> None:
    league = await make.insert(db, make.league())
    with pytest.raises(RuntimeError):
        async with db.writing() as session:
            row = await session.get(League, league.id)
            assert row is not None
            audit.noted(session, ACTOR, row, action="kept?", detail={}, at=AT)
            raise RuntimeError("the command failed")
    async with db.writing() as session:  # the next transaction starts clean
        row = await session.get(League, league.id)
        assert row is not None
        audit.noted(session, ACTOR, row, action="kept", detail={}, at=AT)
    assert [e.action for e in await _entries(db)] == ["kept"]


async def test_the_version_of_actions_grows_only_when_an_entry_of_them_is_committed(db: Database) -> None:
    """What the commissioner notices look after: a commit writing other actions, or a rolled-back one, leaves the
    version as it was (COMMON-NOTIFY-1's look after a command is skipped then)."""
    league = await make.insert(db, make.league())

    async def note(action: str, *, fail: bool = False) -> None:
        async with db.writing() as session:
            row = await session.get(League, league.id)
            assert row is not None
            audit.noted(session, ACTOR, row, action=action, detail={}, at=AT)
            await session.flush()  # written to the database, so only the rollback takes it back
            if fail:
                raise RuntimeError("the command failed")

    watched = ["version test: told"]
    before = audit_rows.commits_writing(watched)
    await note("version test: not told")
    with pytest.raises(RuntimeError):
        await note("version test: told", fail=True)
    assert audit_rows.commits_writing(watched) == before
    await note("version test: told")
    assert audit_rows.commits_writing(watched) == before + 1


async def test_a_read_only_block_refuses_to_record(db: Database) -> None:
    league = await make.insert(db, make.league())
    async with db.reading() as session:
        row = await session.get(League, league.id)
        assert row is not None
        with pytest.raises(WriteInReadingBlock):
            audit.noted(session, ACTOR, row, action="read", detail={}, at=AT)
    assert await _entries(db) == []
