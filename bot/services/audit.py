"""Every accepted change leaves an audit entry in the same transaction as the change itself.

The entry names the table and row it is about; `before`/`after` are JSON snapshots of the row.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlmodel import SQLModel, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.services.actor import Actor
from storage import audit_rows
from storage.models import AuditEntry


def snapshot(row: SQLModel) -> dict[str, Any]:
    return row.model_dump(mode="json")


def created(
    session: AsyncSession,
    actor: Actor,
    row: SQLModel,
    *,
    at: datetime,
    reason: str | None = None,
    action: str = "create",
) -> None:
    """Record a new row (flushed, so it has its id); `action` names events the league is told about."""
    _record(session, actor, row, at=at, action=action, before=None, after=snapshot(row), reason=reason)


def updated(
    session: AsyncSession,
    actor: Actor,
    row: SQLModel,
    *,
    before: dict[str, Any],
    at: datetime,
    reason: str | None = None,
    action: str = "update",
) -> None:
    """Record a changed row, given its snapshot from before the change, and why it changed when that is asked."""
    _record(session, actor, row, at=at, action=action, before=before, after=snapshot(row), reason=reason)


def noted(
    session: AsyncSession, actor: Actor, row: SQLModel, *, action: str, detail: dict[str, Any], at: datetime
) -> None:
    """Record an event about a row that changes nothing in it (a discipline flag raised by the rules)."""
    _record(session, actor, row, at=at, action=action, before=None, after=detail)


async def noted_once(
    session: AsyncSession, actor: Actor, row: SQLModel, *, action: str, detail: dict[str, Any], at: datetime
) -> None:
    """`noted`, unless the same event about the same row is recorded already (a tie stays open over several
    commands; the commissioners are told of it once)."""
    table = str(getattr(row, "__tablename__", type(row).__name__.lower()))
    query = select(AuditEntry.after).where(
        AuditEntry.action == action, AuditEntry.entity == table, AuditEntry.entity_id == getattr(row, "id", None)
    )
    if detail not in (await session.exec(query)).all():
        noted(session, actor, row, action=action, detail=detail, at=at)


def deleted(
    session: AsyncSession,
    actor: Actor,
    row: SQLModel,
    *,
    at: datetime,
    reason: str | None = None,
    action: str = "delete",
) -> None:
    """Record a row about to be deleted, keeping its last state."""
    _record(session, actor, row, at=at, action=action, before=snapshot(row), after=None, reason=reason)


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
    audit_rows.add(
        session.sync_session,
        {
            "guild_id": actor.guild_id,
            "league_id": league_id,
            "actor_id": actor.user_id,
            "command": actor.command,
            "action": action,
            "entity": table,
            "entity_id": row_id,
            "before": before,
            "after": after,
            "reason": reason,
            "at": at,
        },
    )
