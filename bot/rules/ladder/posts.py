"""The ladder format's own scheduled post, planned from its league nights. Pure, like `bot.rules.posts`.

The weekly standings and the "bracket" (the playoff places) are the shared kinds of `bot.rules.posts`.
"""

from __future__ import annotations

from datetime import time

from bot.rules.nights import plan_each_night_day
from bot.rules.posts import Channel, PostKind, Timing, plan_after_each_closed_night, register

LADDER = frozenset({"ladder"})

NEXT_GROUPS = register(
    PostKind(
        "next_groups",
        "next week's groups",
        "The day after a night is closed: next week's groups (LADDER-GROUP-3) and game 1's play order (LADDER-ORDER-1)",
        Channel.ANNOUNCEMENTS,
        Timing(at=time(12, 0), days=1),
        LADDER,
        plan_after_each_closed_night,
    )
)
LEAGUE_NIGHT = register(
    PostKind(
        "league_night",
        "league-night reminder",
        "Night day: check-in (LADDER-ATT-1), and the late and absence notice deadlines (LADDER-ATT-3/4)",
        Channel.ANNOUNCEMENTS,
        Timing(at=time(12, 0)),
        LADDER,
        plan_each_night_day,
    )
)
