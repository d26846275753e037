"""Trace which rule code the tests that drive the bot reach: writes docs/rule-trace.json for docs/rule_coverage.py.

Runs tests/e2e, tests/robustness, tests/storage and tests/exchange (never tests/unit) like `manage.py test` does:
in parallel, then the tests marked `alone` in one process. While a test sets up and runs, a `sys.settrace` hook
that only looks at a frame's code object when a function is entered (it returns None, so no line events) notes
which functions of bot/rules and bot/services start; a dataclass's or NamedTuple's generated `__init__`/`__new__`
counts for its class. Every module of bot/ and cogs/ is imported before the first test, and a call straight from
a module's own code does not count, so a table a module builds from rule code as it is imported credits no test.
Each function or class applying a catalog entry (see docs/rule_coverage.py) is then stored with the passing test
functions that reached it, and a digest of its source, so the doc's test can tell which rule code changed since
the trace.
Rule code run by a bot in a child process (tests/robustness starts some) is not seen.

Not run in CI. After changing rule code (17 to 29 minutes on two cores shared with other work):

    nice -n 10 .venv/bin/python docs/rule_trace.py && .venv/bin/python docs/rule_coverage.py

A subset, to try it: `.venv/bin/python docs/rule_trace.py --out /tmp/trace.json tests/e2e/field/test_night.py`.
Tests that fail under the tracer (Discord's 3 s deadline on a loaded machine) credit nothing; re-run them alone and
add their credits with `--update -n 0 NODEID…`.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import pkgutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Generator
from pathlib import Path
from types import FrameType, FunctionType
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import rule_coverage

ROOT = rule_coverage.ROOT
IMPORTED_FIRST = ("bot", "cogs")  # every module of these, before the first test
TRACE_DIR = "RULE_TRACE_DIR"  # set by main(): the pytest processes loading this module as a plugin trace into it

# --- the pytest plugin (`-p rule_trace`), in every test process ----------------------------------------------------

_files: frozenset[str] = frozenset()  # co_filename of every rule code module
_generated: dict[int, tuple[str, int]] = {}  # id(code) of a generated __init__/__new__ → its class's (file, line)
_hits: set[tuple[str, int]] = set()  # (co_filename, co_firstlineno) entered since the running test began
_results: dict[str, dict[str, Any]] = {}  # test id → outcome and hits
_lost: list[str] = []  # tests during which something else replaced the trace function
_active = False


def _trace(frame: FrameType, event: str, arg: object) -> None:
    code = frame.f_code
    filename = code.co_filename
    if filename in _files:
        # a function (not a module or class body) and not called by a module's own code as it is imported
        if code.co_flags & inspect.CO_NEWLOCALS and not _at_import(frame):
            _hits.add((filename, code.co_firstlineno))
    elif filename == "<string>":
        hit = _generated.get(id(code))
        if hit is not None and not _at_import(frame):
            _hits.add(hit)


def _at_import(frame: FrameType) -> bool:
    caller = frame.f_back
    return caller is not None and caller.f_code.co_name == "<module>"


def _rule_code_files() -> list[Path]:
    return [path for folder in rule_coverage.RULE_CODE for path in sorted((ROOT / folder).rglob("*.py"))]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _install() -> None:
    sys.settrace(_trace)
    threading.settrace(_trace)


def pytest_configure(config: pytest.Config) -> None:
    global _active, _files
    controller = getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput")
    _active = bool(os.environ.get(TRACE_DIR)) and not controller
    if _active:
        paths = _rule_code_files()
        _files = frozenset({str(path) for path in paths} | {os.path.realpath(path) for path in paths})


def pytest_collection_finish(session: pytest.Session) -> None:
    if not _active:
        return
    for package in IMPORTED_FIRST:  # what a module builds from rule code as it is imported is no test's doing
        for module in pkgutil.walk_packages(importlib.import_module(package).__path__, f"{package}."):
            if not module.name.endswith("__main__"):
                importlib.import_module(module.name)
    starts = {unit.key: unit.start for unit in rule_coverage.rule_units()}
    for path in _rule_code_files():
        module = importlib.import_module(_module_name(path))
        relative = path.relative_to(ROOT).as_posix()
        for cls in _classes(module):
            start = starts.get(f"{relative}::{cls.__qualname__}")
            for name in ("__init__", "__new__"):
                function = vars(cls).get(name)
                function = getattr(function, "__func__", function)
                if start and isinstance(function, FunctionType) and function.__code__.co_filename not in _files:
                    _generated[id(function.__code__)] = (str(path), start)
    _install()


def _classes(module: object) -> list[type]:
    found: list[type] = []
    pending = [value for value in vars(module).values() if isinstance(value, type)]
    while pending:
        cls = pending.pop()
        if cls.__module__ == getattr(module, "__name__", None) and cls not in found:
            found.append(cls)
            pending += [value for value in vars(cls).values() if isinstance(value, type)]
    return found


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    if _active:
        if sys.gettrace() is not _trace:
            _install()
        _hits.clear()
        _results[item.nodeid] = {"outcome": "passed", "hits": set()}
    return (yield)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, None, None]:
    if _active and item.nodeid in _results:
        _results[item.nodeid]["hits"] = set(_hits)
        if sys.gettrace() is not _trace:
            _lost.append(item.nodeid)
            _install()
    return (yield)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    result = _results.get(report.nodeid)
    if _active and result is not None and report.outcome != "passed" and result["outcome"] == "passed":
        result["outcome"] = report.outcome if report.when != "teardown" else "failed"


def pytest_sessionfinish(session: pytest.Session) -> None:
    if not _active:
        return
    sys.settrace(None)
    threading.settrace(None)  # type: ignore[arg-type]
    if not _results:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    out = Path(os.environ[TRACE_DIR]) / f"{worker}-{os.getpid()}.json"
    results = {test: {**result, "hits": sorted(result["hits"])} for test, result in _results.items()}
    out.write_text(json.dumps({"results": results, "lost": _lost}), encoding="utf-8")


# --- the script ------------------------------------------------------------------------------------------------


def function_of(nodeid: str) -> str:
    """'tests/x.py::TestA::test_b[1-2]' → 'tests/x.py::TestA::test_b'."""
    path, _, name = nodeid.partition("::")
    return f"{path}::{name.split('[')[0]}"


def merge(parts: list[dict[str, Any]], units: list[rule_coverage.Unit], seconds: float) -> dict[str, Any]:
    by_file: dict[str, list[rule_coverage.Unit]] = defaultdict(list)
    for unit in units:
        by_file[unit.path].append(unit)
    reached: dict[str, set[str]] = defaultdict(set)
    passed: set[str] = set()
    passed_nodeids: list[str] = []
    not_passed: list[str] = []
    skipped = 0
    for part in parts:
        for nodeid, result in part["results"].items():
            if result["outcome"] == "skipped":
                skipped += 1
                continue
            if result["outcome"] != "passed":
                not_passed.append(nodeid)
                continue
            test = function_of(nodeid)
            passed.add(test)
            passed_nodeids.append(nodeid)
            for filename, line in result["hits"]:
                relative = Path(os.path.relpath(os.path.realpath(filename), os.path.realpath(ROOT))).as_posix()
                for unit in by_file.get(relative, ()):
                    if unit.start <= line <= unit.end:
                        reached[unit.key].add(test)
    tests = sorted(passed)
    index = {test: number for number, test in enumerate(tests)}
    return {
        "command": rule_coverage.TRACE_COMMAND,
        "seconds": round(seconds),
        "skipped": skipped,
        "not_passed": sorted(not_passed),
        "lost_trace": sorted(nodeid for part in parts for nodeid in part["lost"]),
        "passed": sorted(passed_nodeids),
        "tests": tests,
        "units": {
            unit.key: {"digest": unit.digest, "reached_by": sorted(index[test] for test in reached[unit.key])}
            for unit in rule_coverage.applying_units(units)
        },
    }


def update(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The old trace with the credits of a re-run of some of its tests added (for a test that failed under load).
    Only for unchanged rule code: a unit whose digest differs needs a whole trace."""
    changed = [key for key, unit in new["units"].items() if old["units"].get(key, unit)["digest"] != unit["digest"]]
    if changed or old["units"].keys() != new["units"].keys():
        raise SystemExit(f"rule code changed since {rule_coverage.TRACE.name}: trace everything. {changed}")
    tests = sorted(set(old["tests"]) | set(new["tests"]))
    index = {test: number for number, test in enumerate(tests)}
    passed = set(new["passed"])
    units = {}
    for key, unit in old["units"].items():
        credited = {old["tests"][i] for i in unit["reached_by"]} | {
            new["tests"][i] for i in new["units"][key]["reached_by"]
        }
        units[key] = {"digest": unit["digest"], "reached_by": sorted(index[test] for test in credited)}
    return {
        **old,
        "not_passed": sorted({*old["not_passed"], *new["not_passed"]} - passed),
        "tests": tests,
        "units": units,
    }


def dump(trace: dict[str, Any]) -> str:
    """JSON with one test or one unit a line, so a re-trace diffs readably."""
    head = {key: value for key, value in trace.items() if key not in ("passed", "tests", "units")}
    lines = ["{"]
    lines += [f"  {json.dumps(key)}: {json.dumps(value)}," for key, value in head.items()]
    lines.append('  "tests": [')
    lines += [f"    {json.dumps(test)}," for test in trace["tests"]]
    if trace["tests"]:
        lines[-1] = lines[-1].rstrip(",")
    lines += ["  ],", '  "units": {']
    lines += [f"    {json.dumps(key)}: {json.dumps(unit)}," for key, unit in trace["units"].items()]
    if trace["units"]:
        lines[-1] = lines[-1].rstrip(",")
    lines += ["  }", "}", ""]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=list(rule_coverage.BOT_DRIVING_TESTS))
    parser.add_argument("--workers", "-n", default="2", help="pytest-xdist workers for the parallel part (0: none)")
    parser.add_argument("--out", type=Path, default=rule_coverage.TRACE)
    parser.add_argument(
        "--update", action="store_true", help="add the credits of the tests given (e.g. ones that failed) to --out"
    )
    args = parser.parse_args(argv)
    unit_tests = [path for path in args.paths if Path(path).resolve().is_relative_to(ROOT / "tests" / "unit")]
    if unit_tests:
        parser.error(f"unit tests do not drive the bot: {unit_tests}")
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as directory:
        env = {**os.environ, TRACE_DIR: directory, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "docs")])}
        pytest_command = [sys.executable, "-m", "pytest", "-p", "rule_trace", "-p", "no:cacheprovider", "-q"]
        parallel = ["-p", "no:xdist"] if args.workers == "0" else ["-n", args.workers, "--dist", "worksteal"]
        for chosen in ([*parallel, "-m", "not alone"], ["-p", "no:xdist", "-m", "alone"]):
            code = subprocess.call([*pytest_command, *chosen, *args.paths], cwd=ROOT, env=env)
            print(f"pytest {' '.join(chosen)}: exit code {code}", file=sys.stderr)
        parts = [json.loads(path.read_text(encoding="utf-8")) for path in sorted(Path(directory).glob("*.json"))]
    trace = merge(parts, rule_coverage.rule_units(), time.monotonic() - started)
    if args.update:
        trace = update(json.loads(args.out.read_text(encoding="utf-8")), trace)
    args.out.write_text(dump(trace), encoding="utf-8")
    reached = sum(1 for unit in trace["units"].values() if unit["reached_by"])
    print(
        f"wrote {args.out}: {len(trace['tests'])} test functions passed, {len(trace['not_passed'])} tests did not,"
        f" {reached} of {len(trace['units'])} applying units reached, {trace['seconds']} s",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
