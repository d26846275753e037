"""Discord-style snowflake ids and timestamps."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

DISCORD_EPOCH_MS = 1_420_070_400_000


def snowflake_time(snowflake: int) -> datetime:
    return datetime.fromtimestamp(((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000, tz=UTC)


def iso(moment: datetime) -> str:
    return moment.isoformat(timespec="microseconds")


class SnowflakeFactory:
    """Unique, increasing snowflakes: milliseconds since the Discord epoch, worker bits, a counter.

    With a fixed `at` every id carries that creation time, so the same sequence of calls yields
    the same ids on every run (the emulated guild keeps its ids between `pinleague local` runs
    and the bot's database still matches it). Without it ids carry the current time, like
    messages and interactions on Discord.
    """

    def __init__(self, worker: int, at: datetime | None = None) -> None:
        self._worker = worker & 0b11111
        self._fixed_ms = None if at is None else int(at.timestamp() * 1000)
        self._counter = itertools.count()
        self._last = 0

    def __call__(self) -> int:
        ms = self._fixed_ms if self._fixed_ms is not None else int(datetime.now(UTC).timestamp() * 1000)
        candidate = ((ms - DISCORD_EPOCH_MS) << 22) | (self._worker << 17) | (next(self._counter) & 0xFFF)
        # Several ids in one millisecond could wrap the 12-bit counter; keep them strictly increasing.
        self._last = max(candidate, self._last + 1)
        return self._last
