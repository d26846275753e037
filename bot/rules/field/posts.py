"""The field format's own scheduled post, planned from its league nights. Pure, like `bot.rules.posts`.

The weekly standings and the finals bracket are the shared kinds of `bot.rules.posts`.
"""

from __future__ import annotations

from datetime import time

from bot.rules.nights import plan_each_night_day
from bot.rules.posts import Channel, PostKind, Timing, plan_after_each_closed_night, register

FIELD = frozenset({"field"})

NIGHT_RESULTS = register(
    PostKind(
        "night_results",
        "night results",
        "The morning after a night is closed: points per machine (FIELD-SCORE-2) and the night's totals",
        Channel.SCORES,
        Timing(at=time(10, 0), days=1),
        FIELD,
        plan_after_each_closed_night,
    )
)
MEET_NIGHT = register(
    PostKind(
        "meet_night",
        "meet-night reminder",
        "Meet day: the week and start time, and check-in at the venue (FIELD-ATT-1)",
        Channel.ANNOUNCEMENTS,
        Timing(at=time(17, 0)),
        FIELD,
        plan_each_night_day,
    )
)
