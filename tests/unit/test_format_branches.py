"""Common code asks the format registry (`bot/formats.py`) instead of branching on a league's format.

Outside a format's own packages (`bot/{rules,services,render}/<format>/`, `cogs/<format>/`) and the registry, no
module names a format member (`LeagueFormat.TEAM`), compares a format (`league.format is …`, `fmt == "field"`),
matches on one, or keys a dict by format names. Read from the source with `ast`, nothing imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

from bot import formats
from storage.models import LeagueFormat

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("rules", "services", "render")
REGISTRY = Path("bot/formats.py")
FORMAT_NAMES = frozenset(formats.names())


def _is_format(node: ast.expr) -> bool:
    """`x.format`, `x.format.value`, or a variable named like a format (`fmt`, `league_format`)."""
    if isinstance(node, ast.Attribute) and node.attr == "value":
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr == "format"
    return isinstance(node, ast.Name) and (node.id == "fmt" or node.id.endswith("format"))


def _format_member(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "LeagueFormat"


def _format_name(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and node.value in FORMAT_NAMES


def branches_in(source: str) -> list[tuple[int, str]]:
    """Each place the source branches on a league's format: (line, what)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and _format_member(node):
            found.append((node.lineno, f"names LeagueFormat.{node.attr}"))
        elif isinstance(node, ast.Compare) and _compares_format(node):
            found.append((node.lineno, "compares a league's format"))
        elif isinstance(node, ast.Match) and _is_format(node.subject):
            found.append((node.lineno, "matches on a league's format"))
        elif isinstance(node, ast.Dict) and sum(_format_name(key) for key in node.keys) >= 2:
            found.append((node.lineno, "keys a dict by format names"))
    return sorted(found)


def _compares_format(node: ast.Compare) -> bool:
    """An (in)equality or identity test of a format, or its membership in a literal list; asking a registered
    collection (`fmt in kind.formats`) is no branch."""
    left = node.left
    for op, right in zip(node.ops, node.comparators, strict=True):
        literal = isinstance(right, ast.Tuple | ast.List | ast.Set)
        if (_is_format(left) or _is_format(right)) and (not isinstance(op, ast.In | ast.NotIn) or literal):
            return True
        left = right
    return False


def _common_modules() -> list[Path]:
    """Every module of bot/, cogs/ and storage/ that is not a format's own nor the registry."""
    modules = []
    for top in ("bot", "cogs", "storage"):
        for path in sorted((ROOT / top).rglob("*.py")):
            relative = path.relative_to(ROOT)
            parts = relative.parts
            own = (parts[0] == "bot" and len(parts) > 3 and parts[1] in LAYERS and parts[2] in FORMAT_NAMES) or (
                parts[0] == "cogs" and len(parts) > 2 and parts[1] in FORMAT_NAMES
            )
            if not own and relative != REGISTRY:
                modules.append(relative)
    return modules


def test_common_code_does_not_branch_on_the_format() -> None:
    branches = [
        f"{path}:{line}: {what}"
        for path in _common_modules()
        for line, what in branches_in((ROOT / path).read_text(encoding="utf-8"))
    ]
    assert not branches, "ask bot.formats instead:\n" + "\n".join(branches)


def test_the_check_sees_each_kind_of_branch() -> None:
    planted = """
if league.format is LeagueFormat.TEAM:
    pass
if league.format.value == "ladder":
    pass
if league_format != "field":
    pass
match league.format:
    case _:
        pass
if fmt in ("team", "ladder"):
    pass
LOADERS = {"team": 1, "ladder": 2}
"""
    assert [line for line, _ in branches_in(planted)] == [2, 2, 4, 6, 8, 11, 13]


def test_the_check_leaves_other_comparisons_alone() -> None:
    fine = """
if entry.entity == "team":
    pass
fmt = formats.of(league)
if not fmt.teams:
    pass
payload = {"team": None, "id": 1}
kinds = [kind for kind in registry if league_format in kind.formats]
"""
    assert branches_in(fine) == []


def test_the_registry_and_the_format_packages_are_the_exceptions() -> None:
    modules = set(_common_modules())
    assert REGISTRY not in modules and Path("bot/services/ladder/facts.py") not in modules
    assert Path("cogs/team/roster.py") not in modules and Path("bot/services/discipline.py") in modules


def test_every_stored_format_is_registered_once() -> None:
    assert formats.names() == [fmt.value for fmt in LeagueFormat]
