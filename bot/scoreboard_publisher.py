"""Living scoreboards published after the reply, one background task per match.

Discord (and discord.py) sends edits in one channel one at a time, and a league night's matches share a
channel: a command that edited its match's scoreboard before replying waited behind every other match's
edit. Commands now reply first and hand the board here, where it waits (briefly) for the replies being worked
on: a member waits for their reply, not for a board. Each match has at most one publish in flight; boards
that arrive meanwhile replace each other, so only the newest is sent next (the ones it superseded would be
overwritten at once anyway). A publish builds its board when it runs (see `cogs.team.views.publish_scoreboard`), so
the coalescing adapts to load: at a quiet moment every change is shown at once; when changes come faster
than boards can be built and sent (or Discord's per-channel rate limit holds the edits back), one build and
one edit cover all of them. The change a board shows is already saved: a failed publish is logged, never
reported as a failed command.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.interactions import hold_interaction, quiet

log = logging.getLogger(__name__)

Publish = Callable[[], Awaitable[None]]
REPLIES_FIRST_FOR = 0.25  # seconds a publish waits for the replies being worked on before it goes anyway
BoardKey = int | str  # a match's id, or a group board's name ("ladder group 4"): one publish in flight per key


class ScoreboardPublisher:
    def __init__(self) -> None:
        # match id → the board still to send, and the holds on the interactions whose changes it shows
        self._newest: dict[BoardKey, tuple[Publish, list[Callable[[], None]]]] = {}
        self._running: dict[BoardKey, asyncio.Task[None]] = {}
        self._posted_at: dict[BoardKey, tuple[int, int]] = {}  # match id → (channel id, message id) posted here

    def submit(self, match_id: BoardKey, publish: Publish) -> None:
        """Send this match's board soon, replacing any of its boards not yet sent. The interaction being handled
        stays unfinished until a board at least this new has been sent (or has failed)."""
        _, covered = self._newest.get(match_id, (None, []))
        self._newest[match_id] = (publish, [*covered, hold_interaction()])
        if match_id not in self._running:
            self._running[match_id] = asyncio.create_task(self._drain(match_id), name=f"scoreboard {match_id}")

    async def _drain(self, match_id: BoardKey) -> None:
        try:
            while match_id in self._newest:
                await quiet(REPLIES_FIRST_FOR)  # boards submitted meanwhile replace this one: one send covers them
                publish, covered = self._newest.pop(match_id)
                try:
                    await publish()
                except Exception:
                    log.warning("could not publish the scoreboard of match %s", match_id, exc_info=True)
                finally:
                    _release(covered)
        finally:
            del self._running[match_id]

    def posted(self, match_id: BoardKey, channel_id: int, message_id: int) -> None:
        """Where a board was posted: boards built before it was stored still edit that message."""
        self._posted_at[match_id] = (channel_id, message_id)

    def posted_at(self, match_id: BoardKey) -> tuple[int, int] | None:
        return self._posted_at.get(match_id)

    async def flush(self) -> None:
        """Until every board submitted so far (and any submitted meanwhile) has been sent or has failed."""
        while self._running:
            await asyncio.gather(*self._running.values(), return_exceptions=True)

    async def close(self, *, within: float = 5.0) -> None:
        """At shutdown: send what is pending for up to `within` seconds, then cancel the rest."""
        try:
            await asyncio.wait_for(self.flush(), within)
        except TimeoutError:
            log.warning("scoreboards %s not published before shutdown", list(self._running))
        for task in list(self._running.values()):
            task.cancel()
        await asyncio.gather(*self._running.values(), return_exceptions=True)
        for _, covered in self._newest.values():
            _release(covered)
        self._newest.clear()


def _release(holds: list[Callable[[], None]]) -> None:
    for release in holds:
        release()
