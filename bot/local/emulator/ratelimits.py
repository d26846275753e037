"""Discord's rate limits: per-route buckets, the per-channel message limit and the global limit.

Every answer to a limited route carries the bucket headers discord.py reads (`X-RateLimit-Limit`, `-Remaining`,
`-Reset`, `-Reset-After`, `-Bucket`); past the limit the answer is a 429 with `retry_after`, and discord.py waits
and retries. Buckets are fixed windows opened by their first request, as Discord's are. The limits are off by
default, so tests that don't care stay fast; `RateLimits.like_discord()` turns on Discord's counts, with windows
shortened by `time_scale` where a test needs speed.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from aiohttp import web

# Interaction callbacks and their webhooks are not bound by the bot's global limit (Discord's docs say so).
GLOBAL_EXEMPT_PREFIXES = ("/interactions/", "/webhooks/")
# Message sends and edits in one channel share Discord's per-channel bucket.
CHANNEL_MESSAGE_ROUTES = frozenset(
    {("POST", "/channels/{channel}/messages"), ("PATCH", "/channels/{channel}/messages/{message}")}
)
# The path parameters Discord keys buckets by (its "major parameters").
MAJOR_PARAMETERS = ("channel", "guild", "token")


@dataclass(frozen=True)
class Limit:
    requests: int
    per: float  # seconds


@dataclass
class RateLimits:
    channel_messages: Limit | None = None  # sends and edits per channel
    per_route: Limit | None = None  # every other route, per major parameter
    global_: Limit | None = None  # every bot-token request
    # So a test can tell that the limits bound: buckets run out (discord.py then waits before its next
    # request) and 429s answered (it waits and retries).
    exhausted: int = 0
    hits: int = 0

    @classmethod
    def like_discord(cls, time_scale: float = 1.0) -> RateLimits:
        """About 5 sends or edits per 5 s per channel, 5 requests per second on any other route (per channel,
        guild or interaction token), 50 per second overall; `time_scale` < 1 shortens the windows (the counts stay
        Discord's)."""
        return cls(
            channel_messages=Limit(5, 5.0 * time_scale),
            per_route=Limit(5, 1.0 * time_scale),
            global_=Limit(50, 1.0 * time_scale),
        )


@dataclass
class _Window:
    opened: float
    used: int = 0


@dataclass
class RateLimiter:
    """The buckets' state under the emulator's current limits; `now` is a monotonic clock in seconds."""

    now: Callable[[], float] = time.monotonic
    _windows: dict[tuple[str, str], _Window] = field(default_factory=dict)

    def check(self, limits: RateLimits, request: web.Request, path: str) -> dict[str, str] | web.Response:
        """The bucket headers for an allowed request to `path` (a route under /api/v10), or the 429 answering
        one past a limit."""
        if limits.global_ is not None and not path.startswith(GLOBAL_EXEMPT_PREFIXES):
            window, _ = self._take("global", "", limits.global_)
            if window is None:
                return self._too_many(limits, self._retry_after("global", "", limits.global_), "global", {})
        name, limit = self._bucket(limits, request.method, path)
        if limit is None:
            return {}
        major = ":".join(request.match_info.get(key, "") for key in MAJOR_PARAMETERS)
        window, remaining = self._take(name, major, limit)
        headers = self._headers(name, limit, remaining, self._retry_after(name, major, limit))
        if remaining == 0:
            limits.exhausted += 1
        if window is None:
            return self._too_many(limits, self._retry_after(name, major, limit), "user", headers)
        return headers

    @staticmethod
    def _bucket(limits: RateLimits, method: str, path: str) -> tuple[str, Limit | None]:
        if (method, path) in CHANNEL_MESSAGE_ROUTES:
            return "channel-messages", limits.channel_messages
        return f"{method} {path}", limits.per_route

    def _take(self, name: str, major: str, limit: Limit) -> tuple[_Window | None, int]:
        """Counts the request in its window; None when the window is used up."""
        now = self.now()
        window = self._windows.get((name, major))
        if window is None or now >= window.opened + limit.per:
            window = self._windows[(name, major)] = _Window(now)
        if window.used >= limit.requests:
            return None, 0
        window.used += 1
        return window, limit.requests - window.used

    def _retry_after(self, name: str, major: str, limit: Limit) -> float:
        window = self._windows[(name, major)]
        return max(0.0, window.opened + limit.per - self.now())

    @staticmethod
    def _headers(name: str, limit: Limit, remaining: int, reset_after: float) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(limit.requests),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": hashlib.sha1(name.encode()).hexdigest()[:16],
        }

    @staticmethod
    def _too_many(limits: RateLimits, retry_after: float, scope: str, headers: dict[str, str]) -> web.Response:
        limits.hits += 1
        is_global = scope == "global"
        body = {"message": "You are being rate limited.", "retry_after": round(retry_after, 3), "global": is_global}
        extra = {"X-RateLimit-Scope": scope, "Retry-After": str(max(1, round(retry_after))), "Via": "1.1 google"}
        if is_global:
            extra["X-RateLimit-Global"] = "true"
        return web.Response(
            status=429, body=json.dumps(body).encode(), content_type="application/json", headers=headers | extra
        )
