"""Every public function and class in `bot/rules/` is reachable from a command, a post or a job: a rule that only a
unit test calls is not a rule the league gets (issue 16, "wire it or delete it").

Read statically with `ast`: the entry points (cogs, services, render, jobs, the client, the CLI, the exchange and
the replay) and every module of the bot they import reference rules names; a reachable rules function or class makes
the names in its own body reachable in turn, and so on through the rules modules. Module-level code of an imported
rules module (registrations, tables) counts as reached."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = "bot.rules"
ENTRY_POINTS = (
    "cogs",
    "bot/services",
    "bot/render",
    "bot/exchange",
    "bot/jobs.py",
    "bot/client.py",
    "bot/cli.py",
    "bot/ukpl_replay.py",
)

# Rules whose caller, the match night (bot/services/team/match_night.py), was being rewritten: all are wired now
# (`/match start`, `/match failure`, `/match extraballs`, `/checkin leaving:`, the board's play order).
WIRED_LATER: dict[str, str] = {}

# Rules no service applies yet, each with the catalog rule it carries (issue 16, "wire it or delete it"): all are
# wired now. The list only shrinks: a name wired or deleted must leave it (test_allowances_name_only_unreached_rules).
NOT_YET_WIRED: dict[str, str] = {}


@dataclass
class Module:
    name: str
    is_package: bool
    bindings: dict[str, str] = field(default_factory=dict)  # local name -> dotted target of an import
    # Top-level definition (or "" for the module's other top-level code) -> the name chains and imports it uses.
    uses: dict[str, set[tuple[str, ...]]] = field(default_factory=dict)

    def absolute(self, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        base = self.name.split(".")
        base = base[: len(base) - node.level + (1 if self.is_package else 0)]
        return ".".join(base + ([node.module] if node.module else []))

    def read(self, tree: ast.Module) -> None:
        """One walk of each top-level statement: the imports it binds and the name chains (`lineup.start_game`)
        it uses. Outside the rules an import counts as a use too (a re-export, an import for registration); inside, only
        what the code uses counts, so a helper imported for dead code stays unreached."""
        imports_count = not in_rules(self.name)
        for statement in tree.body:
            is_definition = isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            used = self.uses.setdefault(statement.name if is_definition else "", set())  # type: ignore[attr-defined]
            for node in ast.walk(statement):
                if isinstance(node, ast.Import):
                    for alias in node.names:
                        self.bindings[alias.asname or alias.name.split(".")[0]] = (
                            alias.name if alias.asname else alias.name.split(".")[0]
                        )
                        if imports_count:
                            used.add(("", alias.name))
                elif isinstance(node, ast.ImportFrom):
                    source = self.absolute(node)
                    for alias in node.names:
                        self.bindings[alias.asname or alias.name] = f"{source}.{alias.name}"
                        if imports_count:
                            used.add(("", f"{source}.{alias.name}"))
                elif isinstance(node, ast.Attribute | ast.Name):
                    chain = []
                    while isinstance(node, ast.Attribute):
                        chain.append(node.attr)
                        node = node.value
                    if isinstance(node, ast.Name):
                        used.add((node.id, *reversed(chain)))

    def dotted(self, use: tuple[str, ...]) -> str | None:
        """A use as a dotted path through the module's imports (`lineup.start_game` ->
        `bot.rules.team.lineup.start_game`); a bare name of the module's own is `module.name`."""
        root, *chain = use
        if not root:
            return chain[0]
        target = self.bindings.get(root) or (f"{self.name}.{root}" if root in self.uses else None)
        return ".".join([target, *chain]) if target else None


def load_modules() -> dict[str, Module]:
    modules = {}
    for top in ("bot", "cogs"):
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            module = Module(".".join(parts[:-1] if is_package else parts), is_package)
            module.read(ast.parse(path.read_text(encoding="utf-8")))
            modules[module.name] = module
    return modules


def in_rules(name: str) -> bool:
    return name == RULES or name.startswith(f"{RULES}.")


def resolve(modules: dict[str, Module], dotted: str, seen: frozenset[str] = frozenset()) -> Iterator[tuple[str, str]]:
    """The module a dotted path lands in, as (module, ""), and the definition in it, following re-exports."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        name = ".".join(parts[:cut])
        if name not in modules:
            continue
        yield name, ""
        rest, module = parts[cut:], modules[name]
        if rest and rest[0] and rest[0] in module.uses:
            yield name, rest[0]
        elif rest and rest[0] in module.bindings and dotted not in seen:
            yield from resolve(modules, ".".join([module.bindings[rest[0]], *rest[1:]]), seen | {dotted})
        return


def is_entry_point(name: str) -> bool:
    return any(
        name == point.removesuffix(".py").replace("/", ".") or name.startswith(point.replace("/", ".") + ".")
        for point in ENTRY_POINTS
    )


def reached(modules: dict[str, Module]) -> set[tuple[str, str]]:
    """(module, definition) pairs reachable from the entry points; (module, "") marks a module as imported. A module
    outside the rules counts whole once imported; a rules module's definitions count one by one."""
    done: set[tuple[str, str]] = set()
    todo = [(name, "") for name in sorted(modules) if is_entry_point(name)]
    while todo:
        key = todo.pop()
        if key in done:
            continue
        done.add(key)
        module = modules[key[0]]
        parts = [key[1]] if key[1] or in_rules(module.name) else list(module.uses)
        for part in parts:
            for use in module.uses.get(part, ()):
                dotted = module.dotted(use)
                if dotted:
                    todo.extend(resolve(modules, dotted))
    return done


def public_rules_names(modules: dict[str, Module]) -> set[tuple[str, str]]:
    return {
        (module.name, name)
        for module in modules.values()
        if in_rules(module.name)
        for name in module.uses
        if name and not name.startswith("_")
    }


@cache
def unreachable() -> tuple[str, ...]:
    """Public rules names no entry point reaches, relative to `bot.rules` (`team.lineup.start_game`)."""
    modules = load_modules()
    return tuple(
        sorted(
            f"{module.removeprefix(RULES + '.')}.{name}"
            for module, name in public_rules_names(modules) - reached(modules)
        )
    )


def test_every_public_rule_is_reachable_from_a_command_a_post_or_a_job() -> None:
    names = [name for name in unreachable() if name not in WIRED_LATER and name not in NOT_YET_WIRED]
    assert not names, "called by no command, post or job (wire it into its service or delete it):\n" + "\n".join(names)


def test_allowances_name_only_unreached_rules() -> None:
    """An allowance for a rule that is now wired (or deleted) is removed with it, so the lists never hide anything."""
    stale = (WIRED_LATER.keys() | NOT_YET_WIRED.keys()) - set(unreachable())
    assert not stale, "reachable or gone, remove from the allowances: " + ", ".join(sorted(stale))


def test_the_graph_follows_module_aliases_and_stops_at_dead_code() -> None:
    """The walk must be able to fail: a rule named only inside a dead rules function stays unreached."""
    modules = {
        "cogs.demo": Module("cogs.demo", False),
        "bot.rules.demo": Module("bot.rules.demo", False),
    }
    modules["cogs.demo"].read(ast.parse("from bot.rules import demo as rules\nrules.live()"))
    modules["bot.rules"] = Module("bot.rules", True)
    modules["bot.rules.demo"].read(
        ast.parse("def live():\n    helper()\ndef helper(): ...\ndef dead():\n    orphan()\ndef orphan(): ...")
    )
    found = {name for module, name in reached(modules) if module == "bot.rules.demo"}
    assert found == {"", "live", "helper"}
