"""Process-wide memory settings for a long-running bot: malloc arenas, and when the garbage collector runs."""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import logging

from bot.interactions import quiet

log = logging.getLogger(__name__)

M_ARENA_MAX = -8  # glibc's mallopt parameter
ARENAS = 2


def limit_malloc_arenas() -> None:
    """glibc gives each thread that allocates its own malloc arena, up to 8 per core, and memory freed in one
    arena serves only that arena. The bot's threads (the event loop; asyncio's executor for DNS lookups and
    backups; on PostgreSQL none more) would each hold freed memory the others cannot reuse: when aiosqlite ran
    every SQLite connection on a thread, that was about 6 MiB of peak resident memory in the benchmark. Two
    arenas are plenty. Call it before other threads start; elsewhere than glibc it does nothing."""
    library = ctypes.util.find_library("c")
    if library is None:
        return
    try:
        libc = ctypes.CDLL(library)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return  # not glibc (e.g. musl, macOS)
    if mallopt(M_ARENA_MAX, ARENAS) != 1:
        log.debug("mallopt(M_ARENA_MAX) refused; keeping the default arenas")


LOOK_EVERY = 0.5  # seconds between looks at whether a full collection is due
REPLIES_FIRST_FOR = 0.25  # seconds a due collection waits for the answers in progress before it runs anyway
# Young collections at least this many new containers apart. Over the same benchmark window (team /score and
# Confirm at 50 paced members) Python's 700 ran 530 of them for 127 ms in all, 0.24 ms each; 5,000 ran 13 for 29
# ms, about 2 ms each; 20,000 ran 3 of about 10 ms, as long as the full collections kept out of commands.
YOUNG_AT_LEAST = 5_000
_NEVER = 1_000_000_000  # a third-generation threshold Python's collector never reaches on its own
_collectors = 0
_automatic_thresholds = gc.get_threshold()  # Python's own, put back when the last collector stops


async def collect_between_answers(look_every: float = LOOK_EVERY, replies_first_for: float = REPLIES_FIRST_FOR) -> None:
    """Run the full garbage collections at quiet moments, until cancelled. Left to Python, a full collection
    starts on whichever allocation crosses its threshold, that is while a command runs: every answer in progress
    or queued waits for it (9-17 ms with the team league's caches, each freeing thousands of cycles commands left
    behind). A full collection is due when Python's own would be: once the middle generation has been collected
    as often as the third generation's threshold says. The young generations stay automatic, less often than
    Python's default (`YOUNG_AT_LEAST`): they are cheap, and they catch most cycles."""
    global _collectors, _automatic_thresholds
    if not _collectors:
        _automatic_thresholds = gc.get_threshold()
        young, middle, _ = _automatic_thresholds
        gc.set_threshold(max(young, YOUNG_AT_LEAST), middle, _NEVER)
    due_after = _automatic_thresholds[2]  # middle-generation collections since the last full one
    _collectors += 1
    try:
        while True:
            await asyncio.sleep(look_every)
            if gc.get_count()[2] >= due_after:
                await quiet(replies_first_for)
                gc.collect()
    finally:
        _collectors -= 1
        if not _collectors:
            gc.set_threshold(*_automatic_thresholds)
