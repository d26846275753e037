"""Precedents (COMMON-RULING-1): rulings kept with the tags that find them again (kind, rule, machine family).
Shared by team-match disputes and field rulings; each format decides which earlier rulings are similar."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules.disputes import PrecedentView
from bot.services import audit
from bot.services.actor import Actor
from storage.discipline import Precedent


def rule_tag(rule_id: str | None) -> str | None:
    """A rule ID as precedents are tagged with it: upper case, None when empty."""
    text = (rule_id or "").strip().upper()
    return text[:40] or None


async def league_precedents(session: AsyncSession, league_id: int) -> list[Precedent]:
    return list((await session.exec(select(Precedent).where(Precedent.league_id == league_id))).all())


def views(rows: list[Precedent]) -> list[PrecedentView]:
    """The precedents as the rules compare them."""
    return [PrecedentView(r.id or 0, r.kind, r.rule_id, r.machine_family, r.situation, r.ruling) for r in rows]


async def keep(
    session: AsyncSession,
    actor: Actor,
    *,
    league_id: int,
    kind: str,
    rule_id: str | None,
    machine_family: str | None,
    situation: str,
    ruling: str,
    now: datetime,
    challenge_id: int | None = None,
    official_took_part: bool = False,
) -> Precedent:
    """Store a ruling as a precedent, audited."""
    precedent = Precedent(
        league_id=league_id, challenge_id=challenge_id, kind=kind, rule_id=rule_id, machine_family=machine_family,
        situation=situation[:1000], ruling=ruling[:1000], official_took_part=official_took_part,
        ruled_by=actor.user_id, ruled_at=now,
    )  # fmt: skip
    session.add(precedent)
    await session.flush()
    audit.created(session, actor, precedent, at=now, action="precedent")
    return precedent
