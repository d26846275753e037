"""The field format's notable actions (bot/rules/field/notices.py): COMMON-NOTIFY-1."""

from datetime import UTC, datetime

import pytest

from bot.rules.field.notices import NOTICES
from bot.rules.notices import AuditFact

DETAIL = {kind.action: kind.detail for kind in NOTICES}


def fact(action: str, after: dict | None, reason: str | None) -> AuditFact:
    return AuditFact(
        1, 1, 1, "/field", action, "ticket", datetime(2018, 6, 5, 21, tzinfo=UTC), after=after, reason=reason
    )


@pytest.mark.parametrize(
    ("action", "after", "reason", "detail"),
    [
        (
            "field_malfunction_major",
            {"incident": "airball"},
            "ball flew over the flipper",
            "airball (ball flew over the flipper)",
        ),
        ("field_malfunction_major", {"incident": "airball"}, None, "airball"),
        ("field_malfunction_major", {"incident": "airball"}, "", "airball"),
        ("field_malfunction_major", None, "no details", " (no details)"),
        ("field_malfunction_major", {}, None, ""),
        ("field_penalty", {"offence": "death_save"}, "bangback on M3", "death_save (bangback on M3)"),
        ("field_penalty", {"offence": "slow_play"}, None, "slow_play"),
        ("field_penalty", None, None, ""),
        ("field_penalty", {}, "warned", " (warned)"),
    ],
)
def test_a_notice_names_the_incident_or_offence_and_the_reason_common_notify_1(action, after, reason, detail):
    """COMMON-NOTIFY-1: a night's major malfunction or penalty is told by what happened and why."""
    assert DETAIL[action](fact(action, after, reason)) == detail
