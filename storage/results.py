"""Stored final results of team matches: derived data, so standings need not re-score every match's facts.

A stored row is only a copy of what `match_facts.results` computes. It is used while the match's
`facts_version` and the row's `basis` (`match_facts.result_basis`: a digest of the team rules' source, the
league's options and time zone, and the venue's machines in service) are those it was computed under.
`facts_version` is bumped by a `before_flush` listener on every ORM session whenever a row results are
computed from (`RESULT_TABLES`) is added, changed or deleted, or the match row itself changes, so no service
can forget to invalidate one. Bulk statements run through a session (`session.exec(insert(…)/update(…)/
delete(…))`, as the benchmark's seeding does) bypass the unit of work; a `do_orm_execute` listener bumps the
matches they touch, and refuses one whose matches it cannot tell. Statements on a bare connection bypass
both: only the league import uses one, and it fills a new league.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import ORMExecuteState, Session
from sqlmodel import Field, SQLModel

from bot.rules.team.model import MatchOutcome
from storage.matches import (
    GamePenalty,
    GameScore,
    LineupReplacement,
    Match,
    MatchConfirmation,
    MatchLineup,
    MatchVisit,
    MatchWalkout,
    TiebreakerGame,
)
from storage.models import enum_column
from storage.prepared import params_in, prepared

# The tables `match_facts.results` reads a match's result from: it reads exactly these.
RESULT_TABLES: tuple[type[SQLModel], ...] = (
    MatchVisit,
    MatchLineup,
    LineupReplacement,
    GameScore,
    GamePenalty,
    MatchConfirmation,
    MatchWalkout,
    TiebreakerGame,
)
# Match columns a result cannot depend on; a change to any other column bumps `facts_version`.
MATCH_COLUMNS_NOT_IN_RESULTS = frozenset({"facts_version", "scoreboard_channel_id", "scoreboard_message_id"})
BASIS_LENGTH = 16


class UntrackedResultWrite(RuntimeError):
    """A bulk statement on a result table whose matches cannot be told, so their stored results could not be
    invalidated: refused rather than left to serve a stale result."""


class MatchFinalResult(SQLModel, table=True):
    """A final `bot.rules.team.scoring.MatchResult` with nothing missing, as computed at `facts_version`."""

    __tablename__ = "match_final_result"

    match_id: int = Field(primary_key=True, foreign_key="match.id", ondelete="CASCADE")
    facts_version: int
    basis: str = Field(max_length=BASIS_LENGTH)
    home_points: int
    away_points: int
    home_outcome: MatchOutcome | None = enum_column(MatchOutcome, 8, default=None)
    away_outcome: MatchOutcome | None = enum_column(MatchOutcome, 8, default=None)
    available_points: int | None = None
    needs_tiebreaker: bool = False
    flags: str = Field(default="", max_length=200)  # `scoring.Flag` values, comma-joined, in order


def upsert(*, sqlite: bool) -> Any:
    """An upsert of MatchFinalResult rows, to execute with their column values (one dict a row). It replaces an
    older copy: racing writers only ever store copies computed from facts they read, labelled with the
    `facts_version` they read before those facts."""
    insert = sqlite_insert if sqlite else postgresql_insert
    statement = insert(MatchFinalResult)
    kept = [column.name for column in MatchFinalResult.__table__.c if column.name != "match_id"]  # type: ignore[attr-defined]
    return statement.on_conflict_do_update(
        index_elements=["match_id"], set_={name: statement.excluded[name] for name in kept}
    )


def _changed_matches(session: Session) -> set[int]:
    """Ids of the matches whose results this flush may change."""
    changed: set[int] = set()
    for row in (*session.new, *session.dirty, *session.deleted):
        if isinstance(row, RESULT_TABLES):
            if row in session.dirty and not session.is_modified(row):
                continue
            changed.update(_match_ids(row))
        elif isinstance(row, Match) and row in session.dirty and row.id is not None:
            state = sa.inspect(row)
            if any(
                state.attrs[column.key].history.has_changes()
                for column in state.mapper.column_attrs
                if column.key not in MATCH_COLUMNS_NOT_IN_RESULTS
            ):
                changed.add(row.id)
    return changed


def _match_ids(row: Any) -> set[int]:
    """The row's match, and the match it belonged to before, if this flush moves it."""
    history = sa.inspect(row).attrs["match_id"].history
    return {match_id for match_id in (*history.added, *history.unchanged, *history.deleted) if match_id is not None}


@event.listens_for(Session, "before_flush")
def _bump_facts_versions(session: Session, _context: Any, _instances: Any) -> None:
    changed = _changed_matches(session)
    if changed:
        _bump_facts_version_of(session.connection(), changed)


def _bump_facts_version_of(connection: Any, match_ids: set[int]) -> None:
    connection.execute(prepared("bump facts versions", _bump_statement), {"matches": sorted(match_ids)})


def _bump_statement() -> sa.Update:
    """In SQL, not from the loaded value: two writers at once each add one (PostgreSQL re-reads the row)."""
    table = Match.__table__  # type: ignore[attr-defined]
    return table.update().where(table.c.id.in_(params_in("matches"))).values(facts_version=table.c.facts_version + 1)


@event.listens_for(Session, "do_orm_execute")
def _bump_for_bulk_statements(state: ORMExecuteState) -> None:
    if not (state.is_insert or state.is_update or state.is_delete):
        return
    statement: Any = state.statement
    table, match = statement.table, Match.__table__  # type: ignore[attr-defined]
    rows: list[Any] = list(state.parameters) if isinstance(state.parameters, list) else [state.parameters or {}]
    if table.name == match.name:  # an ORM statement names an annotated copy of the table
        if state.is_update:
            columns = {getattr(column, "key", str(column)) for column in statement._values or {}}
            if (columns | {name for row in rows for name in row}) - {"id"} - MATCH_COLUMNS_NOT_IN_RESULTS:
                state.statement = statement.values(facts_version=match.c.facts_version + 1)
        return
    if table.name not in {model.__tablename__ for model in RESULT_TABLES}:
        return
    connection = state.session.connection()
    if state.is_insert:
        ids = [row.get("match_id") for row in rows]
        if None in ids or statement._values or statement._multi_values:
            raise UntrackedResultWrite(f"insert into {table.name}: pass the rows, with their match_id, as parameters")
        _bump_facts_version_of(connection, set(ids))
        return
    if any(rows) or (state.is_update and "match_id" in {getattr(c, "key", None) for c in statement._values}):
        raise UntrackedResultWrite(f"bulk change of {table.name}: use the session's unit of work")
    touched = sa.select(table.c.match_id)
    if statement.whereclause is not None:
        touched = touched.where(statement.whereclause)
    bump = match.update().values(facts_version=match.c.facts_version + 1)
    connection.execute(bump.where(match.c.id.in_(touched)))
