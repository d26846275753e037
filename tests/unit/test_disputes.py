"""Dispute rules (bot/rules/disputes.py): TEAM-DISP-1's 24-hour window and COMMON-RULING-1 precedents."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.rules.disputes import PrecedentView, check_report_window, similar
from bot.rules.refusals import RuleViolation

NEW_YORK = ZoneInfo("America/New_York")
ENDED = datetime(2027, 3, 3, 22, 41, tzinfo=NEW_YORK)


class TestReportWindow:
    def test_within_24_hours(self) -> None:
        """TEAM-DISP-1: a challenge up to 24 hours after the match ended is accepted."""
        check_report_window(ENDED, ENDED + timedelta(hours=24))
        check_report_window(None, ENDED + timedelta(days=9))  # the match has not ended

    def test_late_challenge_refused(self) -> None:
        """TEAM-DISP-1: after 24 hours the challenge is refused, saying when the window closed."""
        with pytest.raises(RuleViolation) as refused:
            check_report_window(ENDED, ENDED + timedelta(hours=24, minutes=1))
        assert refused.value.rule_id == "TEAM-DISP-1"
        assert "ended Wed 2027-03-03 22:41, so the window closed Thu 2027-03-04 22:41" in refused.value.message


def precedent(id: int, kind: str, rule: str | None = None, machine: str | None = None) -> PrecedentView:
    return PrecedentView(id, kind, rule, machine, f"situation {id}", f"ruling {id}")


class TestPrecedents:
    def test_closest_first(self) -> None:
        """COMMON-RULING-1: the same machine or rule ranks above the same kind; unrelated rulings are left out."""
        log = [
            precedent(1, "score"),
            precedent(2, "penalty", "TEAM-PEN-4"),
            precedent(3, "machine", None, "Godzilla"),
            precedent(4, "conduct"),
        ]
        found = similar(log, kind="score", rule_id="TEAM-PEN-4", machine_families=["Godzilla"])
        assert [p.id for p in found] == [3, 2, 1]

    def test_newest_first_among_equals_and_at_most_three(self) -> None:
        """COMMON-RULING-1: several equally close rulings: the newest three."""
        log = [precedent(n, "score") for n in range(1, 6)]
        assert [p.id for p in similar(log, kind="score", rule_id=None, machine_families=[])] == [5, 4, 3]
        assert similar(log, kind="conduct", rule_id=None, machine_families=[]) == []
