"""Alembic environment. Always run through `storage.migrate`, which hands us an open connection."""

from __future__ import annotations

from typing import Any, Literal

from alembic import context
from alembic.autogenerate.api import AutogenContext
from sqlmodel import SQLModel
from sqlmodel.sql.sqltypes import AutoString

from storage.models import StrEnumType, UTCDateTime  # importing storage registers every table


def render_item(type_: str, obj: Any, autogen_context: AutogenContext) -> str | Literal[False]:
    """Write our Python-side column types as the plain SQL types they store, so a migration never
    imports code that keeps changing after the migration is written."""
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    if type_ == "type" and isinstance(obj, StrEnumType):
        return f"sa.String(length={obj.length})"
    if type_ == "type" and isinstance(obj, AutoString):
        return f"sa.String(length={obj.length})" if obj.length else "sa.String()"
    return False


connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=SQLModel.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
    render_item=render_item,
)
with context.begin_transaction():
    context.run_migrations()
