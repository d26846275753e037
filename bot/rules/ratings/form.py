"""Score form: how far above or below the field a player's recent scores lay, on each machine's own scale.

The rating (engine.py) reads only the order of each game. A score's margin says more: beating the field's mean by
ten times on one machine is not the same as scraping past it. Pinball scores spread multiplicatively, so a
margin is measured on the log of the score, in standard deviations of that machine's field at that meet, and
clipped so one freak game cannot swamp a season. Recent meets count more than old ones.

Used by the UKPL check (`pinleague ukpl-ratings`), blended with the rating; the bot's own ratings do not use it
(docs/ratings.md).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping
from statistics import fmean
from typing import Generic, TypeVar

Player = TypeVar("Player", bound=Hashable)

FORM_DECAY = 0.85  # each earlier meet weighs this much less than the next (chosen on UKPL seasons 4–9)
MARGIN_CLIP = 3.0  # standard deviations, either way
MIN_FIELD = 3  # a machine with fewer scores says too little about its spread
FORM_WEIGHT = 4.0  # the form's weight beside the rating's 1 in `blend` (chosen on UKPL seasons 4–9)


def standardized(values: Mapping[Player, float]) -> dict[Player, float]:
    """Each value as standard deviations from the values' mean (0 for all when they do not spread)."""
    if not values:
        return {}
    mean = fmean(values.values())
    spread = math.sqrt(fmean([(value - mean) ** 2 for value in values.values()]))  # statistics.pstdev: 10x slower
    return {player: (value - mean) / spread if spread else 0.0 for player, value in values.items()}


def meet_margins(machines: Iterable[Mapping[Player, int]]) -> dict[Player, float]:
    """Each player's mean margin over the machines they scored on at one meet: their log score's distance from
    that machine's mean, in its standard deviations, clipped to ±MARGIN_CLIP. Machines with fewer than
    MIN_FIELD scores are skipped, and so are players who scored on none of the others."""
    margins: dict[Player, list[float]] = {}
    for scores in machines:
        if len(scores) < MIN_FIELD:
            continue
        logs = {player: math.log(max(score, 1)) for player, score in scores.items()}
        for player, margin in standardized(logs).items():
            margins.setdefault(player, []).append(max(-MARGIN_CLIP, min(MARGIN_CLIP, margin)))
    return {player: fmean(values) for player, values in margins.items()}


class FormBook(Generic[Player]):
    """Every player's form so far: the mean of their meet margins, each earlier meet weighted FORM_DECAY times
    the next."""

    def __init__(self, decay: float = FORM_DECAY) -> None:
        self._decay = decay
        self._sums: dict[Player, tuple[float, float]] = {}  # (weighted margins, weights)

    def add(self, margins: Mapping[Player, float]) -> None:
        """One more meet's margins (from `meet_margins`); players absent from it keep their form as it was."""
        for player, margin in margins.items():
            total, weight = self._sums.get(player, (0.0, 0.0))
            self._sums[player] = (total * self._decay + margin, weight * self._decay + 1.0)

    def form(self, player: Player) -> float | None:
        sums = self._sums.get(player)
        return sums[0] / sums[1] if sums else None


def blend(rating: Mapping[Player, float], form: Mapping[Player, float], form_weight: float) -> dict[Player, float]:
    """One strength per rated player: their rating plus form_weight times their form, each first standardized
    over the players given (so the weight does not depend on either scale). A player with no form counts as
    the field's mean form."""
    rated, formed = standardized(rating), standardized({p: form[p] for p in rating if p in form})
    return {player: value + form_weight * formed.get(player, 0.0) for player, value in rated.items()}
