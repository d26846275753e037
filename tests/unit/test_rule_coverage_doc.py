"""docs/rule-coverage.md must match the catalog, the last rule trace (docs/rule-trace.json), docs/uncovered-rules.md
and the tests' citations as they are now, and the trace must be of the rule code as it is now (issue 16)."""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"


@cache
def generator() -> ModuleType:
    sys.path.insert(0, str(DOCS))  # rule_coverage imports nothing of its own, but keep it importable by name
    spec = importlib.util.spec_from_file_location("rule_coverage", DOCS / "rule_coverage.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("rule_coverage", module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def rc() -> ModuleType:
    module = generator()
    if not module.CATALOG.exists():
        missing = f"the rule catalog is not at {module.CATALOG} (shared/ beside the repository)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(missing)
        pytest.skip(missing)
    return module


def test_the_rule_coverage_page_is_up_to_date(rc: ModuleType) -> None:
    assert rc.OUTPUT.read_text(encoding="utf-8") == rc.build(), (
        f"docs/rule-coverage.md is stale: run {rc.RENDER_COMMAND}"
    )


def test_the_page_names_the_rule_code_changed_since_the_trace(rc: ModuleType) -> None:
    """A change to rule code after the trace is on the page (regenerated, or the test above fails), so a reader
    knows which entries count from an older trace; a re-trace clears the list."""
    page = rc.OUTPUT.read_text(encoding="utf-8")
    stale = rc.stale_units(rc.rule_units(), rc.load_trace())
    listed = re.findall(r"^- `(bot/[^`]+)`$", page, re.MULTILINE)
    assert listed == stale
    assert ("The trace is of the rule code as it is now." in page) == (not stale)


def test_the_totals_count_every_catalog_entry(rc: ModuleType) -> None:
    page = rc.OUTPUT.read_text(encoding="utf-8")
    entries = rc.catalog_entries(rc.CATALOG.read_text(encoding="utf-8"))
    totals = re.findall(r"^Applied by the bot and tested through it: (\d+) of (\d+)$", page, re.MULTILINE)
    assert len(totals) == 1 + len(rc.FORMATS)
    (applied, every), *per_format = ((int(n), int(m)) for n, m in totals)
    assert every == len(entries)
    assert [m for _, m in per_format] == [sum(1 for i in entries if i.startswith(f + "-")) for f in rc.FORMATS]
    assert applied == sum(n for n, _ in per_format)
    without = len(rc.uncovered_reasons(rc.UNCOVERED.read_text(encoding="utf-8")))
    missing = re.search(r"^Not yet applied and tested through the bot: (\d+) entries$", page, re.MULTILINE)
    assert missing is not None and int(missing.group(1)) == every - without - applied


def test_entries_without_behaviour_are_catalog_entries_no_code_applies(rc: ModuleType) -> None:
    """docs/uncovered-rules.md is for entries with no behaviour: rule code citing one means it has some."""
    reasons = rc.uncovered_reasons(rc.UNCOVERED.read_text(encoding="utf-8"))
    entries = rc.catalog_entries(rc.CATALOG.read_text(encoding="utf-8"))
    code = rc.citing_units(rc.rule_units())
    assert set(reasons) <= set(entries)
    assert {rule_id: [unit.key for unit in code[rule_id]] for rule_id in reasons if rule_id in code} == {}


# --- the mechanism, on made-up code -------------------------------------------------------------------------------


def test_citations_spell_out_lists_and_ranges() -> None:
    rc = generator()
    assert rc.cited_ids("FIELD-MALF-2, LADDER-PO-1/2/3 and TEAM-STAND-1..3.") == {
        "FIELD-MALF-2",
        "LADDER-PO-1",
        "LADDER-PO-2",
        "LADDER-PO-3",
        "TEAM-STAND-1",
        "TEAM-STAND-2",
        "TEAM-STAND-3",
    }
    assert rc.cited_ids("TEAM-STAND-1..90") == {"TEAM-STAND-1"}  # a typo, not ninety citations


def test_a_function_cites_only_what_its_own_text_names(tmp_path: Path) -> None:
    rc = generator()
    module = tmp_path / "bot" / "rules" / "made_up.py"
    module.parent.mkdir(parents=True)
    module.write_text(
        '"""Module text: FIELD-PEN-1."""\n'
        "class Rules:\n"
        '    """Class text: FIELD-PEN-2."""\n'
        "\n"
        "    limit = 3  # FIELD-PEN-3\n"
        "\n"
        "    def check(self) -> None:\n"
        "        # FIELD-PEN-4\n"
        '        raise ValueError("FIELD-PEN-5")\n'
        "\n"
        "\n"
        "@staticmethod  # FIELD-PEN-6\n"
        "def alone() -> None:\n"
        "    def inner() -> None:\n"
        '        """FIELD-PEN-7"""\n'
        "    return None\n",
        encoding="utf-8",
    )
    units = {unit.key.split("::")[1]: unit for unit in rc.units_in(module, tmp_path)}
    assert {name: set(unit.ids) for name, unit in units.items()} == {
        "Rules": {"FIELD-PEN-2", "FIELD-PEN-3"},
        "Rules.check": {"FIELD-PEN-4", "FIELD-PEN-5"},
        "alone": {"FIELD-PEN-6"},
        "alone.inner": {"FIELD-PEN-7"},
    }
    assert (units["alone"].start, units["alone"].end) == (12, 16)  # a code object's first line is its decorator's
    assert rc.module_citations(tmp_path) == {"FIELD-PEN-1": ["bot/rules/made_up.py"]}


def test_an_entry_counts_only_when_a_test_reaching_its_code_names_it() -> None:
    rc = generator()
    unit = rc.Unit("bot/rules/x.py::f", "bot/rules/x.py", 1, 2, frozenset({"FIELD-PEN-1"}), "d")
    trace = rc.Trace(
        reached_by={"bot/rules/x.py::f": {"tests/e2e/a.py::test_a"}}, digests={}, tests=1, not_passed=[], seconds=0
    )
    untouched = rc.Trace(reached_by={}, digests={}, tests=1, not_passed=[], seconds=0)
    naming = {"tests/e2e/a.py::test_a": {"FIELD-PEN-1"}}
    elsewhere = {"tests/e2e/a.py::test_a": set(), "tests/e2e/b.py::test_b": {"FIELD-PEN-1"}}
    assert rc.judge("FIELD-PEN-1", ([unit], []), trace, naming, "").applied
    assert rc.judge("FIELD-PEN-1", ([unit], []), trace, naming, "").tests == ["tests/e2e/a.py::test_a"]
    assert rc.judge("FIELD-PEN-1", ([unit], []), untouched, naming, "").reason == rc.NOT_REACHED
    assert rc.judge("FIELD-PEN-1", ([unit], []), trace, elsewhere, "").reason.startswith(rc.NOT_CITED)
    assert rc.judge("FIELD-PEN-1", ([], []), trace, naming, "").reason == rc.NO_CODE


def test_rules_code_comes_before_services_code_and_vectors_use_the_rules_they_name() -> None:
    rc = generator()
    rules = rc.Unit("bot/rules/x.py::f", "bot/rules/x.py", 1, 2, frozenset({"FIELD-PEN-1"}), "d")
    service = rc.Unit("bot/services/y.py::g", "bot/services/y.py", 1, 2, frozenset({"FIELD-PEN-1", "FIELD-PEN-2"}), "d")
    code = rc.citing_units([rules, service])
    assert code == {"FIELD-PEN-1": [rules], "FIELD-PEN-2": [service]}
    vector = rc.Entry("a worked example", frozenset({"FIELD-PEN-1", "FIELD-AMB-9"}))
    assert rc.applying_code("FIELD-TV-1", vector, code) == ([rules], ["FIELD-PEN-1"])
    assert rc.applying_code("FIELD-PEN-9", vector, code) == ([], [])  # a rule needs code of its own


def test_a_changed_or_new_citing_unit_makes_the_trace_stale() -> None:
    rc = generator()
    unit = rc.Unit("bot/rules/x.py::f", "bot/rules/x.py", 1, 2, frozenset({"FIELD-PEN-1"}), "new")
    uncited = rc.Unit("bot/rules/x.py::g", "bot/rules/x.py", 3, 4, frozenset(), "any")
    # a service citing what rules code applies applies nothing: its changes do not matter
    echo = rc.Unit("bot/services/y.py::h", "bot/services/y.py", 3, 4, frozenset({"FIELD-PEN-1"}), "any")
    traced = rc.Trace(reached_by={}, digests={"bot/rules/x.py::f": "old"}, tests=0, not_passed=[], seconds=0)
    assert rc.stale_units([unit, uncited, echo], traced) == ["bot/rules/x.py::f (changed)"]
    assert rc.stale_units([uncited], traced) == ["bot/rules/x.py::f (gone, or applies nothing now)"]
    assert rc.stale_units([unit], rc.Trace({}, {}, 0, [], 0)) == ["bot/rules/x.py::f (not traced)"]
    assert rc.stale_units([unit], rc.Trace({}, {"bot/rules/x.py::f": "new"}, 0, [], 0)) == []


def test_a_test_cites_in_its_own_function_only(tmp_path: Path) -> None:
    rc = generator()
    tests = tmp_path / "tests" / "e2e"
    tests.mkdir(parents=True)
    (tests / "test_made_up.py").write_text(
        '"""Module docstring: FIELD-PEN-1."""\n'
        "import pytest\n"
        "\n"
        "\n"
        "class TestGroup:\n"
        '    """Class docstring: FIELD-PEN-2."""\n'
        "\n"
        "    def test_one(self) -> None:\n"
        '        assert "FIELD-PEN-3"\n'
        "\n"
        "\n"
        '@pytest.mark.parametrize("rule", ["FIELD-PEN-4"])\n'
        "def test_two(rule: str) -> None:\n"
        "    # FIELD-PEN-5\n"
        "    pass\n"
        "    # FIELD-PEN-6 after the last statement is no citation\n",
        encoding="utf-8",
    )
    assert rc.cited_by_tests(tmp_path / "tests", tmp_path) == {
        "tests/e2e/test_made_up.py::TestGroup::test_one": {"FIELD-PEN-3"},
        "tests/e2e/test_made_up.py::test_two": {"FIELD-PEN-4", "FIELD-PEN-5"},
    }
    assert rc.drives_the_bot("tests/e2e/test_made_up.py::test_two")
    assert not rc.drives_the_bot("tests/unit/test_scores.py::test_accepted_forms")


@cache
def tracer_script() -> ModuleType:
    generator()
    spec = importlib.util.spec_from_file_location("rule_trace", DOCS / "rule_trace.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tracer_credits_the_passing_tests_that_entered_a_unit() -> None:
    tracer = tracer_script()
    root = str(tracer.ROOT)
    units = [
        generator().Unit("bot/rules/x.py::C", "bot/rules/x.py", 1, 9, frozenset({"FIELD-PEN-1"}), "c"),
        generator().Unit("bot/rules/x.py::C.m", "bot/rules/x.py", 4, 9, frozenset({"FIELD-PEN-2"}), "m"),
        generator().Unit("bot/rules/x.py::f", "bot/rules/x.py", 11, 12, frozenset({"FIELD-PEN-3"}), "f"),
        generator().Unit("bot/rules/x.py::g", "bot/rules/x.py", 14, 15, frozenset(), "g"),
    ]
    parts = [
        {
            "results": {
                "tests/e2e/a.py::test_a[1]": {"outcome": "passed", "hits": [[f"{root}/bot/rules/x.py", 4]]},
                "tests/e2e/a.py::test_a[2]": {"outcome": "passed", "hits": []},
                "tests/e2e/a.py::test_b": {"outcome": "failed", "hits": [[f"{root}/bot/rules/x.py", 11]]},
                "tests/e2e/a.py::test_c": {"outcome": "skipped", "hits": []},
            },
            "lost": [],
        }
    ]
    trace = tracer.merge(parts, units, 1.0)
    assert trace["tests"] == ["tests/e2e/a.py::test_a"]
    assert trace["not_passed"] == ["tests/e2e/a.py::test_b"] and trace["skipped"] == 1
    assert trace["units"] == {  # a method run reaches its class; a failed test credits nothing; g applies nothing
        "bot/rules/x.py::C": {"digest": "c", "reached_by": [0]},
        "bot/rules/x.py::C.m": {"digest": "m", "reached_by": [0]},
        "bot/rules/x.py::f": {"digest": "f", "reached_by": []},
    }


def test_a_re_run_adds_its_credits_to_the_trace_of_the_same_code() -> None:
    tracer = tracer_script()
    old = {
        "seconds": 60,
        "not_passed": ["tests/e2e/a.py::test_b", "tests/e2e/a.py::test_c[x]"],
        "tests": ["tests/e2e/a.py::test_a"],
        "units": {"k::f": {"digest": "f", "reached_by": [0]}, "k::g": {"digest": "g", "reached_by": []}},
    }
    new = {
        "passed": ["tests/e2e/a.py::test_b"],
        "not_passed": [],
        "tests": ["tests/e2e/a.py::test_b"],
        "units": {"k::f": {"digest": "f", "reached_by": []}, "k::g": {"digest": "g", "reached_by": [0]}},
    }
    assert tracer.update(old, new) == {
        "seconds": 60,
        "not_passed": ["tests/e2e/a.py::test_c[x]"],
        "tests": ["tests/e2e/a.py::test_a", "tests/e2e/a.py::test_b"],
        "units": {"k::f": {"digest": "f", "reached_by": [0]}, "k::g": {"digest": "g", "reached_by": [1]}},
    }
    new["units"]["k::g"]["digest"] = "edited"
    with pytest.raises(SystemExit, match="trace everything"):
        tracer.update(old, new)
