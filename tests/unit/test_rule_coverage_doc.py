"""docs/rule-coverage.md must match the catalog and the tests as they are now."""

import importlib.util
import os
from pathlib import Path

import pytest

GENERATOR = Path(__file__).resolve().parents[2] / "docs" / "rule_coverage.py"


def test_the_rule_coverage_table_is_up_to_date() -> None:
    spec = importlib.util.spec_from_file_location("rule_coverage", GENERATOR)
    assert spec is not None and spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    if not generator.CATALOG.exists():
        missing = f"the rule catalog is not at {generator.CATALOG} (shared/ beside the repository)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(missing)
        pytest.skip(missing)
    assert generator.OUTPUT.read_text(encoding="utf-8") == generator.build(), (
        "docs/rule-coverage.md is stale: run .venv/bin/python docs/rule_coverage.py"
    )
