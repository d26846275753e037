"""The ladder's commissioner notices (bot/rules/ladder/notices.py, COMMON-NOTIFY-1): a night's No-Shows and
group winners sharing a payout (LADDER-PAY-3), as the commissioners read them."""

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.rules.ladder import notices as _registers  # noqa: F401  (registers the ladder's notices)
from bot.rules.notices import AuditFact, Names, notice_text, notices

NOW = datetime(2027, 3, 9, 21, 0, tzinfo=UTC)


def told(action: str, after: dict[str, Any] | None, subject: str | None = None) -> str:
    entry = AuditFact(
        id=1, league_id=1, actor_id=77, command="/night close", action=action, entity="night", at=NOW, after=after
    )
    [notice] = notices([entry], now=NOW, grace={1: timedelta(hours=2)})
    return notice_text(notice, Names(subject)).splitlines()[0]


@pytest.mark.parametrize(
    ("after", "expected"),
    [
        ({"no_shows": ["Ann", "Bo"], "dropped": []}, "Ann, Bo"),
        ({"no_shows": ["Ann"]}, "Ann"),
        ({"no_shows": ["Ann", "Bo", "Cy"], "dropped": ["Bo", "Cy"]}, "Ann, Bo, Cy; dropped for the season: Bo, Cy"),
    ],
)
def test_no_shows_name_the_dropped_only_when_someone_is_dropped(after, expected):
    """COMMON-NOTIFY-1 / LADDER-ATT-5: the night's No-Shows, then who is dropped for the season, if anyone."""
    assert told("no_shows", after, "week 3").endswith(f"— week 3: {expected}")


@pytest.mark.parametrize(
    ("after", "expected"),
    [
        (
            {"week": 4, "players": ["Ann", "Bo"], "cents": [123_456, 123_455]},
            "week 4: Ann and Bo are level on week TLP and TNS and share $1,234.56 / $1,234.55",
        ),
        (
            {"week": 2, "players": ["Ann", "Bo", "Cy"], "cents": [300, 300, 300]},
            "week 2: Ann and Bo and Cy are level on week TLP and TNS and share $3.00 / $3.00 / $3.00",
        ),
        # an entry written without its week still reads as a sentence
        ({"players": ["Ann", "Bo"], "cents": [150, 150]}, "week : Ann and Bo are level on week TLP and TNS"),
    ],
)
def test_a_shared_payout_names_the_players_and_each_share(after, expected):
    """COMMON-NOTIFY-1 / LADDER-PAY-3: winners the rules cannot order share the payout; the notice says so."""
    assert expected in told("payout_tie", after)


def test_a_payout_tie_without_details_is_still_told():
    """An entry without its details still makes a notice rather than failing the channel's post."""
    assert "week : " in told("payout_tie", None)
