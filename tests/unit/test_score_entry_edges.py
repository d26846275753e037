"""Typed scores at the edges of COMMON-SCORE-1, COMMON-AMB-3 and COMMON-AMB-5 (bot/rules/scores.py): the echo of
a long paste, the highest ceiling a league may set, shorthand with leading or trailing zeros, and 1,000 exactly
in a league that requires commas."""

from __future__ import annotations

import pytest

from bot.rules.refusals import RuleViolation
from bot.rules.scores import SCORE_LIMIT, ScoreInput, parse_score

HIGHEST = ScoreInput(ceiling=SCORE_LIMIT)  # the highest ceiling a league may set
SHORTHAND_HIGHEST = ScoreInput(allow_shorthand=True, ceiling=SCORE_LIMIT)
ABOVE = " is above this league's highest score, 999,999,999,999,999. Check for an extra digit (commissioners can "
ABOVE += "raise the `score_ceiling` option)."


DEFAULT = ScoreInput()


def refusal(text: str, rules: ScoreInput = DEFAULT) -> str:
    with pytest.raises(RuleViolation) as caught:
        parse_score(text, rules=rules)
    return str(caught.value)


def test_common_score_1_a_long_paste_is_echoed_cut_to_24_characters() -> None:
    """COMMON-SCORE-1: the refusal names what was typed, up to 24 characters."""
    assert refusal("12345678901234567890123x") == (
        "COMMON-SCORE-1: '12345678901234567890123x' is not a score. Score must be a whole number, e.g. 12,345,670."
    )
    assert refusal("12345678901234567890123xy") == (
        "COMMON-SCORE-1: '12345678901234567890123…' is not a score. Score must be a whole number, e.g. 12,345,670."
    )


@pytest.mark.parametrize(
    ("typed", "rules"),
    [
        ("1" * 16, HIGHEST),  # one digit more than the highest score
        ("1" * 40, HIGHEST),
        ("1000000b", SHORTHAND_HIGHEST),  # 10^15
        ("9" * 5000 + "k", SHORTHAND_HIGHEST),  # a runaway paste is refused, not read
    ],
)
def test_common_score_1_scores_above_the_highest_ceiling_are_refused(typed: str, rules: ScoreInput) -> None:
    assert refusal(typed, rules).endswith(ABOVE)


@pytest.mark.parametrize(
    ("typed", "score"),
    [
        ("999999999999999", SCORE_LIMIT),
        ("100000b", 100_000_000_000_000),  # fifteen digits: the longest shorthand that can fit
        ("999999.999999999b", SCORE_LIMIT),
        ("1.2000k", 1_200),  # trailing zeros of the fraction name no fraction of a point
        ("045.20m", 45_200_000),
        ("0000001b", 1_000_000_000),  # leading zeros count for nothing
    ],
)
def test_common_amb_3_the_highest_scores_and_zero_padded_shorthand_are_read_exactly(typed: str, score: int) -> None:
    assert parse_score(typed, rules=SHORTHAND_HIGHEST) == score


def test_common_score_1_a_minus_sign_with_a_space_is_still_negative() -> None:
    assert refusal("- 45") == (
        "COMMON-SCORE-1: '- 45' is negative; a score is 0 or more. Score must be a whole number, e.g. 12,345,670."
    )


def test_common_amb_5_one_thousand_needs_its_comma_and_999_does_not() -> None:
    commas = ScoreInput(require_commas=True)
    assert refusal("1000", commas) == (
        "COMMON-AMB-5: '1000' needs commas in this league. Write the score with commas, e.g. 1,234,560."
    )
    assert parse_score("999", rules=commas) == 999
    assert parse_score("1,000", rules=commas) == 1_000
