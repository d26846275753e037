"""Build docs/rule-coverage.md: which catalog entries the bot applies and a test checks through the bot.

An entry of ../shared/rules/CATALOG.md (rules, ambiguities and test vectors alike) counts as *applied by the bot
and tested through it* when

1. some rule code cites its ID: a function or class in `bot/rules/` whose own text (its docstring, comments and
   body, decorators included, nested functions and classes excluded) names the ID; only when no code in
   `bot/rules/` does, a function or class of `bot/services/` that names it (a rule that lives in a service);
2. a test that drives the bot or a service (tests/e2e, tests/robustness, tests/storage, tests/exchange; never
   tests/unit) reached that code in the last trace (`docs/rule-trace.json`, written by `docs/rule_trace.py`) and
   passed; and
3. that same test names the ID in its own function (name, decorators, docstring, body); a module's or class's
   docstring is not inherited.

A test vector (`-TV-n`) no code cites is applied by the code of the entries its definition names ("[AMB-3]" of a
TEAM vector is TEAM-AMB-3): a worked example runs the rules it illustrates. A class is reached when any of its
methods runs (its generated `__init__` included); a function when it is called. Entries with no behaviour are
listed with their reason in docs/uncovered-rules.md ("- RULE-ID: reason").
Citations name one ID ("FIELD-MALF-2"), several ("LADDER-PO-1/2/3") or a range ("TEAM-STAND-1..3").

Regenerate after changing tests or docs/uncovered-rules.md (fast):

    .venv/bin/python docs/rule_coverage.py

and after changing rule code, re-trace first (17 to 29 minutes on two cores shared with other work;
tests/unit/test_rule_coverage_doc.py names the rule functions whose source changed since the trace):

    nice -n 10 .venv/bin/python docs/rule_trace.py && .venv/bin/python docs/rule_coverage.py
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
import sys
import textwrap
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT.parent / "shared" / "rules" / "CATALOG.md"
TESTS = ROOT / "tests"
UNCOVERED = ROOT / "docs" / "uncovered-rules.md"
OUTPUT = ROOT / "docs" / "rule-coverage.md"
TRACE = ROOT / "docs" / "rule-trace.json"
RULE_CODE = ("bot/rules", "bot/services")  # in this order: services code counts only for IDs no rules code cites
BOT_DRIVING_TESTS = ("tests/e2e", "tests/robustness", "tests/storage", "tests/exchange")
TRACE_COMMAND = "nice -n 10 .venv/bin/python docs/rule_trace.py"
RENDER_COMMAND = ".venv/bin/python docs/rule_coverage.py"
# "- **TEAM-ROSTER-7** text", for ambiguities and vectors "- **TEAM-AMB-4 (title)** text", and for vectors of an
# ambiguity "- **TEAM-TV-4 (title) [AMB-3]** text"
RULE_DEFINITION = re.compile(
    r"^- \*\*((?:COMMON|TEAM|LADDER|FIELD)-[A-Z]+-\d+)(?: \(([^)]*)\))?(?: \[([^\]]*)\])?\*\*\s*(.*)$"
)
# "FIELD-MALF-2", "LADDER-PO-1/2/3", "TEAM-STAND-1..3"
RULE_CITATION = re.compile(r"\b((?:COMMON|TEAM|LADDER|FIELD)-[A-Z]+-)(\d+)((?:/\d+)+|\.\.\d+)?\b")
FORMATS = ("COMMON", "TEAM", "LADDER", "FIELD")
SUMMARY_LENGTH = 70
LONGEST_RANGE = 20  # "X-1..40" is a typo, not forty citations

NO_CODE = "no code in bot/rules or bot/services cites it"
NOT_REACHED = "the code citing it is not reached by any test that drives the bot"
NOT_CITED = "the code citing it is reached, but no test that reaches it names the ID"


@dataclass(frozen=True)
class Entry:
    summary: str  # the first words of its definition
    names: frozenset[str]  # the other entries its definition names ("[AMB-3]" of a TEAM vector is TEAM-AMB-3)

    @staticmethod
    def is_vector(rule_id: str) -> bool:
        return "-TV-" in rule_id


def catalog_entries(text: str) -> dict[str, Entry]:
    """Rule id → its entry, for every rule, ambiguity and test vector of the catalog."""
    found: dict[str, tuple[str, list[str]]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        match = RULE_DEFINITION.match(line)
        if match:
            rule_id, title, tags, body = match.groups()
            summary = re.sub(r"[*`|]", "", (f"({title}) " if title else "") + body).strip()
            current = [body, tags or ""]
            found[rule_id] = (summary[:SUMMARY_LENGTH] + ("…" if len(summary) > SUMMARY_LENGTH else ""), current)
        elif current is not None and line.startswith("  "):
            current.append(line)
        else:
            current = None
    return {
        rule_id: Entry(summary, frozenset(_names(rule_id.split("-")[0], "\n".join(text)) - {rule_id}))
        for rule_id, (summary, text) in found.items()
    }


def _names(fmt: str, text: str) -> set[str]:
    """The IDs a definition names, its format's short "AMB-3" included."""
    return cited_ids(text) | {f"{fmt}-AMB-{number}" for number in re.findall(r"(?<![A-Z-])AMB-(\d+)", text)}


def catalog_rules(text: str) -> dict[str, str]:
    """Rule id → the first words of its definition (ambiguities and test vectors included)."""
    return {rule_id: entry.summary for rule_id, entry in catalog_entries(text).items()}


def cited_ids(text: str) -> set[str]:
    """The rule IDs a text names, lists ("-1/2") and ranges ("-1..3") spelled out."""
    found = set()
    for match in RULE_CITATION.finditer(text):
        prefix, first, more = match.group(1), int(match.group(2)), match.group(3) or ""
        numbers = [first]
        if more.startswith(".."):
            last = int(more[2:])
            if first < last <= first + LONGEST_RANGE:
                numbers = list(range(first, last + 1))
        elif more:
            numbers += [int(number) for number in more[1:].split("/")]
        found.update(f"{prefix}{number}" for number in numbers)
    return found


# --- rule code --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    """A function or class of the rule code, with the IDs its own text cites."""

    key: str  # "bot/rules/field/malfunctions.py::check_replay_request"
    path: str
    start: int  # first line, decorators included (a code object's co_firstlineno)
    end: int
    ids: frozenset[str]
    digest: str  # of its whole source, dedented: moving it does not make the trace stale, editing it does

    @property
    def in_rules(self) -> bool:
        return self.path.startswith("bot/rules/")


Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _definitions(tree: ast.Module) -> list[tuple[Definition, tuple[str, ...], list[Definition]]]:
    """Every function and class at any depth, each with its qualified name and the definitions directly inside it."""
    found: list[tuple[Definition, tuple[str, ...], list[Definition]]] = []

    def walk(node: ast.AST, owner: tuple[str, ...]) -> list[Definition]:
        direct: list[Definition] = []
        for child in ast.iter_child_nodes(node):
            if isinstance(child, Definition):
                name = (*owner, child.name)
                slot = len(found)
                found.append((child, name, []))
                found[slot] = (child, name, walk(child, name))
                direct.append(child)
            elif isinstance(child, ast.stmt | ast.excepthandler | ast.match_case):  # no definition in an expression
                direct += walk(child, owner)
        return direct

    walk(tree, ())
    return found


def _first_line(node: Definition) -> int:
    return min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])


def _last_line(node: Definition) -> int:
    return node.end_lineno or node.lineno


_parsed: dict[Path, tuple[tuple[int, int], list[str], ast.Module]] = {}


def _parse(path: Path) -> tuple[list[str], ast.Module]:
    """A file's lines and tree, parsed once while it does not change."""
    stat = path.stat()
    version = (stat.st_mtime_ns, stat.st_size)
    cached = _parsed.get(path)
    if cached is None or cached[0] != version:
        source = path.read_text(encoding="utf-8")
        cached = _parsed[path] = (version, source.splitlines(), ast.parse(source))
    return cached[1], cached[2]


def units_in(path: Path, root: Path = ROOT) -> list[Unit]:
    lines, tree = _parse(path)
    relative = path.relative_to(root).as_posix()
    found: list[Unit] = []
    keys: set[str] = set()
    for node, name, inner in _definitions(tree):
        start, end = _first_line(node), _last_line(node)
        nested = [(_first_line(definition), _last_line(definition)) for definition in inner]
        own = [
            line
            for number, line in enumerate(lines[start - 1 : end], start)
            if not any(first <= number <= last for first, last in nested)
        ]
        digest = hashlib.sha256(textwrap.dedent("\n".join(lines[start - 1 : end])).encode()).hexdigest()[:16]
        key = f"{relative}::{'.'.join(name)}"
        while key in keys:  # a property's setter shares its getter's name
            key += "'"
        keys.add(key)
        found.append(Unit(key, relative, start, end, frozenset(cited_ids("\n".join(own))), digest))
    return found


def _rule_code_files(root: Path) -> list[Path]:
    return [path for folder in RULE_CODE for path in sorted((root / folder).rglob("*.py"))]


def rule_units(root: Path = ROOT) -> list[Unit]:
    """Every function and class of the rule code (cited or not; the tracer maps code objects onto them)."""
    return [unit for path in _rule_code_files(root) for unit in units_in(path, root)]


def module_citations(root: Path = ROOT) -> dict[str, list[str]]:
    """Rule id → the rule code modules citing it outside any function or class (a docstring, a table)."""
    cited: dict[str, list[str]] = defaultdict(list)
    for path in _rule_code_files(root):
        lines, tree = _parse(path)
        inside = {
            number
            for node in tree.body
            if isinstance(node, Definition)
            for number in range(_first_line(node), _last_line(node) + 1)
        }
        text = "\n".join(line for number, line in enumerate(lines, 1) if number not in inside)
        for rule_id in sorted(cited_ids(text)):
            cited[rule_id].append(path.relative_to(root).as_posix())
    return cited


def citing_units(units: list[Unit]) -> dict[str, list[Unit]]:
    """Rule id → the code that applies it: the units of bot/rules citing it, or failing those, of bot/services."""
    rules_code: dict[str, list[Unit]] = defaultdict(list)
    services_code: dict[str, list[Unit]] = defaultdict(list)
    for unit in units:
        for rule_id in unit.ids:
            (rules_code if unit.in_rules else services_code)[rule_id].append(unit)
    return {rule_id: rules_code.get(rule_id) or services_code[rule_id] for rule_id in rules_code | services_code}


# --- tests ------------------------------------------------------------------------------------------------------


def cited_by_tests(tests_dir: Path = TESTS, root: Path = ROOT) -> dict[str, set[str]]:
    """'path::test' (or 'path::Class::test') → the rule IDs named in that test function's own text."""
    cited: dict[str, set[str]] = {}
    for path in sorted(tests_dir.rglob("test_*.py")):
        lines, tree = _parse(path)  # lines once per file: ast.get_source_segment splits the file on every call
        relative = path.relative_to(root).as_posix()
        for node, name in _tests_in(tree):
            cited[f"{relative}::{name}"] = cited_ids(_segment(lines, node))
    return cited


def _segment(lines: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    """The test's source, decorators included, up to the end of its last statement (a comment after it is not a
    citation). Offsets count UTF-8 bytes."""
    assert node.end_lineno is not None and node.end_col_offset is not None
    last = lines[node.end_lineno - 1].encode()[: node.end_col_offset].decode()
    return "\n".join([*lines[_first_line(node) - 1 : node.end_lineno - 1], last])


def _tests_in(tree: ast.Module) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef, str]]:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
            yield node, node.name
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name.startswith("test"):
                    yield item, f"{node.name}::{item.name}"


def drives_the_bot(test: str) -> bool:
    return test.startswith(tuple(folder + "/" for folder in BOT_DRIVING_TESTS))


# --- the trace --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Trace:
    reached_by: dict[str, set[str]]  # unit key → the passing bot-driving tests that reached it
    digests: dict[str, str]  # unit key → digest of its source when traced (every unit applying an entry)
    tests: int  # test functions that passed under the tracer
    not_passed: list[str]  # test functions with an instance that failed or was skipped under it (not credited)
    seconds: float


def load_trace(path: Path = TRACE) -> Trace:
    data = json.loads(path.read_text(encoding="utf-8"))
    tests = data["tests"]
    return Trace(
        reached_by={key: {tests[index] for index in unit["reached_by"]} for key, unit in data["units"].items()},
        digests={key: unit["digest"] for key, unit in data["units"].items()},
        tests=len(tests),
        not_passed=data["not_passed"],
        seconds=data["seconds"],
    )


def applying_units(units: list[Unit]) -> list[Unit]:
    """The units that apply some entry (see `citing_units`): the ones the trace keeps, with their digests."""
    applying = {unit.key for code in citing_units(units).values() for unit in code}
    return [unit for unit in units if unit.key in applying]


def stale_units(units: list[Unit], trace: Trace) -> list[str]:
    """The applying units whose source differs from the traced one or that the trace lacks, and traced units that
    apply nothing now."""
    current = {unit.key: unit.digest for unit in applying_units(units)}
    changed = [f"{key} (changed)" for key, digest in current.items() if trace.digests.get(key, digest) != digest]
    new = [f"{key} (not traced)" for key in current if key not in trace.digests]
    gone = [f"{key} (gone, or applies nothing now)" for key in trace.digests if key not in current]
    return sorted(changed + new + gone)


# --- the verdict ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    applied: bool
    code: list[str]  # the units applying it
    via: list[str]  # for a vector no code cites: the entries it names, whose code applies it
    tests: list[str]  # the tests that reach that code and name the ID
    reason: str  # why it does not count, when it does not


def applying_code(rule_id: str, entry: Entry, code: dict[str, list[Unit]]) -> tuple[list[Unit], list[str]]:
    """The code applying an entry: the code citing it; for a test vector no code cites, the code of the entries its
    definition names (a worked example runs the rules it illustrates)."""
    own = code.get(rule_id, [])
    if own or not Entry.is_vector(rule_id):
        return own, []
    via = sorted(name for name in entry.names if code.get(name))
    return sorted({unit for name in via for unit in code[name]}, key=lambda unit: unit.key), via


def judge(
    rule_id: str, applying: tuple[list[Unit], list[str]], trace: Trace, tests: dict[str, set[str]], module_text: str
) -> Verdict:
    code, via = applying
    keys = sorted(unit.key for unit in code)
    if not code:
        vector = " or an entry its definition names" if Entry.is_vector(rule_id) else ""
        where = f" (only module text does: {module_text})" if module_text else ""
        return Verdict(False, keys, via, [], f"{NO_CODE}{vector}{where}")
    reaching = {test for key in keys for test in trace.reached_by.get(key, ())}
    if not reaching:
        return Verdict(False, keys, via, [], NOT_REACHED)
    checking = sorted(test for test in reaching if rule_id in tests.get(test, ()))
    if not checking:
        naming = sum(1 for ids in tests.values() if rule_id in ids)
        return Verdict(
            False, keys, via, [], f"{NOT_CITED} ({len(reaching)} reach it; {naming} other bot-driving tests name it)"
        )
    return Verdict(True, keys, via, checking, "")


def uncovered_reasons(text: str) -> dict[str, str]:
    reasons = {}
    for line in text.splitlines():
        match = re.match(r"^- ((?:COMMON|TEAM|LADDER|FIELD)-[A-Z]+-\d+):\s*(.+)$", line.strip())
        if match:
            reasons[match.group(1)] = match.group(2)
    return reasons


def totals(applied: int, entries: int) -> str:
    return f"Applied by the bot and tested through it: {applied} of {entries}"


def _stale_lines(stale: list[str]) -> list[str]:
    if not stale:
        return ["The trace is of the rule code as it is now.", ""]
    return [
        f"Rule code changed since the trace ({len(stale)}; re-trace to count afresh):",
        "",
        *(f"- `{key}`" for key in stale),
        "",
    ]


def render(
    rules: dict[str, str], verdicts: dict[str, Verdict], reasons: dict[str, str], trace: Trace, stale: list[str]
) -> str:
    applied = [rule_id for rule_id in rules if verdicts[rule_id].applied]
    no_behaviour = [rule_id for rule_id in rules if rule_id in reasons]
    missing = [rule_id for rule_id in rules if not verdicts[rule_id].applied and rule_id not in reasons]
    lines = [
        "# Rule coverage",
        "",
        "Generated by `docs/rule_coverage.py` from `../shared/rules/CATALOG.md`, `docs/rule-trace.json`,",
        "`docs/uncovered-rules.md` and the tests; do not edit. A catalog entry (rules, ambiguities and test vectors",
        "alike) counts when the rule code citing its ID (a function or class of `bot/rules/`, or of `bot/services/`",
        "when no rules code cites it) was reached by a passing test that drives the bot or a service (tests/e2e,",
        "tests/robustness, tests/storage, tests/exchange) and that same test names the ID in its own function.",
        "Module and class docstrings are not inherited. A test vector no code cites is applied by the code of the",
        "entries its definition names. Entries without behaviour, each with its reason, live in",
        "`docs/uncovered-rules.md`.",
        "",
        "Why tracing and not per-rule mutation: running the bot-driving tests (half an hour traced on two shared",
        "cores) against mutants of each of the ~380 functions and classes applying an entry would take days. One",
        "traced run (a `sys.settrace` hook that looks only at function entries) tells which rule code each test",
        "reaches; a reaching test that names the ID was written to check that rule, and stands in for the test that",
        "fails when it breaks. The rules engine's mutation score (`python -m bench.mutation`, docs/mutation.md)",
        "measures that directly; it is not part of this count.",
        "",
        "After changing rule code, regenerate this page (its test fails until then): it lists the rule functions and",
        "classes changed since the trace, whose entries still count as that trace saw them. Re-trace (nothing in CI",
        "runs it; half an hour) to count them afresh, and after merging work that changes what the bot calls:",
        "",
        f"    {TRACE_COMMAND}",
        f"    {RENDER_COMMAND}",
        "",
        f"The trace ran {trace.tests} test functions in {trace.seconds / 60:.0f} minutes;"
        f" {len(trace.not_passed)} did not pass under it and credit nothing.",
        "",
        *_stale_lines(stale),
        totals(len(applied), len(rules)),
        "",
        f"No behaviour (`docs/uncovered-rules.md`): {len(no_behaviour)} entries",
        "",
        f"Not yet applied and tested through the bot: {len(missing)} entries",
        "",
    ]
    for reason in (NO_CODE, NOT_REACHED, NOT_CITED):
        ids = [rule_id for rule_id in missing if verdicts[rule_id].reason.startswith(reason)]
        if ids:
            lines += [f"- {reason} ({len(ids)}): {', '.join(ids)}"]
    lines.append("")
    for fmt in FORMATS:
        ids = [rule_id for rule_id in rules if rule_id.startswith(fmt + "-")]
        lines += [
            f"## {fmt}",
            "",
            totals(sum(1 for rule_id in ids if verdicts[rule_id].applied), len(ids)),
            "",
            "| rule | what | rule code | tested through the bot by |",
            "|---|---|---|---|",
        ]
        for rule_id in ids:
            verdict = verdicts[rule_id]
            lines.append(
                f"| {rule_id} | {rules[rule_id]} | {_code_cell(verdict)} | {_status(verdict, reasons.get(rule_id))} |"
            )
        lines.append("")
    return "\n".join(lines)


def _status(verdict: Verdict, reason: str | None) -> str:
    if verdict.applied:
        flag = f" (**listed as without behaviour**: {reason})" if reason else ""
        return _cell(verdict.tests, 4) + flag
    if reason:
        return f"no behaviour: {reason.removeprefix('no behaviour: ')}"
    return f"**not yet**: {verdict.reason}"


def _code_cell(verdict: Verdict) -> str:
    via = f"(the code of {', '.join(verdict.via)})<br>" if verdict.via else ""
    return via + _cell(verdict.code, 2)


def _cell(names: list[str], shown: int) -> str:
    more = f"<br>… {len(names) - shown} more" if len(names) > shown else ""
    return "<br>".join(f"`{name}`" for name in names[:shown]) + more


def build(trace: Trace | None = None, units: list[Unit] | None = None) -> str:
    entries = catalog_entries(CATALOG.read_text(encoding="utf-8"))
    reasons = uncovered_reasons(UNCOVERED.read_text(encoding="utf-8")) if UNCOVERED.exists() else {}
    trace = trace or load_trace()
    units = units if units is not None else rule_units()
    code = citing_units(units)
    modules = module_citations()
    tests = {test: ids for folder in BOT_DRIVING_TESTS for test, ids in cited_by_tests(ROOT / folder).items()}
    verdicts = {
        rule_id: judge(
            rule_id, applying_code(rule_id, entry, code), trace, tests, ", ".join(f"`{p}`" for p in modules[rule_id])
        )
        for rule_id, entry in entries.items()
    }
    summaries = {rule_id: entry.summary for rule_id, entry in entries.items()}
    return render(summaries, verdicts, reasons, trace, stale_units(units, trace))


if __name__ == "__main__":
    OUTPUT.write_text(build(), encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(ROOT)}", file=sys.stderr)
