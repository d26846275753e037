"""`pinleague ukpl-ratings` on real UKPL meets: the figures are printed, the margin filter beats the baseline, and
each meet is predicted from earlier meets only."""

import csv
import dataclasses
import os
import re
from pathlib import Path

import pytest

from bot import ukpl_ratings
from bot.cli import _parser
from bot.ukpl_replay import Dataset, load_dataset

DATA = ukpl_ratings.DEFAULT_DATA
# The Irish and Scottish leagues: small meets, so eleven seasons run in about half a second, and seasons 8-9
# give the measured ones players with 3 earlier meets.
REGIONS = {"5", "6"}
SEASONS = range(8, 19)
OUTSIDE_READING = (
    "mean Spearman, outside measurement's reading (textbook formula, meets with at least 4 measured players)"
)
# What the subset prints (docs/ratings.md): the margin filter's figures and the baseline's, pairwise then Spearman.
SUBSET_FIGURES = {
    "pairwise accuracy": (0.6444, 0.6367),
    "mean Spearman": (0.5860, 0.5508),
    OUTSIDE_READING: (0.6178, 0.5818),
}
needs_data = pytest.mark.skipif(
    not (DATA / "scores.csv").exists() and os.environ.get("CI") != "true", reason=f"no UKPL data at {DATA}"
)


def _subset(target: Path) -> None:
    with (DATA / "competitions.csv").open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        rows = [r for r in reader if r["region_id"] in REGIONS and int(r["season_number"]) in SEASONS]
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


def _figure(label: str, out: str) -> tuple[float, float]:
    match = re.search(rf"^{re.escape(label)}: ([0-9.]+) \(baseline ([0-9.]+)", out, re.MULTILINE)
    assert match, out
    return float(match[1]), float(match[2])


def test_the_command_is_registered():
    args = _parser().parse_args(["ukpl-ratings", "--limit", "5"])
    assert (args.command, args.limit) == ("ukpl-ratings", 5)


def test_the_outside_reading_leaves_out_meets_under_4_measured_players_and_uses_the_textbook_formula():
    tally = ukpl_ratings.Tally()
    tally.add({"x": 1.0, "y": 0.0}, {}, {"x": 1, "y": 2})  # 2 measured players: our Spearman only
    # 4 players, but "new" has no strength yet: 3 measured, left out of the outside reading too
    tally.add({"x": 3.0, "y": 2.0, "z": 1.0}, {}, {"x": 1, "y": 2, "z": 3, "new": 4})
    assert (tally.spearmans, tally.outside_spearmans) == ([1.0, 1.0], [])
    # b and c tied on strength: average ranks 2.5 against 3 and 2, so Σd² = 0.5 and 1 - 6 * 0.5 / (4 * 15) = 0.95,
    # where the correlation of the ranks is 4.5 / √(4.5 * 5)
    tally.add({"a": 3.0, "b": 2.0, "c": 2.0, "d": 1.0}, {}, {"a": 1, "b": 2, "c": 3, "d": 4})
    assert tally.outside_spearmans == [pytest.approx(0.95)]
    assert tally.spearmans[-1] == pytest.approx(4.5 / (4.5 * 5) ** 0.5)
    # a and b swapped, no ties: Σd² = 2, 1 - 6 * 2 / 60 = 0.8
    tally.add({"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}, {}, {"a": 2, "b": 1, "c": 3, "d": 4})
    assert tally.outside_spearmans == [pytest.approx(0.95), pytest.approx(0.8)]
    assert tally.outside_mean_spearman == pytest.approx(0.875)
    assert len(tally.spearmans) == 4


@needs_data
def test_a_small_run_prints_both_figures_and_beats_the_baseline_on_both(tmp_path, capsys):
    _subset(tmp_path)
    assert ukpl_ratings.run(tmp_path) == 0
    out = capsys.readouterr().out
    for label, documented in SUBSET_FIGURES.items():
        measured, baseline = _figure(label, out)
        assert 0 <= baseline < measured <= 1, (label, out)
        assert (measured, baseline) == documented, (label, out)
    assert re.search(r"^meets measured: [1-9]\d*", out, re.MULTILINE), out
    assert re.search(r"^openskill rating alone: pairwise 0\.\d{4}, Spearman 0\.\d{4}$", out, re.MULTILINE)
    tuned = r"^seasons 4-9, where the filter was tuned: pairwise 0\.\d{4}, Spearman 0\.\d{4} \(baseline 0\.\d{4} / "
    assert re.search(tuned, out, re.MULTILINE), out
    assert re.search(r"^run time: [0-9.]+ s$", out, re.MULTILINE), out


def _turned_over(dataset: Dataset, competition: int) -> Dataset:
    """The dataset with one meet's outcome reversed: every machine's scores and the final positions."""
    scores = [
        dataclasses.replace(raw, score=None if raw.score is None else 10**12 // (raw.score + 1))
        for raw in dataset.scores[competition]
    ]
    field = len(dataset.results[competition])
    results = [dataclasses.replace(r, position=field + 1 - r.position) for r in dataset.results[competition]]
    return dataclasses.replace(
        dataset, scores={**dataset.scores, competition: scores}, results={**dataset.results, competition: results}
    )


@needs_data
def test_each_meet_is_predicted_from_earlier_meets_only(tmp_path):
    """Reversing one measured meet's outcome changes no prediction up to and including that meet (neither the
    margin filter, the rating nor the baseline reads it early), and it does change the next meet's."""
    _subset(tmp_path)
    dataset = load_dataset(tmp_path)
    meets = ukpl_ratings.in_date_order(dataset)
    before = list(ukpl_ratings.predictions(dataset, meets, ukpl_ratings.MEASURED_SEASONS))
    middle = len(before) // 2
    turned = _turned_over(dataset, before[middle].competition)
    after = list(ukpl_ratings.predictions(turned, meets, ukpl_ratings.MEASURED_SEASONS))
    assert len(after) == len(before) > middle + 1
    assert after[: middle + 1] == before[: middle + 1]
    for kind in ("margin", "rating", "baseline"):
        assert getattr(after[middle + 1], kind) != getattr(before[middle + 1], kind), kind
