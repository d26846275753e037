"""Score entry shared by every format: what a typed score may look like, and how it is echoed back.

COMMON-SCORE-1: a score is a whole number from 0 up to the league's `config:score_ceiling` (99,999,999,999 unless
raised), typed the way people write numbers: plain ASCII digits ("45210330") or thousands grouped by one separator
used throughout: commas ("45,210,330"), periods ("45.210.330") or spaces ("45 210 330", also no-break, thin and
narrow no-break spaces). Exact groups of three digits are unambiguous because a score has no fraction: "1.234" can
only mean 1,234. Anything else is refused: mixed or badly grouped separators ("45,210.330", "1,23,4560"), signs,
decimals, and digits outside ASCII (Arabic-Indic, fullwidth…), which Python's int() would accept silently. Every
refusal names the field the member saw and what they typed: "Away 2 (Carol): '45.2.1' is not a score. …".

Shorthand ("45.2M", "1.2B", "450k", "45.2 m") is inexact by nature, so it is refused unless the league turns on
`config:allow_shorthand` (COMMON-AMB-3, default off). When on, it means exactly what it says: "45.2M" is
45,200,000, and a shorthand naming a fraction of a point ("1.2345k") is refused rather than rounded.
`config:require_commas` (COMMON-AMB-5, field leagues) accepts only comma grouping for scores of 1,000 or more.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import BaseModel, Field

from bot.rules.refusals import RuleViolation

SCORE_LIMIT = 10**15 - 1
"""999,999,999,999,999: no league may set a higher ceiling. Every accepted score fits a signed 64-bit column."""

SCORE_CEILING = 10**11 - 1
"""99,999,999,999, a league's default ceiling: five times the highest score in 18 seasons of UK Pinball League
meets (20,277,653,890), so a stray extra digit is caught while real scores pass. Leagues can raise it."""

NOT_A_SCORE = "Score must be a whole number, e.g. 12,345,670"
COMMAS_REQUIRED = "Write the score with commas, e.g. 1,234,560"
SHORTHAND_EXAMPLE = "45.2M"
_AS_SHOWN = "type it as the machine shows it"

_PLAIN = re.compile(r"[0-9]+")
_GROUPED = re.compile(r"[1-9][0-9]{0,2}(?P<sep>[,. ])[0-9]{3}(?:(?P=sep)[0-9]{3})*")
_SHORTHAND = re.compile(r"(?P<whole>[0-9]+)(?:\.(?P<fraction>[0-9]+))? ?(?P<unit>[kmb])", re.IGNORECASE)
_LOOKS_LIKE_SHORTHAND = re.compile(r"[0-9][0-9.,]* ?[kmbt]", re.IGNORECASE)
_SPACES = re.compile(r"[\u00a0\u2009\u202f]")  # no-break, thin and narrow no-break spaces read as a space
_UNIT_DIGITS = {"k": 3, "m": 6, "b": 9}
_ECHO_LENGTH = 24


@dataclass(frozen=True)
class ScoreInput:
    """How a league's members may write a score: its `config:allow_shorthand` (COMMON-AMB-3), its highest
    accepted score and, in a field league, `config:require_commas` (COMMON-AMB-5), which outranks shorthand."""

    allow_shorthand: bool = False
    ceiling: int = SCORE_CEILING
    require_commas: bool = False

    @property
    def takes_shorthand(self) -> bool:
        return self.allow_shorthand and not self.require_commas


class ScoreInputOptions(BaseModel):
    """The score-entry options every format's league options share (COMMON-SCORE-1, COMMON-AMB-3)."""

    allow_shorthand: bool = False  # COMMON-AMB-3
    score_ceiling: int = Field(SCORE_CEILING, ge=1, le=SCORE_LIMIT)  # COMMON-SCORE-1

    @property
    def score_input(self) -> ScoreInput:
        return ScoreInput(allow_shorthand=self.allow_shorthand, ceiling=self.score_ceiling)


def parse_score(text: str, *, field: str | None = None, rules: ScoreInput = ScoreInput()) -> int:
    """Read a typed score (COMMON-SCORE-1) under a league's `rules`; `field` is the label the member saw
    ("Away 2 (Carol)"), named in every refusal together with what was typed."""
    cleaned = _SPACES.sub(" ", text.strip())
    prefix = f"{field}: " if field else ""
    if not cleaned:
        raise RuleViolation("COMMON-SCORE-1", f"{prefix}no score was typed. {_whole_number(rules)}.")
    said = f"{prefix}'{_echo(cleaned)}'"
    negative = cleaned[0] in ("-", "\u2212")
    body = cleaned[1:].lstrip() if negative else cleaned
    value = _exact(body)
    if value is None:
        value = _shorthand(body, rules, said)
    if negative:
        raise RuleViolation("COMMON-SCORE-1", f"{said} is negative; a score is 0 or more. {_whole_number(rules)}.")
    if value > rules.ceiling:
        raise RuleViolation(
            "COMMON-SCORE-1",
            f"{said} is above this league's highest score, {format_score(rules.ceiling)}. Check for an extra digit "
            "(commissioners can raise the `score_ceiling` option).",
        )
    if rules.require_commas and value >= 1000 and "," not in body:
        raise RuleViolation("COMMON-AMB-5", f"{said} needs commas in this league. {COMMAS_REQUIRED}.")
    return value


def typed_scores(text: str) -> list[str]:
    """Several scores typed in one field, separated by spaces: its words, unless the whole text reads as one
    space-grouped score ("45 210 330") or one shorthand ("45.2 M"), which stay whole for `parse_score`."""
    cleaned = _SPACES.sub(" ", text.strip())
    if _GROUPED.fullmatch(cleaned) or _LOOKS_LIKE_SHORTHAND.fullmatch(cleaned):
        return [cleaned]
    return cleaned.split() or [cleaned]


def format_score(score: int) -> str:
    """The score with comma thousands separators, as echoed for confirmation (COMMON-SCORE-1): 1,234,560."""
    return f"{score:,}"


def _exact(body: str) -> int | None:
    """The number spelt by plain digits or correctly grouped thousands, else None."""
    if _PLAIN.fullmatch(body) is None and _GROUPED.fullmatch(body) is None:
        return None
    digits = re.sub("[,. ]", "", body).lstrip("0") or "0"
    if len(digits) > len(str(SCORE_LIMIT)):  # checked before int() so a huge paste costs nothing
        return SCORE_LIMIT + 1
    return int(digits)


def _shorthand(body: str, rules: ScoreInput, said: str) -> int:
    """`45.2M` → 45,200,000 exactly where the league takes shorthand (COMMON-AMB-3); otherwise, or for a
    fraction of a point ("1.2345k", never rounded), the refusal saying why the text is not a score."""
    shorthand = _SHORTHAND.fullmatch(body)
    if not rules.takes_shorthand:
        if _LOOKS_LIKE_SHORTHAND.fullmatch(body):
            raise RuleViolation(
                "COMMON-AMB-3",
                f"{said} is shorthand, which this league does not take. {NOT_A_SCORE}: {_AS_SHOWN}.",
            )
    elif shorthand:
        whole = shorthand["whole"].lstrip("0")
        fraction = (shorthand["fraction"] or "").rstrip("0")
        shift = _UNIT_DIGITS[shorthand["unit"].lower()]
        if len(fraction) > shift:
            raise RuleViolation(
                "COMMON-AMB-3",
                f"{said} is a fraction of a point. {_whole_number(rules)}: {_AS_SHOWN}.",
            )
        if len(whole) + shift > len(str(SCORE_LIMIT)):  # checked before int() so a huge paste costs nothing
            return SCORE_LIMIT + 1
        return int(whole + fraction.ljust(shift, "0"))  # never empty: the unit adds at least three digits
    raise RuleViolation("COMMON-SCORE-1", f"{said} is not a score. {_whole_number(rules)}.")


def _whole_number(rules: ScoreInput) -> str:
    """The catalog's refusal, showing shorthand as an example only where the league takes it."""
    return f"{NOT_A_SCORE} or {SHORTHAND_EXAMPLE}" if rules.takes_shorthand else NOT_A_SCORE


def _echo(text: str) -> str:
    """What was typed, shortened so a runaway paste cannot flood the reply."""
    return text if len(text) <= _ECHO_LENGTH else text[: _ECHO_LENGTH - 1] + "…"
