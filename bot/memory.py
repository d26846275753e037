"""Process-wide memory settings for a long-running bot."""

from __future__ import annotations

import ctypes
import ctypes.util
import logging

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
