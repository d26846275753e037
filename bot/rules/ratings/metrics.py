"""How well ratings predicted a meet: pairwise accuracy over machine games and Spearman over the final order."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from itertools import combinations
from typing import TypeVar

Player = TypeVar("Player", bound=Hashable)


def pairwise_hits(strength: Mapping[Player, float], scores: Mapping[Player, int]) -> tuple[int, int]:
    """(hits, pairs) over every pair of players with a strength who both scored on one machine: a hit when the
    stronger player scored higher. Pairs tied on score or on strength say nothing and are skipped."""
    rated = [p for p in scores if p in strength]
    hits = pairs = 0
    for a, b in combinations(rated, 2):
        if scores[a] == scores[b] or strength[a] == strength[b]:
            continue
        pairs += 1
        hits += (strength[a] > strength[b]) == (scores[a] > scores[b])
    return hits, pairs


def spearman(predicted: Sequence[float], actual: Sequence[float]) -> float | None:
    """Spearman's rank correlation (average ranks for ties); None when either side has no spread."""
    if len(predicted) != len(actual):
        raise ValueError("predicted and actual must be the same length")
    x, y = _ranks(predicted), _ranks(actual)
    n = len(x)
    mean = (n + 1) / 2
    cov = sum((a - mean) * (b - mean) for a, b in zip(x, y, strict=True))
    var_x = sum((a - mean) ** 2 for a in x)
    var_y = sum((b - mean) ** 2 for b in y)
    if var_x == 0 or var_y == 0:
        return None
    return float(cov / (var_x * var_y) ** 0.5)


def spearman_textbook(predicted: Sequence[float], actual: Sequence[float]) -> float:
    """The textbook shortcut 1 − 6Σd² / (n(n² − 1)) on average ranks: the same as `spearman` without ties, not
    with them. Needs at least 2 values."""
    if len(predicted) != len(actual):
        raise ValueError("predicted and actual must be the same length")
    n = len(predicted)
    if n < 2:
        raise ValueError("needs at least 2 values")
    d2 = sum((a - b) ** 2 for a, b in zip(_ranks(predicted), _ranks(actual), strict=True))
    return 1 - 6 * d2 / (n * (n * n - 1))


def _ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for i in order[start : end + 1]:
            ranks[i] = (start + end) / 2 + 1
        start = end + 1
    return ranks
