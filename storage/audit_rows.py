"""Audit entries are written together, one statement for all those recorded since the session last ran one.

Added as ORM objects, each entry was its own INSERT … RETURNING: SQLite gives SQLAlchemy no way to batch inserts
whose ids it must read back, and an audit entry's id is never needed in the transaction that writes it. Kept here
as plain rows instead, they go out in one executemany before the session's next statement, flush or commit, so
everything the transaction reads (a notice already recorded, the newest entry's id) still sees them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from sqlalchemy import event, insert
from sqlalchemy.orm import ORMExecuteState
from sqlalchemy.orm import Session as OrmSession
from sqlmodel import Session

from storage.db import ReadingSession, WriteInReadingBlock
from storage.models import AuditEntry

_PENDING = "pinleague_pending_audit"
_WRITTEN = "pinleague_audited_actions"  # the actions this transaction has written entries of
_commits_writing: Counter[str] = Counter()  # action → this process's commits that wrote an entry of it


def add(session: Session, row: dict[str, Any]) -> None:
    """Record one audit entry (AuditEntry's columns but the id) to be written with the transaction."""
    if isinstance(session, ReadingSession):
        raise WriteInReadingBlock("db.reading() cannot record an audit entry: use db.writing()")
    session.info.setdefault(_PENDING, []).append(row)


def _write_pending(session: OrmSession) -> None:
    rows = session.info.pop(_PENDING, None)
    if rows:
        session.connection().execute(insert(AuditEntry.__table__), rows)  # type: ignore[attr-defined]
        session.info.setdefault(_WRITTEN, set()).update(row["action"] for row in rows)


def commits_writing(actions: Iterable[str]) -> int:
    """A version of this process's audit trail for these actions: it grows whenever a transaction that wrote an
    entry of one of them commits, and only then (the commissioner notices look for new entries after those)."""
    return sum(_commits_writing[action] for action in actions)


@event.listens_for(Session, "do_orm_execute")
def _before_a_statement(state: ORMExecuteState) -> None:
    _write_pending(state.session)


@event.listens_for(Session, "before_flush")
def _before_a_flush(session: Session, _context: Any, _instances: Any) -> None:
    _write_pending(session)


@event.listens_for(Session, "before_commit")
def _before_the_commit(session: Session) -> None:
    _write_pending(session)


@event.listens_for(Session, "after_commit")
def _after_the_commit(session: Session) -> None:
    _commits_writing.update(session.info.pop(_WRITTEN, ()))


@event.listens_for(Session, "after_rollback")
def _after_a_rollback(session: Session) -> None:
    session.info.pop(_PENDING, None)
    session.info.pop(_WRITTEN, None)
