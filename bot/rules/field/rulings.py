"""Rulings on situations the rules do not cover (FIELD-OFF-3, LPL 1.2): documented, and shown again when the same
situation comes up, so the SLO applies them consistently."""

from __future__ import annotations

from collections.abc import Iterable

from bot.rules.disputes import PrecedentView, similar
from bot.rules.refusals import InvalidInput

VOID_SLOT = "void_slot"  # FIELD-AMB-12: the ruling voids a replacement's slot for everyone
RULING_KINDS = ("machine", "other", VOID_SLOT)


def check_situation(situation: str, kind: str) -> str:
    """The situation as it is kept: what a later ruling is found by."""
    text = situation.strip()
    if not text:
        raise InvalidInput("`situation` is empty: say what happened, so the ruling can be found again.")
    if kind not in RULING_KINDS:
        raise InvalidInput(f"`kind` is one of: {', '.join(RULING_KINDS)}.")
    return text[:1000]


def earlier_rulings(
    precedents: Iterable[PrecedentView], *, kind: str, rule_id: str | None, machine_family: str | None
) -> list[PrecedentView]:
    """FIELD-OFF-3: a decision on a situation the rules do not cover is documented and applied consistently should
    the situation arise again: the earlier rulings on the same machine, the same rule or the same kind of
    situation, closest first (COMMON-RULING-1)."""
    families = [machine_family] if machine_family else []
    return similar(precedents, kind=kind, rule_id=rule_id, machine_families=families)
