"""Tonight's facts kept from one score command of a field night to the next.

A score entry, a confirmation or a board reads the whole night (every check-in, score, playoff and ruling) to
check one group's game: at a busy meet that read was a third of each command. On SQLite this process is the
database's only writer, and the facts a score command leaves (those it read, with its own change applied) are
what the next command would read, as long as the database's version is the one they were kept at: the commits
made through this process, the newest audit entry (every league change is audited, whoever makes it), and
how many scores tonight has and the newest (its bulk, should anything change it unaudited). Other commands
read tonight afresh; any commit of theirs changes the version. On PostgreSQL other processes write between our
statements, so every command reads.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.services.field.facts import FieldContext, SeasonFacts, load_tonight
from storage.db import Database, ReadingSession
from storage.field import FieldScore
from storage.models import AuditEntry
from storage.prepared import param, prepared

# (commits through this process, newest audit entry id, tonight's scores, newest score id)
Version = tuple[int, int, int, int]


class TonightFacts:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._kept: dict[int, tuple[Version, SeasonFacts]] = {}  # season id → the version, tonight's facts

    async def load(self, session: AsyncSession, context: FieldContext) -> SeasonFacts:
        """`load_tonight`, or the facts kept at the database's current version (under this command's context,
        whose options depend on the time). Facts a read finds are kept too, for the commands after it; a writer's
        are kept once it commits (`keep`): a rollback would leave their rows expired."""
        if not self.db.is_sqlite:
            return await load_tonight(session, context)
        commits, season = self.db.commits, context.season.id or 0
        kept = self._kept.get(season)
        if kept is not None and kept[0] == await self._version(session, commits, kept[1]):
            return kept[1].with_context(context)
        facts = await load_tonight(session, context)
        if isinstance(session.sync_session, ReadingSession):
            self._kept[season] = (await self._version(session, commits, facts), facts)
        return facts

    async def after_write(self, session: AsyncSession, facts: SeasonFacts) -> Version | None:
        """Inside a score command's transaction, once it has made its change (leaving `facts`): the version the
        database will have when it commits, to `keep` the facts at (None on PostgreSQL)."""
        if not self.db.is_sqlite:
            return None
        await session.flush()
        return await self._version(session, self.db.commits + 1, facts)

    def keep(self, version: Version | None, facts: SeasonFacts) -> None:
        """After the commit: the facts the command left, for the next one. A failed commit keeps nothing."""
        if version is not None and version[0] == self.db.commits:
            self._kept[facts.context.season.id or 0] = (version, facts)

    @staticmethod
    async def _version(session: AsyncSession, commits: int, facts: SeasonFacts) -> Version:
        query = prepared("tonight's version", _version_query)
        found = await session.exec(query, params={"night": facts.open_night().night.id})  # type: ignore[call-overload]
        newest_entry, scores, newest_score = found.one()
        return commits, newest_entry or 0, scores, newest_score or 0


def _version_query() -> sa.Select[Any]:
    audit, score = AuditEntry.__table__.c, FieldScore.__table__.c  # type: ignore[attr-defined]
    tonight = sa.select(score.id).where(score.night_id == param("night")).subquery()
    return sa.select(
        sa.select(sa.func.max(audit.id)).scalar_subquery(),
        sa.select(sa.func.count()).select_from(tonight).scalar_subquery(),
        sa.select(sa.func.max(tonight.c.id)).scalar_subquery(),
    )
