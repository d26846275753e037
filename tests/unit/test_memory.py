"""Full garbage collections run at quiet moments, as often as Python's own would (bot.memory)."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from bot.interactions import _counted_as_answering
from bot.memory import YOUNG_AT_LEAST, collect_between_answers


class Cycle:
    def __init__(self) -> None:
        self.itself = self


@pytest.fixture
def thresholds() -> Iterator[None]:
    """No automatic young collections during a test, and a full one due after three middle ones."""
    before = gc.get_threshold()
    gc.collect()
    gc.set_threshold(1_000_000, 10, 3)
    yield
    gc.set_threshold(*before)


def garbage_only_a_full_collection_frees() -> weakref.ref[Cycle]:
    cycle = Cycle()
    gc.collect(1)  # survives the young and middle generations: now in the oldest, which only a full collection walks
    return weakref.ref(cycle)


async def test_a_due_collection_waits_for_the_answer_in_progress(thresholds: None) -> None:
    collector = asyncio.create_task(collect_between_answers(look_every=0.01, replies_first_for=5))
    await asyncio.sleep(0)
    assert gc.get_threshold()[2] > 1_000_000, "Python's own full collections are off while the collector runs"
    with _counted_as_answering():
        garbage = garbage_only_a_full_collection_frees()
        gc.collect(1)
        gc.collect(1)  # three middle-generation collections: a full one is due
        await asyncio.sleep(0.1)
        assert garbage() is not None, "collected while an answer was in progress"
    await asyncio.sleep(0.1)
    assert garbage() is None, "not collected once the answer was done"
    collector.cancel()
    await asyncio.gather(collector, return_exceptions=True)
    assert gc.get_threshold() == (1_000_000, 10, 3), "Python's thresholds are put back when the collector stops"


async def test_no_full_collection_before_one_is_due(thresholds: None) -> None:
    collector = asyncio.create_task(collect_between_answers(look_every=0.01))
    garbage = garbage_only_a_full_collection_frees()
    await asyncio.sleep(0.1)
    assert garbage() is not None, "collected with one middle-generation collection of the three due"
    gc.collect(1)
    gc.collect(1)
    await asyncio.sleep(0.1)
    assert garbage() is None, "not collected once due with nothing being answered"
    collector.cancel()
    await asyncio.gather(collector, return_exceptions=True)


async def test_two_collectors_put_the_thresholds_back_only_when_both_stop(thresholds: None) -> None:
    first = asyncio.create_task(collect_between_answers(look_every=0.01))
    second = asyncio.create_task(collect_between_answers(look_every=0.01))
    await asyncio.sleep(0)
    first.cancel()
    await asyncio.gather(first, return_exceptions=True)
    assert gc.get_threshold()[2] > 1_000_000, "one bot stopping turned Python's collections back on for the other"
    second.cancel()
    await asyncio.gather(second, return_exceptions=True)
    assert gc.get_threshold() == (1_000_000, 10, 3)


async def test_young_collections_run_less_often_than_pythons_default_while_the_collector_runs() -> None:
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)  # Python's own
    try:
        collector = asyncio.create_task(collect_between_answers(look_every=0.01))
        await asyncio.sleep(0)
        assert gc.get_threshold() == (YOUNG_AT_LEAST, 10, 1_000_000_000)
        collector.cancel()
        await asyncio.gather(collector, return_exceptions=True)
        assert gc.get_threshold() == (700, 10, 10)
    finally:
        gc.set_threshold(*before)
