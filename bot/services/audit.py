"""Every accepted change leaves an audit entry in the same transaction as the change itself.

The entry names the table and row it is about; `before`/`after` are JSON snapshots of the row.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlmodel import SQLModel
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.services.actor import Actor
from storage.models import AuditEntry


def snapshot(row: SQLModel) -> dict[str, Any]:
    return row.model_dump(mode="json")


def created(session: AsyncSession, actor: Actor, row: SQLModel, *, at: datetime, reason: str | None = None) -> None:
    """Record a new row (flushed, so it has its id)."""
    _record(session, actor, row, at=at, action="create", before=None, after=snapshot(row), reason=reason)


def updated(
    session: AsyncSession,
    actor: Actor,
    row: SQLModel,
    *,
    before: dict[str, Any],
    at: datetime,
    reason: str | None = None,
) -> None:
    """Record a changed row, given its snapshot from before the change, and why it changed when that is asked."""
    _record(session, actor, row, at=at, action="update", before=before, after=snapshot(row), reason=reason)


def deleted(session: AsyncSession, actor: Actor, row: SQLModel, *, at: datetime) -> None:
    """Record a row about to be deleted, keeping its last state."""
    _record(session, actor, row, at=at, action="delete", before=snapshot(row), after=None)


def _record(
    session: AsyncSession,
    actor: Actor,
    row: SQLModel,
    *,
    at: datetime,
    action: str,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    reason: str | None = None,
) -> None:
    row_id = getattr(row, "id", None)
    table = str(getattr(row, "__tablename__", type(row).__name__.lower()))
    league_id = row_id if table == "league" else getattr(row, "league_id", None)
    session.add(
        AuditEntry(
            guild_id=actor.guild_id,
            league_id=league_id,
            actor_id=actor.user_id,
            command=actor.command,
            action=action,
            entity=table,
            entity_id=row_id,
            before=before,
            after=after,
            reason=reason,
            at=at,
        )
    )
