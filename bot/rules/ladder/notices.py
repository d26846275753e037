"""The ladder format's notable actions (COMMON-NOTIFY-1): a closed night's No-Shows, and group winners who
share a payout because the rules cannot order them. Pure, like `bot.rules.notices`, which it registers with
(the night's unresolved ties are a common kind there)."""

from __future__ import annotations

from bot.rules.notices import AuditFact, NoticeKind, register


def _no_shows(entry: AuditFact) -> str:
    after = entry.after or {}
    dropped = after.get("dropped") or []
    text = ", ".join(after.get("no_shows") or [])
    return text + (f"; dropped for the season: {', '.join(dropped)}" if dropped else "")


def _payout_tie(entry: AuditFact) -> str:
    after = entry.after or {}
    players = " and ".join(after.get("players") or [])
    each = " / ".join(f"${cents / 100:,.2f}" for cents in after.get("cents") or [])
    return f"week {after.get('week', '')}: {players} are level on week TLP and TNS and share {each}"


NOTICES = (
    NoticeKind("no_shows", "🚷 No-Shows", _no_shows),
    NoticeKind("payout_tie", "💰 Payout tie shared", _payout_tie),
)
register(*NOTICES)
