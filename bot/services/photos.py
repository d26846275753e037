"""A game's photo of the machine's display (bot/rules/photos.py), kept in its format's table: a team match's
`game_photo`, a ladder group's `ladder_game_photo`, a field group's `field_game_photo`. One per game: sending
another replaces it, taking the scores back removes it; each change audited."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol, TypeVar

from sqlmodel import SQLModel, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules.photos import Photo
from bot.services import audit
from bot.services.actor import Actor


class PhotoRow(Protocol):
    url: str
    filename: str
    content_type: str
    uploaded_by: int
    uploaded_at: datetime


Row = TypeVar("Row", bound=SQLModel)


def photo_of(row: PhotoRow | None) -> Photo | None:
    return Photo(row.url, row.filename, row.content_type) if row is not None else None


async def _stored(session: AsyncSession, model: type[Row], key: dict[str, Any]) -> Row | None:
    query = select(model).filter_by(**key)
    return (await session.exec(query)).first()


async def keep_photo(
    session: AsyncSession, actor: Actor, model: type[Row], key: dict[str, Any], photo: Photo | None, now: datetime
) -> None:
    """The game's photo stored, or the one stored replaced by it; nothing changes when no photo was sent."""
    if photo is None:
        return
    fields: dict[str, Any] = {"url": photo.url, "filename": photo.filename, "content_type": photo.content_type}
    fields |= {"uploaded_by": actor.user_id, "uploaded_at": now}
    row = await _stored(session, model, key)
    if row is None:
        row = model(**key, **fields)
        session.add(row)
        await session.flush()
        audit.created(session, actor, row, at=now)
        return
    before = audit.snapshot(row)
    for name, value in fields.items():
        setattr(row, name, value)
    session.add(row)
    audit.updated(session, actor, row, before=before, at=now, reason="photo replaced")


async def drop_photo(
    session: AsyncSession, actor: Actor, model: type[Row], key: dict[str, Any], now: datetime, *, reason: str
) -> None:
    """The game's photo, removed with the scores it was sent with."""
    row = await _stored(session, model, key)
    if row is not None:
        audit.deleted(session, actor, row, at=now, reason=reason)
        await session.delete(row)


def by_key(rows: Sequence[Any], *fields: str) -> dict[tuple[Any, ...], Photo]:
    """Photos read for a board, by the game's key (e.g. ("round_index", "game_number"))."""
    found: dict[tuple[Any, ...], Photo] = {}
    for row in rows:
        photo = photo_of(row)
        if photo is not None:
            found[tuple(getattr(row, name) for name in fields)] = photo
    return found
