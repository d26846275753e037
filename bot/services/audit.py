"""Every accepted change leaves an audit entry in the same transaction as the change itself."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from bot.services.actor import Actor
from storage.models import AuditEntry


def record(
    session: AsyncSession,
    actor: Actor,
    *,
    at: datetime,
    action: str,
    entity: str,
    entity_id: int | None,
    league_id: int | None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    reason: str | None = None,
) -> None:
    session.add(
        AuditEntry(
            guild_id=actor.guild_id,
            league_id=league_id,
            actor_id=actor.user_id,
            command=actor.command,
            action=action,
            entity=entity,
            entity_id=entity_id,
            before=before,
            after=after,
            reason=reason,
            at=at,
        )
    )
