"""`pinleague ukpl-replay`: import the UK Pinball League's raw scores, recompute every meet under the league's
documented rules and under the rules each era applied (bot/rules/field/ukpl_eras.py), count how many match
the published machine points, league points and positions, and say why the rest do not."""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from pathlib import Path

from bot.rules.field.options import UKPL_OPTIONS, FieldOptions
from bot.rules.field.ukpl import MeetComparison, PublishedResult, RawScore, compare_meet, compute_meet
from bot.rules.field.ukpl_eras import era_options

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "ukpl"
EXAMPLES_PER_CAUSE = 6


@dataclass(frozen=True)
class Meet:
    season: int
    region: str
    day: date | None


@dataclass(frozen=True)
class Dataset:
    scores: dict[int, list[RawScore]]
    results: dict[int, list[PublishedResult]]
    exact: tuple[int, ...]
    calendar: dict[int, Meet]

    def meets(self) -> list[int]:
        """Meets with both scores and results, in id order."""
        return sorted(self.scores.keys() & self.results.keys())


Rules = Callable[[Meet], FieldOptions]


def documented_rules(meet: Meet) -> FieldOptions:
    return UKPL_OPTIONS


def era_rules(meet: Meet) -> FieldOptions:
    return era_options(meet.season, meet.region, meet.day)


def load_dataset(directory: Path) -> Dataset:
    scores: dict[int, list[RawScore]] = defaultdict(list)
    for row in _rows(directory / "scores.csv"):
        score = int(row["score"]) if row["score"] else None
        raw = RawScore(row["player_id"], int(row["machine_id"]), score, row["is_guest"] == "1")
        scores[int(row["competition_id"])].append(raw)
    results: dict[int, list[PublishedResult]] = defaultdict(list)
    for row in _rows(directory / "results.csv"):
        machine_points = Fraction(row["machine_points"]) if row["machine_points"] else None
        published = PublishedResult(
            row["player_id"], machine_points, Fraction(row["league_points"]), int(row["position"])
        )
        results[int(row["competition_id"])].append(published)
    calendar = {
        int(row["competition_id"]): Meet(
            int(row["season_number"]), row["region_code"], date.fromisoformat(row["date"]) if row["date"] else None
        )
        for row in _rows(directory / "competitions.csv")
    }
    exact_lines = (directory / "exact_meets.txt").read_text(encoding="utf-8").split()
    return Dataset(dict(scores), dict(results), tuple(int(line) for line in exact_lines), calendar)


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def replay_meet(dataset: Dataset, competition: int, options: FieldOptions) -> MeetComparison:
    return compare_meet(competition, compute_meet(dataset.scores[competition], options), dataset.results[competition])


def replay(dataset: Dataset, competitions: Sequence[int], rules: Rules = documented_rules) -> list[MeetComparison]:
    return [replay_meet(dataset, c, rules(dataset.calendar[c])) for c in competitions]


# Why a meet is not reproduced under era rules, in the order they are tried.
PLAYERS_DIFFER = "result rows for players with no scores (or a lost result row that makes a player a guest)"
READ_OTHERWISE = "read otherwise than its region and season: reproduced with {reading}"
HALF_POINTS = "half-point machine totals (ties averaged, as in comp 439, or legacy halves)"
TOTALS_DIFFER = (
    "machine totals differ under each single reading tried (data entry, a missing or extra machine, an offset)"
)
POINTS_DIFFER = "league points differ although totals match (manual sharing, thirds to 1 dp, the top-half point)"
POSITIONS_DIFFER = "positions differ although totals and league points match"


def unreproduced_cause(dataset: Dataset, comparison: MeetComparison, options: FieldOptions) -> str:
    competition = comparison.competition
    if not comparison.players:
        return PLAYERS_DIFFER
    for name, value in _other_readings(dataset.scores[competition], options):
        if replay_meet(dataset, competition, options.model_copy(update={name: value})).exact:
            return READ_OTHERWISE.format(reading=f"{name} = {value}")
    if any(r.machine_points is not None and r.machine_points.denominator != 1 for r in dataset.results[competition]):
        return HALF_POINTS
    if not comparison.machine_points:
        return TOTALS_DIFFER
    return POINTS_DIFFER if not comparison.league_points else POSITIONS_DIFFER


def _other_readings(scores: Sequence[RawScore], options: FieldOptions) -> list[tuple[str, object]]:
    """The era choices this meet's scores could be sensitive to, other than the ones in force."""
    readings: list[tuple[str, object]] = [("top_bonus", 1 - options.top_bonus)]
    per_machine = [(s.machine, s.score) for s in scores if s.score is not None and not s.guest]
    if len(set(per_machine)) < len(per_machine):
        other = "share_lower" if options.machine_ties == "share_higher" else "share_higher"
        readings.append(("machine_ties", other))
    if any(s.score is None for s in scores):
        for reading in ("rank_last", "no_points", "no_points_counted"):
            if reading != options.unrecorded_scores:
                readings.append(("unrecorded_scores", reading))
    return readings


def report(dataset: Dataset, competitions: Sequence[int]) -> tuple[str, bool]:
    """The summary lines, and whether every answer-key meet among those replayed matched exactly."""
    documented = replay(dataset, competitions)
    era = replay(dataset, competitions, era_rules)
    exact_run = [c.competition for c in documented if c.competition in set(dataset.exact)]
    exact_failed = [c.competition for c in documented if c.competition in exact_run and not c.exact]
    total = len(competitions)
    lines = [
        f"meets replayed: {total}",
        *_figures("documented rules", documented),
        *_figures("era rules", era),
        f"documented rules: answer key {len(exact_run) - len(exact_failed)}/{len(exact_run)}, "
        f"all three {sum(c.exact for c in documented)}/{total}",
        f"era rules: all three {sum(c.exact for c in era)}/{total}",
    ]
    if exact_failed:
        lines.append("answer-key meets NOT reproduced: " + ", ".join(map(str, exact_failed)))
    lines += _unreproduced(dataset, era)
    return "\n".join(lines), not exact_failed


def _figures(name: str, compared: Sequence[MeetComparison]) -> list[str]:
    total = len(compared)
    return [
        f"{name}, machine points match: {sum(c.machine_points for c in compared)} of {total}",
        f"{name}, league points match (within 0.01): {sum(c.league_points for c in compared)} of {total}",
        f"{name}, positions match: {sum(c.positions for c in compared)} of {total}",
    ]


def _unreproduced(dataset: Dataset, era: Sequence[MeetComparison]) -> list[str]:
    by_cause: dict[str, list[int]] = defaultdict(list)
    for comparison in era:
        if not comparison.exact:
            options = era_rules(dataset.calendar[comparison.competition])
            by_cause[unreproduced_cause(dataset, comparison, options)].append(comparison.competition)
    lines = [f"unreproduced under era rules: {sum(map(len, by_cause.values()))} meets, by cause"]
    for cause, meets in sorted(by_cause.items(), key=lambda item: (-len(item[1]), item[0])):
        more = ", …" if len(meets) > EXAMPLES_PER_CAUSE else ""
        examples = ", ".join(map(str, meets[:EXAMPLES_PER_CAUSE])) + more
        lines.append(f"  {len(meets):>3}  {cause}: comps {examples}")
    return lines


def run(data: Path, limit: int | None) -> int:
    dataset = load_dataset(data)
    meets = dataset.meets()
    if limit is not None:
        meets = meets[:limit]
    text, exact_ok = report(dataset, meets)
    print(text)
    return 0 if exact_ok else 1
