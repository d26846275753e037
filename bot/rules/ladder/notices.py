"""The ladder format's notable action (COMMON-NOTIFY-1): a closed night's No-Shows. Pure, like
`bot.rules.notices`, which it registers with (the night's unresolved ties are a common kind there)."""

from __future__ import annotations

from bot.rules.notices import AuditFact, NoticeKind, register


def _no_shows(entry: AuditFact) -> str:
    after = entry.after or {}
    dropped = after.get("dropped") or []
    text = ", ".join(after.get("no_shows") or [])
    return text + (f"; dropped for the season: {', '.join(dropped)}" if dropped else "")


NOTICES = (NoticeKind("no_shows", "🚷 No-Shows", _no_shows),)
register(*NOTICES)
