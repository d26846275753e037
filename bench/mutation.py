"""`python -m bench.mutation [--max-children N]`: the mutation score of the rules engine (`bot/rules/`), with mutmut
as configured in pyproject.toml ([tool.mutmut]), written to docs/mutation.md. Not part of CI: a full run takes the
better part of an hour on two cores. mutmut keeps its work in `mutants/`, so a run stopped half way goes on where it
stopped, and a later run re-tests only the functions changed since.

The score counts a mutant as caught when a test failed (killed) or hung past mutmut's timeout; every other mutant
that ran counts against it, including those no test reached ("no tests"), except the equivalent ones: mutants that
change no behaviour, each listed with why in docs/mutation-equivalents.md (`- `name`: reason`). Skipped mutants are
left out. `--survivors` re-tests only the mutants not caught last time (after new tests)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MUTMUT = Path(sys.executable).with_name("mutmut")
REPORT = ROOT / "docs" / "mutation.md"
EQUIVALENTS = ROOT / "docs" / "mutation-equivalents.md"
CAUGHT = {"killed", "timeout", "caught by type check"}
LEFT_OUT = {"skipped", "not checked"}
LISTED_SURVIVORS = 60


def module_of(mutant: str) -> str:
    """`bot.rules.team.lineup.x_start_game__mutmut_3` (or `…xǁClassǁmethod__mutmut_3`) → `bot.rules.team.lineup`."""
    parts = mutant.split("__mutmut_")[0].split(".")
    return ".".join(parts[:-1])


def read_results() -> dict[str, str]:
    """Every mutant mutmut has a verdict for, with that verdict (killed, survived, no tests, timeout, …)."""
    listed = subprocess.run([MUTMUT, "results", "--all", "true"], cwd=ROOT, capture_output=True, text=True, check=True)
    verdicts = {}
    for line in listed.stdout.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and "__mutmut_" in name:
            verdicts[name] = status
    return verdicts


def equivalents() -> dict[str, str]:
    """The mutants shown to change no behaviour, with the reason, from docs/mutation-equivalents.md."""
    if not EQUIVALENTS.exists():
        return {}
    found = {}
    for line in EQUIVALENTS.read_text(encoding="utf-8").splitlines():
        if line.startswith("- `") and "`: " in line:
            name, _, reason = line[3:].partition("`: ")
            found[name] = reason
    return found


def score(verdicts: dict[str, str], equivalent: dict[str, str] | None = None) -> tuple[int, int]:
    """Caught and counted mutants; an equivalent one that survived counts neither way."""
    equivalent = equivalent or {}
    counted = [
        status
        for name, status in verdicts.items()
        if status not in LEFT_OUT and not (name in equivalent and status not in CAUGHT)
    ]
    return sum(status in CAUGHT for status in counted), len(counted)


def report(verdicts: dict[str, str], minutes: float, children: int) -> str:
    equivalent = equivalents()
    caught, counted = score(verdicts, equivalent)
    by_status = Counter(verdicts.values())
    by_module: dict[str, Counter[str]] = defaultdict(Counter)
    for name, status in verdicts.items():
        by_module[module_of(name)][status] += 1
    uncaught = sorted(name for name, status in verdicts.items() if status not in CAUGHT | LEFT_OUT)
    survivors = [name for name in uncaught if name not in equivalent]
    lines = [
        "# Mutation score of the rules engine",
        "",
        f"Mutation score: {100 * caught / counted:.1f} %" if counted else "Mutation score: n/a (no mutants ran)",
        "",
        f"Produced by `python -m bench.mutation --max-children {children}` on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC "
        f"in {minutes:.1f} min (mutmut {_mutmut_version()}, configured in pyproject.toml's [tool.mutmut]: every "
        "function of `bot/rules/`, killed by the unit tests in `tests/unit/`). The time is this run's: mutmut keeps "
        "the verdicts of earlier runs in `mutants/` and re-tests a mutant only when its function changed, or with "
        "`--survivors`; `rm -rf mutants` first for a run from scratch.",
        "",
        f"{caught} of {counted} mutants caught (killed or timed out); "
        f"{len(uncaught) - len(survivors)} more survived but change no behaviour (docs/mutation-equivalents.md). "
        + "All verdicts: "
        + ", ".join(f"{status}: {count}" for status, count in sorted(by_status.items())),
        "",
        "| module | mutants | caught | score |",
        "|---|---|---|---|",
    ]
    for module, counts in sorted(by_module.items()):
        ran = sum(count for status, count in counts.items() if status not in LEFT_OUT)
        hit = sum(counts[status] for status in CAUGHT)
        share = f"{100 * hit / ran:.0f} %" if ran else "–"
        lines.append(f"| `{module}` | {ran} | {hit} | {share} |")
    lines += ["", f"## Mutants not caught ({len(survivors)})", ""]
    lines += [
        "Each is still to be killed by a new test or shown to change no behaviour.",
        "`.venv/bin/mutmut show NAME` prints a mutant's diff.",
        "",
    ]
    lines += [f"- `{name}`: {verdicts[name]}" for name in survivors[:LISTED_SURVIVORS]]
    if len(survivors) > LISTED_SURVIVORS:
        lines.append(f"- … and {len(survivors) - LISTED_SURVIVORS} more (`.venv/bin/mutmut results`)")
    return "\n".join(lines) + "\n"


def _mutmut_version() -> str:
    from importlib.metadata import version

    return version("mutmut")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.mutation", description=__doc__)
    parser.add_argument("--max-children", type=int, default=os.cpu_count() or 1, help="mutants tested at once")
    parser.add_argument("--report-only", action="store_true", help="write the report from the last run's verdicts")
    parser.add_argument("--survivors", action="store_true", help="re-test only the mutants not caught last time")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    if not args.report_only:
        again = [name for name, status in read_results().items() if status not in CAUGHT] if args.survivors else []
        run = [str(MUTMUT), "run", "--max-children", str(args.max_children), *again]
        subprocess.run(run, cwd=ROOT, check=False)
    verdicts = read_results()
    if not score(verdicts)[1]:
        print("No mutant has a verdict yet: see mutmut's output above (the unmutated tests must pass first).")
        return 1
    REPORT.write_text(report(verdicts, (time.perf_counter() - began) / 60, args.max_children))
    caught, counted = score(verdicts, equivalents())
    print(f"Mutation score: {100 * caught / counted:.1f} % ({caught} of {counted}); written to {REPORT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
