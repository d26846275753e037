"""What the commissioners' notices say, word for word (COMMON-NOTIFY-1, bot/rules/notices.py): an override's
changes and the rows it added or removed, values as people read them, details left out when there are none,
the message cut to fit, and which entries are told at the edge of the grace."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.rules import notices as rules
from bot.rules.notices import AuditFact, Names, NoticeKind, affected_text, notice_text, notices

NOW = datetime(2027, 3, 9, 21, 0, tzinfo=UTC)
GRACE = {1: timedelta(hours=2)}
BY = "\n-# by <@77> with `/admin override` (COMMON-NOTIFY-1)"


def fact(action: str, *, entry_id: int = 1, at: datetime = NOW, **kw: object) -> AuditFact:
    return AuditFact(
        id=entry_id, league_id=1, actor_id=77, command="/admin override", action=action,
        entity=str(kw.pop("entity", "game_score")), at=at, **kw,  # type: ignore[arg-type]
    )  # fmt: skip


NOBODY = Names()


def told(entry: AuditFact, names: Names = NOBODY) -> str:
    [notice] = notices([entry], now=NOW, grace=GRACE)
    return notice_text(notice, names)


@pytest.mark.parametrize(
    ("before", "after", "line"),
    [
        (None, {"id": 4, "score": 10}, "**✏️ Override**: game score added; typo"),
        ({"id": 4, "score": 10}, None, "**✏️ Override**: game score removed; typo"),
        (
            {"final_score": 1_000, "forfeited": False, "note": None, "machine": "Godzilla", "id": 1},
            {"final_score": 25_000, "forfeited": True, "note": "late", "machine": "Deadpool", "id": 2},
            "**✏️ Override**: final score 1,000 → 25,000, forfeited no → yes, note none → late, "
            "machine Godzilla → Deadpool; typo",
        ),
        (
            {"winner_id": 3, "tied": True},
            {"winner_id": None, "tied": False},
            "**✏️ Override**: winner id 3 → none, tied yes → no; typo",
        ),
    ],
    ids=["added", "removed", "changed", "cleared"],
)
def test_common_notify_1_an_override_reads_as_its_changes_then_its_reason(
    before: dict[str, object] | None, after: dict[str, object] | None, line: str
) -> None:
    """COMMON-NOTIFY-1: underscores read as spaces, numbers with thousands separators, yes/no/none; the id
    (bookkeeping) is left out."""
    assert told(fact("override", before=before, after=after, reason="typo")) == line + BY


def test_common_notify_1_a_removed_row_is_named_as_people_call_it() -> None:
    entry = fact("override", entity="lineup_slot", before={"player_id": 5}, after=None)
    assert told(entry, Names("match #3")) == "**✏️ Override** — match #3: lineup slot removed" + BY


@pytest.mark.parametrize(
    ("entry", "line"),
    [
        (fact("warn"), "**⚠️ Warning** — Carol"),  # no reason recorded: nothing after the title
        (fact("warn", reason=""), "**⚠️ Warning** — Carol"),
        (fact("warn", reason="Slow play"), "**⚠️ Warning** — Carol: Slow play"),
        (
            fact("discipline_flag", after={"TEAM-DISC-3": "Dan: 2 slam tilts", "TEAM-DISC-4": "Dan: late twice"}),
            "**🚩 Discipline flag** — Carol: Dan: 2 slam tilts (TEAM-DISC-3); Dan: late twice (TEAM-DISC-4)",
        ),
        (
            fact("machine_major_failure", after={"description": "Left flipper dead", "action_taken": "game moved"}),
            "**🛠️ Major machine failure** — Carol: Left flipper dead (game moved)",
        ),
    ],
)
def test_common_notify_1_the_notice_gives_the_detail_only_when_there_is_one(entry: AuditFact, line: str) -> None:
    assert told(entry, Names("Carol")) == line + BY


def test_common_notify_1_a_notice_exactly_as_long_as_a_message_allows_is_not_cut() -> None:
    room = rules.NOTICE_MAX - len("**⚠️ Warning**: " + BY)
    whole = told(fact("warn", reason="x" * room))
    assert len(whole) == rules.NOTICE_MAX and whole.endswith(BY)
    cut = told(fact("warn", reason="x" * (room + 1)))
    assert cut == ("**⚠️ Warning**: " + "x" * (room + 1) + BY)[: rules.NOTICE_MAX - 1] + "…"
    assert cut.endswith("(COMMON-NOTIFY-…")


@pytest.mark.parametrize(
    ("entry", "names", "text"),
    [
        (
            fact("override", before={"score": 5}, after={"score": 50}),
            Names(affected=(101,)),
            "<@101> a commissioner corrected your match: score 5 → 50.",  # no subject, no reason
        ),
        (
            fact("override", before={"score": 5, "confirmed_by": None}, after={"score": 5, "confirmed_by": 9}),
            Names("match #3", affected=(101, 102)),
            "<@101> <@102> a commissioner corrected match #3: a correction.",  # only bookkeeping changed
        ),
    ],
)
def test_an_overrides_affected_members_are_told_what_changed(entry: AuditFact, names: Names, text: str) -> None:
    """Issue 7 item 4."""
    [notice] = notices([entry], now=NOW, grace=GRACE)
    assert affected_text(notice, names) == text


def test_common_notify_1_an_entry_exactly_as_old_as_the_grace_is_still_told() -> None:
    entries = [
        fact("warn", entry_id=1, at=NOW - timedelta(hours=2)),
        fact("warn", entry_id=2, at=NOW - timedelta(hours=3)),
    ]
    assert [n.period for n in notices(entries, now=NOW, grace=GRACE)] == ["audit-1"]


def test_a_format_registers_its_actions_once_and_an_action_cannot_change_hands() -> None:
    kind = NoticeKind("test_exhibition", "🎳 Exhibition")
    rules.register(kind)
    try:
        rules.register(kind)  # importing a format's module again changes nothing
        assert rules.is_notable("test_exhibition")
        assert told(fact("test_exhibition", reason="charity night")) == "**🎳 Exhibition**: charity night" + BY
        with pytest.raises(ValueError, match="a notice for 'test_exhibition' is already registered"):
            rules.register(NoticeKind("test_exhibition", "🎳 Another title"))
        assert rules.NOTABLE["test_exhibition"] is kind
        with pytest.raises(ValueError, match="'warn' is already registered"):
            rules.register(NoticeKind("test_other", "x"), NoticeKind("warn", "⚠️ Caution"))
    finally:
        rules.NOTABLE.pop("test_exhibition", None)
        rules.NOTABLE.pop("test_other", None)
