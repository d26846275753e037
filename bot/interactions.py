"""Answering an interaction inside Discord's 3-second deadline.

`answer` runs the work and replies directly when it finishes quickly; if it is still running DEFER_AFTER
seconds after Discord created the interaction, or at once while the bot is busy with many others, it defers
(the token then lives 15 minutes) and edits the "thinking…" placeholder into the reply. A deferral's visibility
is final, so the caller names the visibility the reply will have before the work ends.

`report_done` tells someone in the same process when the bot has finished with an interaction, the work it
handed to background tasks included (`hold_interaction`). Discord has no such message; the local emulator
uses it to know that a command's reply, followups and scoreboard are all in without waiting for a quiet moment.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.interaction_claims import InteractionClaims
from bot.metrics import Metrics, command_name

log = logging.getLogger(__name__)

DEFER_AFTER = 1.0  # seconds after Discord created the interaction; leaves room for latency inside its 3 s
# Answers being worked on beyond which a new one defers at once: in a burst, deferrals that all fall due
# together queue behind each other on the event loop, and the last would miss the 3 s.
BUSY = 8
_working = 0  # answers whose work is running
_answering = 0  # `answer` calls not finished: their work or their reply still to send
_waiting_for_quiet: list[asyncio.Future[None]] = []  # `quiet` callers, woken when `_answering` reaches 0
DEFERRED_EPHEMERAL = "pinleague.deferred_ephemeral"  # key in Interaction.extras


@dataclass
class Reply:
    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    ephemeral: bool = True
    view: discord.ui.View | None = None  # buttons under the reply
    files: list[discord.File] = field(default_factory=list)  # attachments, e.g. a post's images
    mentions: tuple[int, ...] = ()  # users the reply pings: only those who must act now (the default: nobody)

    @property
    def allowed_mentions(self) -> discord.AllowedMentions:
        return (
            discord.AllowedMentions(users=[discord.Object(user) for user in self.mentions])
            if self.mentions
            else (discord.AllowedMentions.none())
        )


async def answer(interaction: discord.Interaction, work: Awaitable[Reply], *, ephemeral: bool) -> None:
    """Reply with the result of `work`; `ephemeral` must be known before the work ends, in case we defer.

    A second delivery of the same interaction (a replay, or another process of the bot) does nothing. The
    claim that decides it runs inside the deferral window, so a busy database cannot make us miss the 3 s."""
    with _counted_as_answering():
        await _answer(interaction, work, ephemeral=ephemeral)


async def _answer(interaction: discord.Interaction, work: Awaitable[Reply], *, ephemeral: bool) -> None:
    """The work runs in this task, not one of its own: each hand-over between tasks is a turn of the event loop,
    and under load every turn waits behind the other members' commands. A timer defers meanwhile if the work
    is still running when the deferral falls due (it can only fire while the work awaits the database)."""
    global _working
    claims: InteractionClaims | None = getattr(interaction.client, "claims", None)
    metrics: Metrics | None = getattr(interaction.client, "metrics", None)
    deferral: asyncio.Task[None] | None = None

    def defer() -> asyncio.Task[None]:
        nonlocal deferral
        deferral = asyncio.ensure_future(_defer(interaction, ephemeral, metrics))
        return deferral

    timer: asyncio.TimerHandle | None = None
    _working += 1
    try:
        if _working > BUSY:  # a burst: acknowledged before the work holds the loop (SQLite's work never yields)
            await defer()
        else:
            timer = asyncio.get_running_loop().call_later(_time_before_deferring(interaction), defer)
        if claims is not None and not await claims.claim(interaction.id):
            if inspect.iscoroutine(work):
                work.close()  # never started: the first delivery does the work and answers
            reply = None
        else:
            reply = await work
    except BaseException:
        if deferral is not None:  # the error handler answers once the placeholder is there
            await asyncio.gather(deferral, return_exceptions=True)
        raise  # a Refusal reaches the tree's error handler
    finally:
        _working -= 1
        if timer is not None:
            timer.cancel()
    if deferral is not None:
        await deferral
    if reply is None:
        return
    if interaction.response.is_done():
        await _resolve_deferral(interaction, reply, deferred_ephemeral=ephemeral)
    else:
        await interaction.response.send_message(
            reply.content,
            embeds=reply.embeds,
            ephemeral=reply.ephemeral,
            view=_view(reply),
            files=reply.files,
            allowed_mentions=reply.allowed_mentions,
        )
    if metrics is not None:
        metrics.answered(interaction, deferred=deferral is not None)


async def _defer(interaction: discord.Interaction, ephemeral: bool, metrics: Metrics | None) -> None:
    await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    interaction.extras[DEFERRED_EPHEMERAL] = ephemeral
    if metrics is not None:
        metrics.deferred(interaction)


@contextmanager
def _counted_as_answering() -> Iterator[None]:
    global _answering
    _answering += 1
    try:
        yield
    finally:
        _answering -= 1
        _wake_one_if_quiet()


def _wake_one_if_quiet() -> None:
    """Let the longest waiting `quiet` caller go while nothing is being answered. One at a time: woken together,
    a dozen boards would be built and sent in one burst, in front of whichever reply arrives next."""
    while _waiting_for_quiet and not _answering:
        waiter = _waiting_for_quiet.pop(0)
        if not waiter.done() and not waiter.get_loop().is_closed():
            waiter.set_result(None)
            return


async def quiet(within: float) -> None:
    """Until no answer is being worked on or sent, or `within` seconds have passed: background work no member is
    waiting for (a board edit, a notice) lets the replies members wait for go first, one piece of work per quiet
    moment. Under a steady stream of commands there may be no gap, so the wait is bounded."""
    loop = asyncio.get_running_loop()
    if not _answering and not _waiting_for_quiet:
        loop.call_soon(_wake_one_if_quiet)  # whoever comes next waits for this one's first step
        return
    waiter = loop.create_future()
    _waiting_for_quiet.append(waiter)
    try:
        await asyncio.wait_for(waiter, within)
    except TimeoutError:
        if waiter in _waiting_for_quiet:  # not woken just as the wait ran out
            _waiting_for_quiet.remove(waiter)
    loop.call_soon(_wake_one_if_quiet)  # after this one's first step: the next, if still quiet


async def _resolve_deferral(interaction: discord.Interaction, reply: Reply, *, deferred_ephemeral: bool) -> None:
    """Turn the "thinking…" placeholder into the reply by editing it, the way Discord documents. The placeholder
    keeps the deferral's visibility, so a reply that wants the other one (its command declared the wrong one)
    replaces the placeholder with a followup instead of showing private things publicly or the reverse."""
    if reply.ephemeral == deferred_ephemeral:
        await interaction.edit_original_response(
            content=reply.content,
            embeds=reply.embeds,
            attachments=reply.files,
            view=_view(reply),
            allowed_mentions=reply.allowed_mentions,
        )
        return
    log.warning(
        "%s deferred %s but replied %s: declare the reply's visibility when it can defer",
        command_name(interaction),
        _visibility(deferred_ephemeral),
        _visibility(reply.ephemeral),
    )
    await interaction.delete_original_response()
    await interaction.followup.send(
        reply.content or "",
        embeds=reply.embeds,
        ephemeral=reply.ephemeral,
        view=_view(reply),
        files=reply.files,
        allowed_mentions=reply.allowed_mentions,
    )


def _view(reply: Reply) -> Any:
    return reply.view if reply.view is not None else discord.utils.MISSING


def _visibility(ephemeral: bool) -> str:
    return "privately" if ephemeral else "publicly"


def _time_before_deferring(interaction: discord.Interaction) -> float:
    """DEFER_AFTER counted from when Discord created the interaction (its id carries the time), so time spent
    queued behind other work while busy comes out of the wait rather than out of the 3 s."""
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return min(max(DEFER_AFTER - age, 0.0), DEFER_AFTER)


Parser = Callable[[Any], None]
DoneHook = Callable[[int], None]


class _Work:
    """What the bot still has to do for one interaction: a count of holds, the hook told when it reaches zero."""

    def __init__(self, interaction_id: int, on_done: DoneHook) -> None:
        self.interaction_id = interaction_id
        self._on_done = on_done
        self._holds = 0

    def hold(self) -> Callable[[], None]:
        self._holds += 1
        released = False

        def release() -> None:
            nonlocal released
            if not released:
                released = True
                self._holds -= 1
                if self._holds == 0:
                    self._on_done(self.interaction_id)

        return release


_handling: ContextVar[_Work | None] = ContextVar("pinleague_handling", default=None)


def _no_hold() -> None:
    pass


def hold_interaction() -> Callable[[], None]:
    """Count the interaction being handled as unfinished until the returned function is called: for work it
    hands to a background task, e.g. its match's scoreboard. Does nothing unless someone asked (`report_done`)."""
    work = _handling.get()
    return work.hold() if work is not None else _no_hold


def report_done(parse_interaction_create: Parser, on_done: DoneHook) -> Parser:
    """discord.py's INTERACTION_CREATE parser, wrapped to call `on_done(interaction id)` once every task it
    started (the command, component or modal handler, listeners) has ended and every `hold_interaction` taken
    inside them has been released. The parser starts those tasks without awaiting them, so they are the tasks
    that exist once it returns and did not before; they and the tasks they start see `_handling`."""

    def parse(data: Any) -> None:
        work = _Work(int(data["id"]), on_done)
        release_parse = work.hold()
        loop = asyncio.get_running_loop()
        token = _handling.set(work)
        with _tasks_started(loop) as started:
            try:
                parse_interaction_create(data)
            finally:
                _handling.reset(token)
        for task in started:
            task.add_done_callback(_on_end(work.hold()))
        release_parse()

    return parse


@contextmanager
def _tasks_started(loop: asyncio.AbstractEventLoop) -> Iterator[list[asyncio.Task[Any]]]:
    """The tasks created on `loop` inside the block, caught by its task factory as they are made (comparing
    `asyncio.all_tasks()` before and after costs a walk of every task: quadratic in a burst of interactions)."""
    started: list[asyncio.Task[Any]] = []
    previous = loop.get_task_factory()

    def catch(loop: asyncio.AbstractEventLoop, coro: Any, **options: Any) -> asyncio.Future[Any]:
        task = previous(loop, coro, **options) if previous else asyncio.Task(coro, loop=loop, **options)
        if isinstance(task, asyncio.Task):
            started.append(task)
        return task

    loop.set_task_factory(catch)
    try:
        yield started
    finally:
        loop.set_task_factory(previous)


def _on_end(release: Callable[[], None]) -> Callable[[asyncio.Task[Any]], None]:
    return lambda _: release()
