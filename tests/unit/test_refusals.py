"""Several refusals of one request reach the member as one message that fits Discord's 2,000 characters."""

from __future__ import annotations

import pytest

from bot.errors import refusal_text
from bot.rules.refusals import InvalidInput, Refusals, RuleViolation, refuse_all

HEADING = "The roster breaks {count} rules; fix them all, then submit it again:"


def test_no_refusal_raises_nothing() -> None:
    refuse_all([], HEADING)


def test_one_refusal_is_raised_as_it_is() -> None:
    alone = RuleViolation("TEAM-ROSTER-1", "Roster must have at least 6 players; it would have 5.")
    with pytest.raises(RuleViolation) as caught:
        refuse_all([alone], HEADING)
    assert caught.value is alone


def test_several_are_listed_each_with_its_rule() -> None:
    problems = [RuleViolation("TEAM-ROSTER-3", "Too few starters."), InvalidInput("`team` is empty.")]
    with pytest.raises(Refusals) as caught:
        refuse_all(problems, HEADING)
    assert caught.value.refusals == tuple(problems) and caught.value.rule_id is None
    assert refusal_text(caught.value) == (
        "⛔ The roster breaks 2 rules; fix them all, then submit it again:\n"
        "• TEAM-ROSTER-3: Too few starters.\n"
        "• `team` is empty."
    )


def test_a_list_too_long_for_one_message_says_how_many_more() -> None:
    problems = [RuleViolation("TEAM-ROSTER-11", f"Player {n:02d} " + "x" * 120) for n in range(30)]
    with pytest.raises(Refusals) as caught:
        refuse_all(problems, HEADING)
    text = refusal_text(caught.value)
    shown = text.count("• TEAM-ROSTER-11: ")
    assert len(text) <= 2000 and 10 < shown < 30 and len(caught.value.refusals) == 30
    assert text.endswith(f"• …and {30 - shown} more: fix these, then send it again to see the rest.")
