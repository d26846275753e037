"""Primitives every format uses. Pure: no discord, no SQL, no clock."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import TypeVar

Ranked = TypeVar("Ranked")


def competition_ranks(ordered: Sequence[Ranked], *, level: Callable[[Ranked, Ranked], bool] = operator.eq) -> list[int]:
    """Standard competition ranking (1, 2, 2, 4) of `ordered`, best first: each takes its position, except one
    `level` with the one just ahead (`level(ahead, it)`; equal by default), which shares that one's rank."""
    ranks: list[int] = []
    for position, item in enumerate(ordered, start=1):
        shares = position > 1 and level(ordered[position - 2], item)
        ranks.append(ranks[-1] if shares else position)
    return ranks
