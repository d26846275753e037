"""Small pieces of English every reply uses. Pure."""

from __future__ import annotations

from collections.abc import Sequence


def and_list(names: Sequence[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
