"""Imports point down the layers (DESIGN.md §1): cogs reach storage through the services, and the local chat reaches
the database only through the runtime's start-up code (`bot/runtime.py`). Read from the source with `ast`, every
import counted (in functions and under TYPE_CHECKING too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def imported_modules(source: str) -> list[tuple[int, str]]:
    """(line, module) for each import of the source; `from . import x` is relative and names no top package."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.lineno, node.module))
    return found


def imports_of(folder: str, package: str) -> list[str]:
    """Each import of `package` (or a module in it) by a module under `folder`, as path:line: module."""
    return [
        f"{path.relative_to(ROOT)}:{line}: {module}"
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line, module in imported_modules(path.read_text(encoding="utf-8"))
        if module == package or module.startswith(f"{package}.")
    ]


@pytest.mark.parametrize(
    ("folder", "why"),
    [
        ("cogs", "cogs are thin adapters: what they need of storage comes from a service or a pure module"),
        ("bot/local", "the local chat opens its database through bot/runtime.py, as the bot does"),
    ],
)
def test_no_arrow_from_here_to_storage(folder: str, why: str) -> None:
    assert not imports_of(folder, "storage"), f"{why}:\n" + "\n".join(imports_of(folder, "storage"))


def test_the_check_sees_every_kind_of_import() -> None:
    source = """
import storage.db
from storage.models import League
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from storage import posts
def later():
    import storage
from . import storage_like
"""
    modules = [module for _, module in imported_modules(source)]
    assert modules == ["storage.db", "storage.models", "typing", "storage", "storage"]
