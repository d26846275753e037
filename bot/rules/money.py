"""Money shared by every format: percentage splits in integer cents (COMMON-AMB-2)."""

from __future__ import annotations

from collections.abc import Sequence


def split_in_cents(pot_cents: int, percents: Sequence[int]) -> list[int]:
    """COMMON-AMB-2: each share is floor(pot × pct) in cents, then the cents left over go one at a time to the
    recipients in finishing order, starting with 1st, so the shares always add up to the pot when the
    percentages add up to 100. A 3,999¢ pot over 65/25/10 pays 2,600 / 1,000 / 399."""
    shares = [pot_cents * percent // 100 for percent in percents]
    for place in range(pot_cents - sum(shares)):
        shares[place % len(shares)] += 1
    return shares
