"""The team format's notable actions (COMMON-NOTIFY-1): moved and rescheduled matches, disputes, captains'
agreements and rulings. Pure, like `bot.rules.notices`, which they register with."""

from __future__ import annotations

from bot.rules.notices import AuditFact, NoticeKind, changes_and_reason, register


def _dispute(entry: AuditFact) -> str:
    after = entry.after or {}
    return f"{after.get('reason', '')} (kind {after.get('kind', 'score')})"


def _terms(entry: AuditFact) -> str:
    return str((entry.after or {}).get("terms", ""))


NOTICES = (
    NoticeKind("match_rescheduled", "📅 Match rescheduled", changes_and_reason),
    NoticeKind("match_moved", "📍 Match moved", changes_and_reason),
    NoticeKind("dispute_opened", "⚖️ Dispute opened", _dispute),
    NoticeKind("both_ways", "⚖️ Disputed game played both ways"),
    NoticeKind("agreement_proposed", "🤝 Captains' agreement proposed", _terms),
    NoticeKind("agreement_accepted", "🤝 Captains' agreement accepted", _terms),
    NoticeKind("ruling", "⚖️ Ruling"),
)
register(*NOTICES)
