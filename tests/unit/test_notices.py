"""Commissioner notices from the audit trail (COMMON-NOTIFY-1): which entries are told, grouped per command,
within the grace, and what the notice and an override's mention say."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.rules.field import notices as field_notices
from bot.rules.ladder import notices as ladder_notices
from bot.rules.notices import NOTABLE, AuditFact, Names, affected_text, notice_text, notices
from bot.rules.team import notices as team_notices

NOW = datetime(2027, 3, 9, 21, 0, tzinfo=UTC)
GRACE = {1: timedelta(hours=2)}


def fact(
    entry_id: int, action: str, *, at: datetime = NOW, league: int = 1, command: str = "/x", **kw: object
) -> AuditFact:
    return AuditFact(
        id=entry_id, league_id=league, actor_id=77, command=command, action=action, entity=str(kw.pop("entity", "row")),
        at=at, **kw,  # type: ignore[arg-type]
    )  # fmt: skip


def test_common_notify_1_only_the_catalogs_events_and_commissioner_decisions_are_told() -> None:
    """COMMON-NOTIFY-1: disputes, automatic discipline, major failures, moves, No-Shows are told; plain edits
    (a score entered, a lineup declared) are not."""
    entries = [
        fact(1, "create", command="/score"),
        fact(2, "dispute_opened", command="/match dispute"),
        fact(3, "update", command="/lineup"),
        fact(4, "machine_major_failure", command="/match malfunction"),
        fact(5, "no_shows", command="/ladder night close"),
        fact(6, "match_moved", command="/schedule move"),
    ]
    assert [n.period for n in notices(entries, now=NOW, grace=GRACE)] == ["audit-2", "audit-4", "audit-5", "audit-6"]


def test_common_notify_1_each_entry_is_one_notice_keyed_by_its_id() -> None:
    """A second warning writes the warning and the automatic suspension (TEAM-DISC-2): two notices, each claimed
    under its entry's id, each saying what happened and who did it."""
    warn = fact(10, "warn", command="/admin warn", reason="Slow play")
    suspend = fact(11, "auto_suspend", command="/admin warn", reason="Second warning this season")
    other = fact(12, "dispute_opened", command="/match dispute", after={"reason": "wrong score", "kind": "score"})
    found = notices([suspend, other, warn], now=NOW, grace=GRACE)
    assert [n.period for n in found] == ["audit-10", "audit-11", "audit-12"]
    assert notice_text(found[0], Names("Carol")) == (
        "**⚠️ Warning** — Carol: Slow play\n-# by <@77> with `/admin warn` (COMMON-NOTIFY-1)"
    )
    assert "**🚫 Automatic suspension** — Carol: Second warning this season" in notice_text(found[1], Names("Carol"))
    assert "**⚖️ Dispute opened**: wrong score (kind score)" in notice_text(found[2], Names())


def test_common_notify_1_no_flood_of_old_events_and_none_without_a_channel() -> None:
    """Entries older than the league's grace at first sight are never sent; a league with no commissioners
    channel (no grace given) gets nothing."""
    old = fact(1, "dispute_opened", at=NOW - timedelta(hours=2, seconds=1))
    recent = fact(2, "dispute_opened", at=NOW - timedelta(hours=1))
    elsewhere = fact(3, "dispute_opened", league=2)
    assert [n.period for n in notices([old, recent, elsewhere], now=NOW, grace=GRACE)] == ["audit-2"]


def test_an_override_tells_the_commissioners_the_change_and_mentions_the_affected_members() -> None:
    """Issue 7 item 4: an override's old and new values and reason go to the commissioners, and the affected
    captains and players are mentioned with what changed; bookkeeping columns are left out."""
    entry = fact(
        5, "override", command="/admin override score", entity="game_score", reason="photo shows 1,234,560",
        before={"score": 123_456, "confirmed_by": None, "match_id": 3},
        after={"score": 1_234_560, "confirmed_by": 77, "match_id": 3},
    )  # fmt: skip
    [notice] = notices([entry], now=NOW, grace=GRACE)
    names = Names("Rollovers at Spinners (match #3)", affected=(101, 202))
    assert "**✏️ Override** — Rollovers at Spinners (match #3): score 123,456 → 1,234,560; photo shows 1,234,560" in (
        notice_text(notice, names)
    )
    assert affected_text(notice, names) == (
        "<@101> <@202> a commissioner corrected Rollovers at Spinners (match #3): score 123,456 → 1,234,560. "
        "Reason: photo shows 1,234,560"
    )
    assert affected_text(notice, Names("x")) is None
    [warning] = notices([fact(6, "warn")], now=NOW, grace=GRACE)
    assert affected_text(warning, Names(affected=(101,))) is None


def test_no_shows_and_flags_read_as_sentences() -> None:
    """A ladder night's No-Shows with the players dropped, a discipline flag and an unresolved tie, as the
    commissioners read them."""
    closed = fact(1, "no_shows", after={"no_shows": ["Ann", "Bo"], "dropped": ["Bo"]})
    flag = fact(2, "discipline_flag", command="/y", after={"TEAM-DISC-3": "Dan: 2 slam tilts this season"})
    tie = fact(
        3, "tie_awaiting_playoff", command="/z", after={"where": "group 2, game 5 (Godzilla)", "players": ["Ann", "Cy"]}
    )
    [first, second, third] = notices([closed, flag, tie], now=NOW, grace=GRACE)
    assert "**🚷 No-Shows** — week 3: Ann, Bo; dropped for the season: Bo" in notice_text(first, Names("week 3"))
    assert "Dan: 2 slam tilts this season (TEAM-DISC-3)" in notice_text(second, Names())
    assert "Ann and Cy on group 2, game 5 (Godzilla); the night cannot close" in notice_text(third, Names())


def test_a_long_notice_fits_in_one_message() -> None:
    [notice] = notices([fact(1, "dispute_opened", after={"reason": "x" * 5000})], now=NOW, grace=GRACE)
    text = notice_text(notice, Names())
    assert len(text) <= 2000 and text.endswith("…")


def test_each_format_registers_its_own_notable_actions_once() -> None:
    """A format's actions join the common ones when its module is imported; no action belongs to two formats."""
    own = [kind for kinds in (team_notices.NOTICES, ladder_notices.NOTICES, field_notices.NOTICES) for kind in kinds]
    assert len({kind.action for kind in own}) == len(own)
    assert all(NOTABLE[kind.action] is kind for kind in own)
    assert {"no_shows", "match_moved", "field_penalty", "warn"} <= set(NOTABLE)
