"""`pinleague ukpl-ratings` on a few real UKPL meets: the figures are printed and each lies in [0, 1]."""

import csv
import os
import re
from pathlib import Path

import pytest

from bot import ukpl_ratings
from bot.cli import _parser

DATA = ukpl_ratings.DEFAULT_DATA
REGION = "6"  # the Scottish league: small meets, so three seasons run in well under a second
needs_data = pytest.mark.skipif(
    not (DATA / "scores.csv").exists() and os.environ.get("CI") != "true", reason=f"no UKPL data at {DATA}"
)


def _subset(target: Path) -> None:
    """The region's meets of seasons 9–11: season 9 gives the later ones players with 3 earlier meets."""
    with (DATA / "competitions.csv").open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        rows = [r for r in reader if r["region_id"] == REGION and 9 <= int(r["season_number"]) <= 11]
        fields = reader.fieldnames or []
    kept = {r["competition_id"] for r in rows}
    _write(target / "competitions.csv", fields, rows)
    for name in ("scores.csv", "results.csv"):  # numbers only, no quoted commas: split lines, faster than csv
        header, *lines = (DATA / name).read_text(encoding="utf-8").splitlines(keepends=True)
        column = header.rstrip("\n").split(",").index("competition_id")
        rows = [line for line in lines if line.split(",", column + 1)[column] in kept]
        (target / name).write_text(header + "".join(rows), encoding="utf-8")
    (target / "exact_meets.txt").write_text("", encoding="utf-8")


def _write(path: Path, fields: list[str] | tuple[str, ...], rows: list[dict[str, str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(fields))
        writer.writeheader()
        writer.writerows(rows)


def test_the_command_is_registered():
    args = _parser().parse_args(["ukpl-ratings", "--limit", "5"])
    assert (args.command, args.limit) == ("ukpl-ratings", 5)


@needs_data
def test_a_small_run_prints_both_figures_beside_the_baseline(tmp_path, capsys):
    _subset(tmp_path)
    assert ukpl_ratings.run(tmp_path) == 0
    out = capsys.readouterr().out
    for label in ("pairwise accuracy", "mean Spearman"):
        match = re.search(rf"^{label}: ([0-9.]+) \(baseline ([0-9.]+)", out, re.MULTILINE)
        assert match, out
        assert all(0 <= float(value) <= 1 for value in match.groups()), out
    assert re.search(r"^meets measured: [1-9]\d*", out, re.MULTILINE), out
    assert re.search(r"^run time: [0-9.]+ s$", out, re.MULTILINE), out
