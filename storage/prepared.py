"""Statements the match-night commands send many times a second, built once with named parameters.

Building a statement (its columns, its WHERE clause) and the key SQLAlchemy caches its compiled form under cost
more than SQLite takes to run it: about a tenth of a score command went there. A statement built here is reused
by every call, with its values passed as parameters (`session.exec(statement, params={...})`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import sqlalchemy as sa

S = TypeVar("S")
_BUILT: dict[object, Any] = {}


def prepared(key: object, build: Callable[[], S]) -> S:
    """The statement `build` makes, built the first time `key` is asked for."""
    if key not in _BUILT:
        _BUILT[key] = build()
    built: S = _BUILT[key]
    return built


def param(name: str) -> sa.BindParameter[Any]:
    return sa.bindparam(name)


def params_in(name: str) -> sa.BindParameter[Any]:
    """A list of values for `column.in_(...)`: one statement for any length of list."""
    return sa.bindparam(name, expanding=True)
