"""Seeding by rating: where a format's `use_ratings` option lets the ratings order players it would otherwise
order by a self-estimate or last week's standing (LADDER-GROUP-2, FIELD-GROUP-2)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

Player = TypeVar("Player", bound=Hashable)


def reordered_by_rating(order: Sequence[Player], strength: Mapping[Player, float]) -> list[Player]:
    """`order` with its rated players re-sorted, strongest first, into the places rated players hold; each
    player without a rating keeps their place."""
    rated = iter(sorted((p for p in order if p in strength), key=lambda p: -strength[p]))
    return [next(rated) if player in strength else player for player in order]
