"""The field format's notable actions (COMMON-NOTIFY-1): a night's major malfunctions and penalties. Pure, like
`bot.rules.notices`, which they register with (the night's unresolved ties are a common kind there)."""

from __future__ import annotations

from bot.rules.notices import AuditFact, NoticeKind, register


def _malfunction(entry: AuditFact) -> str:
    return f"{(entry.after or {}).get('incident', '')}" + (f" ({entry.reason})" if entry.reason else "")


def _penalty(entry: AuditFact) -> str:
    return f"{(entry.after or {}).get('offence', '')}" + (f" ({entry.reason})" if entry.reason else "")


NOTICES = (
    NoticeKind("field_malfunction_major", "🛠️ Major machine malfunction", _malfunction),
    NoticeKind("field_penalty", "🟨 Penalty", _penalty),
)
register(*NOTICES)
