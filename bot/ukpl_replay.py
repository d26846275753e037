"""`pinleague ukpl-replay`: import the UK Pinball League's raw scores, recompute every meet under the UKPL
options and count how many match the published machine points, league points and positions."""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from bot.rules.field.ukpl import MeetComparison, PublishedResult, RawScore, compare_meet, compute_meet

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "ukpl"


@dataclass(frozen=True)
class Dataset:
    scores: dict[int, list[RawScore]]
    results: dict[int, list[PublishedResult]]
    exact: tuple[int, ...]

    def meets(self) -> list[int]:
        """Meets with both scores and results, in id order."""
        return sorted(self.scores.keys() & self.results.keys())


def load_dataset(directory: Path) -> Dataset:
    scores: dict[int, list[RawScore]] = defaultdict(list)
    with (directory / "scores.csv").open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            score = int(row["score"]) if row["score"] else None
            raw = RawScore(row["player_id"], int(row["machine_id"]), score, row["is_guest"] == "1")
            scores[int(row["competition_id"])].append(raw)
    results: dict[int, list[PublishedResult]] = defaultdict(list)
    with (directory / "results.csv").open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            machine_points = Fraction(row["machine_points"]) if row["machine_points"] else None
            published = PublishedResult(
                row["player_id"], machine_points, Fraction(row["league_points"]), int(row["position"])
            )
            results[int(row["competition_id"])].append(published)
    exact_lines = (directory / "exact_meets.txt").read_text(encoding="utf-8").split()
    return Dataset(dict(scores), dict(results), tuple(int(line) for line in exact_lines))


def replay(dataset: Dataset, competitions: Sequence[int]) -> list[MeetComparison]:
    return [compare_meet(c, compute_meet(dataset.scores[c]), dataset.results[c]) for c in competitions]


def report(compared: Sequence[MeetComparison], exact: Sequence[int]) -> tuple[str, bool]:
    """The summary lines, and whether every answer-key meet among those replayed matched exactly."""
    by_id = {c.competition: c for c in compared}
    exact_run = [c for c in exact if c in by_id]
    exact_failed = [c for c in exact_run if not by_id[c].exact]
    total = len(compared)
    lines = [
        f"meets replayed: {total}",
        f"machine points match: {sum(c.machine_points for c in compared)} of {total}",
        f"league points match (within 0.01): {sum(c.league_points for c in compared)} of {total}",
        f"positions match: {sum(c.positions for c in compared)} of {total}",
        f"all three match: {sum(c.exact for c in compared)} of {total}",
        f"exact_meets.txt reproduced: {len(exact_run) - len(exact_failed)} of {len(exact_run)}",
    ]
    if exact_failed:
        lines.append("exact meets NOT reproduced: " + ", ".join(map(str, exact_failed)))
    return "\n".join(lines), not exact_failed


def run(data: Path, limit: int | None) -> int:
    dataset = load_dataset(data)
    meets = dataset.meets()
    if limit is not None:
        meets = meets[:limit]
    text, exact_ok = report(replay(dataset, meets), dataset.exact)
    print(text)
    return 0 if exact_ok else 1
