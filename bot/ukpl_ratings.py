"""`pinleague ukpl-ratings`: rate the UK Pinball League's players meet by meet, in date order, and measure how
well ratings from earlier meets predicted each meet, beside a simple baseline computed in the same run.

What is measured is the margin filter (bot/rules/ratings/margins.py): each player's skill on the log-score scale,
read from how far above or below each machine's field they scored. The bot's own rating, openskill over the
finishing orders, is printed beside it: each meet feeds it its machine games and then its final positions as one
more game (the positions say who was steady across the machines, which single games do not). Only this check
uses the filter (docs/ratings.md says why)."""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from collections.abc import Container, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from statistics import fmean

from bot.rules.ratings.engine import DEFAULT_SETTINGS, Game, RatingBook, RatingSettings
from bot.rules.ratings.margins import MarginFilter
from bot.rules.ratings.metrics import pairwise_hits, spearman, spearman_textbook
from bot.ukpl_replay import DEFAULT_DATA, Dataset, load_dataset

MEASURED_SEASONS = range(10, 19)
CHOSEN_ON = range(4, 10)  # the seasons the margin filter's variances were chosen on, printed beside
MIN_EARLIER_MEETS = 3
# The reading that reproduces the outside measurement's baseline (docs/ratings.md): meets with fewer measured
# players left out, and Spearman by the textbook formula.
OUTSIDE_MIN_PLAYERS = 4


def in_date_order(dataset: Dataset) -> list[int]:
    """The meets with scores and results, in the order they were played (undated early meets first in their
    season)."""

    def played(competition: int) -> tuple[int, date, int]:
        meet = dataset.calendar[competition]
        return meet.season, meet.day or date.min, competition

    return sorted(dataset.meets(), key=played)


@dataclass
class Tally:
    """Pairwise hits and Spearman values of one predictor over the measured meets, and the Spearman values under
    the outside measurement's reading."""

    hits: int = 0
    pairs: int = 0
    spearmans: list[float] = field(default_factory=list)
    outside_spearmans: list[float] = field(default_factory=list)

    def add(self, strength: dict[str, float], machines: dict[int, dict[str, int]], positions: dict[str, int]) -> None:
        for scores in machines.values():
            hits, pairs = pairwise_hits(strength, scores)
            self.hits, self.pairs = self.hits + hits, self.pairs + pairs
        ranked = [p for p in positions if p in strength]
        predicted, actual = [strength[p] for p in ranked], [-positions[p] for p in ranked]
        rho = spearman(predicted, actual)
        if rho is not None:
            self.spearmans.append(rho)
        if len(ranked) >= OUTSIDE_MIN_PLAYERS:
            self.outside_spearmans.append(spearman_textbook(predicted, actual))

    @property
    def accuracy(self) -> float:
        return self.hits / self.pairs if self.pairs else 0.0

    @property
    def mean_spearman(self) -> float:
        return fmean(self.spearmans) if self.spearmans else 0.0

    @property
    def outside_mean_spearman(self) -> float:
        return fmean(self.outside_spearmans) if self.outside_spearmans else 0.0


def machine_scores(dataset: Dataset, competition: int) -> dict[int, dict[str, int]]:
    """Each machine's best score per player at the meet (a few player–machine pairs were stored twice)."""
    machines: dict[int, dict[str, int]] = defaultdict(dict)
    for raw in dataset.scores[competition]:
        if raw.score is not None:
            best = machines[raw.machine].get(raw.player)
            machines[raw.machine][raw.player] = raw.score if best is None else max(best, raw.score)
    return dict(machines)


@dataclass(frozen=True)
class Prediction:
    """What was expected of one measured meet's players, from the meets before it only."""

    competition: int
    margin: dict[str, float]  # what the command measures: the margin filter's mean skill
    rating: dict[str, float]  # the bot's rating (openskill's mean skill)
    baseline: dict[str, float]  # each player's mean past meet percentile


def predictions(
    dataset: Dataset, meets: Iterable[int], seasons: Container[int], settings: RatingSettings = DEFAULT_SETTINGS
) -> Iterator[Prediction]:
    """For each meet of `seasons`, in the order given, the strength of each player with MIN_EARLIER_MEETS earlier
    meets; each is made before that meet's own games are read."""
    book: RatingBook[str] = RatingBook(settings)
    margins: MarginFilter[str] = MarginFilter()
    percentiles: dict[str, list[float]] = defaultdict(list)
    for competition in meets:
        machines = machine_scores(dataset, competition)
        positions = {result.player: result.position for result in dataset.results[competition]}
        if dataset.calendar[competition].season in seasons:
            present = {*positions, *(player for scores in machines.values() for player in scores)}
            known = [p for p in present if len(percentiles[p]) >= MIN_EARLIER_MEETS]
            rating = {p: book.rating(p).mu for p in known}
            margin = {p: margins.skill(p) for p in known}
            baseline = {p: fmean(percentiles[p]) for p in known}
            yield Prediction(competition, margin, rating, baseline)
        book.play_all(Game.from_scores(scores) for scores in machines.values())
        book.play(Game.from_scores({player: -position for player, position in positions.items()}))
        margins.add(machines.values())
        field_size = len(positions)
        for player, position in positions.items():
            percentiles[player].append((field_size - position) / (field_size - 1))


@dataclass
class Figures:
    margin: Tally = field(default_factory=Tally)
    rating: Tally = field(default_factory=Tally)
    baseline: Tally = field(default_factory=Tally)


def evaluate(
    dataset: Dataset, meets: Iterable[int], season_ranges: Sequence[range], settings: RatingSettings = DEFAULT_SETTINGS
) -> list[Figures]:
    """For each range of seasons, the tallies of the margin filter, the rating and the baseline over its meets."""
    figures = [Figures() for _ in season_ranges]
    wanted = {season for seasons in season_ranges for season in seasons}
    for predicted in predictions(dataset, meets, wanted, settings):
        season = dataset.calendar[predicted.competition].season
        machines = machine_scores(dataset, predicted.competition)
        positions = {result.player: result.position for result in dataset.results[predicted.competition]}
        for seasons, tallies in zip(season_ranges, figures, strict=True):
            if season in seasons:
                tallies.margin.add(predicted.margin, machines, positions)
                tallies.rating.add(predicted.rating, machines, positions)
                tallies.baseline.add(predicted.baseline, machines, positions)
    return figures


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = commands.add_parser("ukpl-ratings", help="rate the UK Pinball League's players, measure the predictions")
    command.add_argument("--data", type=Path, help="the UKPL data folder (default: ../shared/data/ukpl)")
    command.add_argument("--limit", type=int, help="rate only the first N meets")


def run(data: Path = DEFAULT_DATA, limit: int | None = None) -> int:
    started = time.perf_counter()
    dataset = load_dataset(data)
    meets = in_date_order(dataset)
    if limit is not None:
        meets = meets[:limit]
    measured, chosen_on = evaluate(dataset, meets, (MEASURED_SEASONS, CHOSEN_ON))
    margin, rating, baseline = measured.margin, measured.rating, measured.baseline
    print(f"meets measured: {len(margin.spearmans)} (seasons 10-18, players with {MIN_EARLIER_MEETS}+ earlier meets)")
    print(f"pairwise accuracy: {margin.accuracy:.4f} (baseline {baseline.accuracy:.4f}, {margin.pairs} pairs)")
    print(f"mean Spearman: {margin.mean_spearman:.4f} (baseline {baseline.mean_spearman:.4f})")
    print(
        "mean Spearman, outside measurement's reading (textbook formula, meets with at least "
        f"{OUTSIDE_MIN_PLAYERS} measured players): {margin.outside_mean_spearman:.4f} "
        f"(baseline {baseline.outside_mean_spearman:.4f})"
    )
    print(f"openskill rating alone: pairwise {rating.accuracy:.4f}, Spearman {rating.mean_spearman:.4f}")
    print(
        f"seasons 4-9, where the filter was tuned: pairwise {chosen_on.margin.accuracy:.4f}, "
        f"Spearman {chosen_on.margin.mean_spearman:.4f} (baseline {chosen_on.baseline.accuracy:.4f} / "
        f"{chosen_on.baseline.mean_spearman:.4f}, {len(chosen_on.margin.spearmans)} meets)"
    )
    print(f"run time: {time.perf_counter() - started:.1f} s")
    return 0
