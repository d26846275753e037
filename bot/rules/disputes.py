"""Disputes (TEAM-DISP-1, COMMON-DISPUTE-1, COMMON-RULING-1): the report window and finding precedents."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.rules.refusals import RuleViolation

REPORT_WINDOW = timedelta(hours=24)  # TEAM-DISP-1: from the end of the match (the sheet's default)
PRECEDENTS_SHOWN = 3
DISPUTE_KINDS = ("score", "penalty", "machine", "lineup", "conduct", "other")


def check_report_window(ended_at: datetime | None, now: datetime) -> None:
    """TEAM-DISP-1: a challenge is filed within 24 hours of the match ending (its last game entered).
    `ended_at` is in the league's time zone; None means the match has not ended."""
    if ended_at is None or now <= ended_at + REPORT_WINDOW:
        return
    deadline = ended_at + REPORT_WINDOW
    raise RuleViolation(
        "TEAM-DISP-1",
        f"Challenges must be filed within 24 hours of the match ending; it ended {ended_at:%a %Y-%m-%d %H:%M}, "
        f"so the window closed {deadline:%a %Y-%m-%d %H:%M}. Ask a commissioner if something must be corrected.",
    )


@dataclass(frozen=True)
class PrecedentView:
    id: int
    kind: str
    rule_id: str | None
    machine_family: str | None
    situation: str
    ruling: str


def similar(
    precedents: Iterable[PrecedentView], *, kind: str, rule_id: str | None, machine_families: Sequence[str]
) -> list[PrecedentView]:
    """COMMON-RULING-1: earlier rulings on the same machine, the same rule or the same kind of dispute, the
    closest first (a shared machine or rule counts more than the kind), newest first among equals."""

    def closeness(p: PrecedentView) -> int:
        machine = p.machine_family is not None and p.machine_family in machine_families
        rule = rule_id is not None and p.rule_id == rule_id
        return 2 * machine + 2 * rule + (p.kind == kind)

    ranked = [(closeness(p), p) for p in precedents]
    ranked = [pair for pair in ranked if pair[0] > 0]
    ranked.sort(key=lambda pair: (-pair[0], -pair[1].id))
    return [p for _, p in ranked[:PRECEDENTS_SHOWN]]
