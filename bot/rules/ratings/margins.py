"""Margin filter: each player's skill on the log-score scale, followed meet by meet with a Kalman filter.

The rating (engine.py) reads only the order of each game. A score's margin says more: beating the field by ten
times on one machine is not the same as scraping past it. Pinball scores spread multiplicatively, so a margin is
the log of the score less the mean log score of that machine's field at that meet.

Each player's skill is a Gaussian (mean, variance) on that scale. Between two of their meets it random-walks:
its variance grows by DRIFT. At a meet, each of their margins on a machine is one noisy reading of their skill
less the field's mean skill, with variance NOISE; adding the field's mean skill (as known before the meet) back
to the margin gives a reading of the skill itself, so beating a strong field counts for more than beating a weak
one. A player's readings from one meet are combined by their precisions, all against the skills as they stood
before the meet, so the order of the machines does not matter.

Used by the UKPL check (`pinleague ukpl-ratings`); the bot's own ratings do not use it (docs/ratings.md).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping
from statistics import fmean
from typing import Generic, TypeVar

Player = TypeVar("Player", bound=Hashable)

# Variances on the log-score scale, chosen on UKPL seasons 4-9 (docs/ratings.md); only their ratios matter.
PRIOR_VARIANCE = 0.25  # a newcomer's skill, before their first meet's drift
DRIFT = 0.005  # added to a player's variance at each meet they play
NOISE = 1.0  # one margin on one machine
MIN_FIELD = 3  # a machine with fewer scores has too small a field to measure against


class MarginFilter(Generic[Player]):
    """Every player's skill so far on the log-score scale; `add` reads one meet's machines."""

    def __init__(self, prior_variance: float = PRIOR_VARIANCE, drift: float = DRIFT, noise: float = NOISE) -> None:
        self._prior_variance, self._drift, self._noise = prior_variance, drift, noise
        self._skills: dict[Player, tuple[float, float]] = {}  # (mean, variance)

    def add(self, machines: Iterable[Mapping[Player, int]]) -> None:
        """One meet: each machine's scores by player. Machines with fewer than MIN_FIELD scores are skipped, and
        players absent from the rest keep their skill as it was."""
        readings: dict[Player, list[float]] = {}
        for scores in machines:
            if len(scores) < MIN_FIELD:
                continue
            logs = {player: math.log(max(score, 1)) for player, score in scores.items()}
            field_log = fmean(logs.values())
            field_skill = fmean([self.skill(player) for player in scores])
            for player, log in logs.items():
                readings.setdefault(player, []).append(log - field_log + field_skill)
        for player, values in readings.items():
            mean, variance = self._skills.get(player, (0.0, self._prior_variance))
            prior_precision = 1 / (variance + self._drift)
            precision = prior_precision + len(values) / self._noise
            self._skills[player] = ((mean * prior_precision + sum(values) / self._noise) / precision, 1 / precision)

    def skill(self, player: Player) -> float:
        """The player's mean skill (0, the scale's origin, for a player not yet seen)."""
        return self._skills.get(player, (0.0, 0.0))[0]
