"""Score entry shared by every format: what a typed score may look like, and how it is echoed back.

COMMON-SCORE-1: a score is a non-negative whole number written as plain ASCII digits ("1234560") or with
correctly grouped comma thousands separators ("1,234,560"). Surrounding whitespace is ignored. Everything
else is refused, including other separators (spaces, periods, underscores: "1.234" means 1234 in some
locales and 1.234 in others, so it cannot be read safely), signs, decimals, shorthand ("50M", COMMON-AMB-3)
and digits outside ASCII (Arabic-Indic, fullwidth…), which Python's int() would otherwise accept silently.
"""

from __future__ import annotations

import re

from bot.rules.refusals import RuleViolation

SCORE_MAX = 10**15 - 1
"""999,999,999,999,999. Real pinball scores reach the low trillions (10^12); a thousandfold headroom still
refuses runaway pastes, and every accepted score fits a signed 64-bit database column."""

NOT_A_SCORE = "Score must be a whole number, e.g. 12,345,670"
COMMAS_REQUIRED = "Write the score with commas, e.g. 1,234,560"

_PLAIN = re.compile(r"[0-9]+")
_GROUPED = re.compile(r"[1-9][0-9]{0,2}(?:,[0-9]{3})+")
_SHORTHAND = re.compile(r"[0-9]+(?:[.,][0-9]+)?\s*[kmbt]", re.IGNORECASE)


def parse_score(text: str, *, require_commas: bool = False) -> int:
    """Read a typed score (COMMON-SCORE-1); `require_commas` is `config:require_commas` (COMMON-AMB-5).

    With `require_commas`, a score of 1,000 or more must be comma-grouped; smaller ones ("999") need none.
    """
    cleaned = text.strip()
    plain = _PLAIN.fullmatch(cleaned) is not None
    if not plain and _GROUPED.fullmatch(cleaned) is None:
        rule = "COMMON-AMB-3" if _SHORTHAND.fullmatch(cleaned) else "COMMON-SCORE-1"
        raise RuleViolation(rule, NOT_A_SCORE)
    digits = cleaned.replace(",", "").lstrip("0") or "0"
    if len(digits) > len(str(SCORE_MAX)):  # checked before int() so a huge paste costs nothing
        raise RuleViolation(
            "COMMON-SCORE-1",
            f"Score is too large: the highest score accepted is {format_score(SCORE_MAX)}. Check for extra digits.",
        )
    value = int(digits)
    if plain and require_commas and value >= 1000:
        raise RuleViolation("COMMON-AMB-5", COMMAS_REQUIRED)
    return value


def format_score(score: int) -> str:
    """The score with comma thousands separators, as echoed for confirmation (COMMON-SCORE-1): 1,234,560."""
    return f"{score:,}"
