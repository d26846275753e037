"""Driving the bot through the emulator and timing it: per command kind, at a given number of concurrent
members, and sustained for a while. Format-agnostic: a format supplies `Workload`s (bench/formats.py)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import random
import statistics
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field

from bot.local.emulator import Emulator, EmulatorError, InteractionResult, Output
from bot.local.emulator.commands import parse_line
from bot.local.emulator.interactions import InteractionRecord, InteractionType

REPLY_KINDS = ("response", "followup", "edit", "autocomplete", "modal")  # "edit": a deferral resolved
Call = Callable[[], Awaitable[InteractionResult]]


@contextlib.contextmanager
def _instrument_never_collecting() -> Iterator[None]:
    """The load generator's own garbage collector off while it times the bot. This process holds the emulator's
    whole guild and its messages (230,000-340,000 objects): a full collection here stalled the emulator for
    64-120 ms, and every interaction in flight would be timed that much slower, a pause of the instrument, not of
    the bot, which Discord's servers do not have. Seeded state is frozen out of later collections, and the
    garbage of the timed window collected after it."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect()


def _stolen_ticks() -> int | None:
    """Linux's steal time: clock ticks this virtual machine's cores were ready to run but the host ran another
    machine instead. Latency measured meanwhile includes those waits; None where /proc/stat is not there."""
    try:
        with open("/proc/stat") as stat:
            return int(stat.readline().split()[8])  # "cpu user nice system idle iowait irq softirq steal …"
    except (OSError, IndexError, ValueError):
        return None


class TimedEmulator(Emulator):
    """The emulator, noting when each interaction got its reply (not just its acknowledgement)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.replied_at: dict[int, float] = {}
        self._replies: dict[int, asyncio.Event] = {}
        self.quiet_window = 0.0  # measure, do not linger: replies are awaited through `replied`

    def emit(self, output: Output, record: InteractionRecord | None) -> None:
        super().emit(output, record)
        if record is not None and output.kind in REPLY_KINDS and record.id not in self.replied_at:
            self.replied_at[record.id] = asyncio.get_running_loop().time()
            self._reply(record.id).set()

    def _reply(self, interaction_id: int) -> asyncio.Event:
        return self._replies.setdefault(interaction_id, asyncio.Event())

    async def replied(self, interaction_id: int, within: float) -> None:
        """The emulator returns once an interaction is acknowledged; a deferred one replies later."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._reply(interaction_id).wait(), within)

    async def answer_of(self, result: InteractionResult, within: float = 30.0) -> str:
        """The reply the member reads: a deferred command's comes after `run` returns with the acknowledgement, so a
        preparation that goes on only once a command succeeded must wait for it, not read the "thinking…"."""
        await self.replied(result.interaction_id, within)
        replies = [o for o in self.interactions[result.interaction_id].outputs if o.kind in REPLY_KINDS]
        return next((o.content for o in reversed(replies) if o.content), result.content)

    async def autocomplete_result(self, line: str, *, focused: str, as_member: str) -> InteractionResult:
        """`autocomplete`, returning the whole result (with its timing) rather than only the choices."""
        member = self.member(as_member)
        invocation = parse_line(
            line, self.registry, self._resolver(member, self.guild), focused=focused, autocomplete=True
        )
        record = self._dispatch(
            InteractionType.AUTOCOMPLETE, f"autocomplete of {invocation.label}", member, self.channel("general"),
            invocation.data(),
        )  # fmt: skip
        return await self._settle(record, 5.0)


@dataclass
class Workload:
    """One command kind: `calls(n)` puts the league in a state where its commands are legal (e.g. clears
    tonight's scores before score entries) and returns up to n of them, ready to send."""

    kind: str
    calls: Callable[[int], Awaitable[list[Call]]]
    max_concurrency: int | None = None  # e.g. lineups: one declaration at a time per match, by rule
    limit: int | None = None  # how many legal commands one preparation allows (e.g. one score per game)
    note: str = ""
    needs: tuple[str, ...] = ()  # the kinds whose commands prepare this one's (Confirm needs the scores entered)


def selected(workloads: Sequence[Workload], kinds: Sequence[str]) -> list[Workload]:
    """The workloads of these kinds and of every kind they need, in their order (all of them given no kinds)."""
    if not kinds:
        return list(workloads)
    needs = {w.kind: w.needs for w in workloads}
    wanted, todo = set(), list(kinds)
    while todo:
        kind = todo.pop()
        if kind not in wanted:
            wanted.add(kind)
            todo.extend(needs.get(kind, ()))
    return [w for w in workloads if w.kind in wanted]


@dataclass
class Latencies:
    kind: str
    concurrency: int
    think: float | None = None  # members paced: the mean pause between one's reply and their next command
    ack: list[float] = field(default_factory=list)  # dispatch → first callback, seconds
    reply: list[float] = field(default_factory=list)  # dispatch → the reply the member reads
    refused: int = 0
    refusals: list[str] = field(default_factory=list)
    reply_by_command: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    wall: float = 0.0
    stolen: float | None = None  # the share of the cores' time the host gave to other machines meanwhile

    @property
    def count(self) -> int:
        return len(self.ack)

    def percentile(self, which: str, q: float) -> float:
        values = sorted(getattr(self, which))
        if not values:
            return float("nan")
        return values[min(len(values) - 1, round(q / 100 * (len(values) - 1)))]

    def ms(self, which: str, q: float) -> str:
        return f"{self.percentile(which, q) * 1000:.1f}"

    @property
    def mean_reply(self) -> float:
        return statistics.fmean(self.reply) if self.reply else float("nan")


async def measure(
    emulator: TimedEmulator,
    kind: str,
    calls: Sequence[Call],
    *,
    concurrency: int,
    for_seconds: float | None = None,
    reply_within: float = 30.0,
    think: float | None = None,
    rng: random.Random | None = None,
) -> Latencies:
    """Run `calls` with `concurrency` members acting at once until they are all done or `for_seconds` have
    passed. Back to back, each member starts their next call when answered (the bot saturated: every
    latency includes waiting behind the other members' commands); with `think`, each member first pauses
    for a random time (exponential, mean `think` seconds), as people typing commands do, so the members
    offer about `concurrency / think` interactions per second."""
    result = Latencies(kind, concurrency, think)
    pauses = rng or random.Random(0)
    queue = list(reversed(calls))
    records: list[int] = []
    deadline = None if for_seconds is None else time.perf_counter() + for_seconds

    async def member() -> None:
        while queue and (deadline is None or time.perf_counter() < deadline):
            if think is not None:
                await asyncio.sleep(pauses.expovariate(1 / think))
                if not queue:
                    break
            call = queue.pop()
            try:
                outcome = await call()
            except EmulatorError as error:
                result.errors.append(str(error))
                continue
            records.append(outcome.interaction_id)
            await emulator.replied(outcome.interaction_id, reply_within)

    with _instrument_never_collecting():
        stolen_before, began = _stolen_ticks(), time.perf_counter()
        await asyncio.gather(*(member() for _ in range(concurrency)))
        result.wall, stolen_after = time.perf_counter() - began, _stolen_ticks()
    if stolen_before is not None and stolen_after is not None and result.wall > 0:
        cores_time = result.wall * (os.cpu_count() or 1) * os.sysconf("SC_CLK_TCK")
        result.stolen = (stolen_after - stolen_before) / cores_time
    for interaction_id in records:
        record = emulator.interactions[interaction_id]
        if record.acked_at is None:
            result.errors.append(f"{record.label}: never acknowledged")
            continue
        result.ack.append(record.acked_at - record.dispatched_at)
        replied = emulator.replied_at.get(interaction_id)
        if replied is None:
            result.errors.append(f"{record.label}: acknowledged, never answered")
        else:
            result.reply.append(replied - record.dispatched_at)
            command = "autocomplete" if record.label.startswith("autocomplete") else record.label  # "/ladder score"
            result.reply_by_command.setdefault(command, []).append(replied - record.dispatched_at)
        refusals = [o.content for o in record.outputs if o.kind in REPLY_KINDS and o.content.startswith("⛔")]
        if refusals:
            result.refused += 1
            result.refusals.append(refusals[0])
    return result
