"""Shared assertions for the ladder rule tests."""

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from bot.rules.refusals import RuleViolation


@contextmanager
def refused(rule_id: str, match: str) -> Iterator[None]:
    """The block raises a RuleViolation citing `rule_id`, with a message matching `match`."""
    with pytest.raises(RuleViolation, match=match) as info:
        yield
    assert info.value.rule_id == rule_id


@contextmanager
def refused_saying(rule_id: str, message: str) -> Iterator[None]:
    """The block raises a RuleViolation citing `rule_id` with exactly `message`, the text the member reads."""
    with pytest.raises(RuleViolation) as info:
        yield
    assert (info.value.rule_id, info.value.message) == (rule_id, message)
