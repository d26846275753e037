"""A column value as CSV text and back, the same way on SQLite and PostgreSQL.

Empty cell = NULL; booleans are `true`/`false`; dates ISO; times UTC ISO with `Z` and microseconds; enums their
value; JSON compact with sorted keys. Every read raises `CellError` with a reason a commissioner can act on.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import Any

import sqlalchemy as sa

from storage.models import StrEnumType, UTCDateTime


class CellError(ValueError):
    """A cell that cannot be read as its column's type."""


def write_cell(column: sa.Column[Any], value: Any) -> str:
    if value is None:
        return ""
    kind = column.type
    if isinstance(kind, UTCDateTime):
        return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    if isinstance(kind, sa.JSON):
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    if isinstance(kind, sa.Boolean):
        return "true" if value else "false"
    if isinstance(kind, sa.Date):
        return value.isoformat()
    if isinstance(kind, StrEnumType):
        return str(kind.enum(value).value)
    return str(value)


def read_cell(column: sa.Column[Any], text: str) -> Any:
    """The value of one cell; NULL for an empty cell in a column that may be empty."""
    if text == "":
        if column.nullable:
            return None
        raise CellError(f"`{column.name}` is required")
    kind = column.type
    try:
        if isinstance(kind, UTCDateTime):
            return _utc(text)
        if isinstance(kind, sa.JSON):
            return json.loads(text)
        if isinstance(kind, sa.Boolean):
            return _boolean(text)
        if isinstance(kind, sa.Date):
            return date.fromisoformat(text)
        if isinstance(kind, StrEnumType):
            return kind.enum(text)
        if isinstance(kind, sa.Integer):
            return int(text)
    except ValueError as exc:
        raise CellError(f"`{column.name}` {text!r} is not {_expected(kind)}") from exc
    length = getattr(kind, "length", None)
    if length is not None and len(text) > length:
        raise CellError(f"`{column.name}` is {len(text)} characters long; the limit is {length}")
    return text


def _utc(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise ValueError("no time zone")
    return moment.astimezone(UTC)


def _boolean(text: str) -> bool:
    if text not in ("true", "false"):
        raise ValueError(text)
    return text == "true"


def _expected(kind: Any) -> str:
    if isinstance(kind, UTCDateTime):
        return "a time with its zone, e.g. 2027-03-02T01:00:00.000000Z"
    if isinstance(kind, sa.JSON):
        return "valid JSON"
    if isinstance(kind, sa.Boolean):
        return "true or false"
    if isinstance(kind, sa.Date):
        return "a date, YYYY-MM-DD"
    if isinstance(kind, StrEnumType):
        return "one of " + ", ".join(member.value for member in kind.enum)
    return "a whole number"
