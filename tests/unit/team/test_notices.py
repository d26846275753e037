"""The team format's commissioner notices (bot/rules/team/notices.py, COMMON-NOTIFY-1): what a dispute and a
captains' agreement say."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.rules.notices import AuditFact, Names, notice_text, notices
from bot.rules.team import notices as team_notices

NOW = datetime(2027, 3, 9, 21, 0, tzinfo=UTC)


def told(action: str, after: Mapping[str, Any] | None) -> str:
    entry = AuditFact(
        id=1, league_id=1, actor_id=77, command="/match", action=action, entity="match", at=NOW, after=after
    )
    [notice] = notices([entry], now=NOW, grace={1: timedelta(hours=1)})
    return notice_text(notice, Names()).splitlines()[0]


@pytest.mark.parametrize(
    ("action", "after", "line"),
    [
        (
            "dispute_opened",
            {"reason": "ball stuck", "kind": "lineup"},
            "**⚖️ Dispute opened**: ball stuck (kind lineup)",
        ),
        ("dispute_opened", {"reason": "ball stuck"}, "**⚖️ Dispute opened**: ball stuck (kind score)"),
        ("dispute_opened", None, "**⚖️ Dispute opened**:  (kind score)"),
        ("agreement_proposed", {"terms": "replay game 2"}, "**🤝 Captains' agreement proposed**: replay game 2"),
        ("agreement_accepted", {"terms": "replay game 2"}, "**🤝 Captains' agreement accepted**: replay game 2"),
        ("agreement_proposed", None, "**🤝 Captains' agreement proposed**"),
        ("agreement_accepted", {}, "**🤝 Captains' agreement accepted**"),
    ],
)
def test_common_notify_1_a_dispute_gives_its_reason_and_kind_and_an_agreement_its_terms(
    action: str, after: Mapping[str, Any] | None, line: str
) -> None:
    """COMMON-NOTIFY-1: a dispute's kind defaults to a score dispute; an agreement without terms shows none."""
    assert told(action, after) == line
    assert team_notices.NOTICES
