"""Commissioner notices (COMMON-NOTIFY-1): which audit entries the league must be told about, and what the
notice says. Pure: audit facts and the names the service resolved in, text out; `now` is a parameter.

The audit trail is the outbox: each notable entry is one notice, keyed by the entry's id so it is claimed once.
(Entries are not merged per command: nothing in an entry says which command run wrote it, and under a frozen
clock, as in the local chat, two runs of one command look alike; a merged notice could swallow the second.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

# Bookkeeping columns an override's before/after differ in without telling the reader anything.
QUIET_FIELDS = frozenset({"id", "confirmed_by", "confirmed_at", "entered_by", "entered_at", "status_changed_at"})
NOTICE_MAX = 1900  # a Discord message holds 2000 characters


@dataclass(frozen=True)
class AuditFact:
    """One audit entry as plain data."""

    id: int
    league_id: int
    actor_id: int
    command: str
    action: str
    entity: str
    at: datetime
    entity_id: int | None = None
    before: Mapping[str, Any] | None = None
    after: Mapping[str, Any] | None = None
    reason: str | None = None


def reason(entry: AuditFact) -> str:
    """The detail most notices give: the reason recorded with the entry."""
    return entry.reason or ""


def changes_and_reason(entry: AuditFact) -> str:
    """The detail of a corrected or moved row: its old → new values, then the reason."""
    return "; ".join(filter(None, (_changes(entry), entry.reason)))


@dataclass(frozen=True)
class NoticeKind:
    """An audit action the commissioners are told about: what the notice calls it, and its detail."""

    action: str
    title: str
    detail: Callable[[AuditFact], str] = reason


# action → its kind. The catalog's list: moved or rescheduled matches, major machine failures, challenges/disputes,
# automatic discipline, No-Shows, unresolved ties (COMMON-NOTIFY-1); corrections and the other discipline decisions
# are the commissioners' own record of what changed (issue 7). The common actions are below; a format registers
# its own (`bot.rules.<format>.notices`), as it does its post kinds.
NOTABLE: dict[str, NoticeKind] = {}


def register(*kinds: NoticeKind) -> None:
    """Add notable actions (a format's module calls this at import); an action has one kind."""
    for kind in kinds:
        if NOTABLE.get(kind.action, kind) != kind:
            raise ValueError(f"a notice for {kind.action!r} is already registered")
        NOTABLE[kind.action] = kind


@dataclass(frozen=True)
class Notice:
    """An audit entry the commissioners are told about."""

    entry: AuditFact

    @property
    def league_id(self) -> int:
        return self.entry.league_id

    @property
    def period(self) -> str:
        """The claim key in `post_claim` under the kind `notice`."""
        return self.period_of(self.entry.id)

    @staticmethod
    def period_of(entry_id: int) -> str:
        return f"audit-{entry_id}"


@dataclass(frozen=True)
class Names:
    """What the service resolved for the text: what the entry is about (a match, a player, a machine), and for an
    override the affected members to mention (Discord ids)."""

    subject: str | None = None
    affected: tuple[int, ...] = ()


def is_notable(action: str) -> bool:
    return action in NOTABLE


def notices(entries: Iterable[AuditFact], *, now: datetime, grace: Mapping[int, timedelta]) -> list[Notice]:
    """The notable entries, oldest first, leaving out leagues without a `grace` (no commissioners channel) and
    entries older than their league's grace at first sight (no flood of old events when the channel is named
    later)."""
    return [
        Notice(entry)
        for entry in sorted(entries, key=lambda e: e.id)
        if is_notable(entry.action) and (window := grace.get(entry.league_id)) is not None and entry.at >= now - window
    ]


def notice_text(notice: Notice, names: Names) -> str:
    """The commissioners' message: what happened, then who did it through which command."""
    entry = notice.entry
    by = f"-# by <@{entry.actor_id}> with `{entry.command}` (COMMON-NOTIFY-1)"
    return _fit(f"{_line(entry, names.subject)}\n{by}")


def affected_text(notice: Notice, names: Names) -> str | None:
    """For an override, the message that tells the affected captains and players (issue 7 item 4); None when
    nobody is affected or it is no override."""
    entry = notice.entry
    if entry.action != "override" or not names.affected:
        return None
    mentions = " ".join(f"<@{user}>" for user in names.affected)
    because = f" Reason: {entry.reason}" if entry.reason else ""
    return _fit(
        f"{mentions} a commissioner corrected {names.subject or 'your match'}: {_changes(entry) or 'a correction'}."
        + because
    )


def _line(entry: AuditFact, subject: str | None) -> str:
    kind = NOTABLE[entry.action]
    about = f" — {subject}" if subject else ""
    detail = kind.detail(entry)
    return f"**{kind.title}**{about}" + (f": {detail}" if detail else "")


def _changes(entry: AuditFact) -> str:
    """An override's old → new values; a row it added or removed."""
    before, after = entry.before or {}, entry.after or {}
    if not before:
        return f"{entry.entity.replace('_', ' ')} added"
    if not after:
        return f"{entry.entity.replace('_', ' ')} removed"
    changed = [
        f"{key.replace('_', ' ')} {_value(before.get(key))} → {_value(after.get(key))}"
        for key in after
        if key not in QUIET_FIELDS and before.get(key) != after.get(key)
    ]
    return ", ".join(changed)


def _value(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return {True: "yes", False: "no", None: "none"}[value]
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def _fit(text: str) -> str:
    return text if len(text) <= NOTICE_MAX else text[: NOTICE_MAX - 1] + "…"


def _flags(entry: AuditFact) -> str:
    return "; ".join(f"{value} ({rule})" for rule, value in (entry.after or {}).items())


def _tie(entry: AuditFact) -> str:
    after = entry.after or {}
    players = " and ".join(after.get("players") or [])
    return f"{players} on {after.get('where', '')}; the night cannot close until the playoff is entered"


def _machine_failure(entry: AuditFact) -> str:
    after = entry.after or {}
    return f"{after.get('description', '')} ({after.get('action_taken', '')})"


register(
    NoticeKind("machine_major_failure", "🛠️ Major machine failure", _machine_failure),
    NoticeKind("auto_suspend", "🚫 Automatic suspension"),
    NoticeKind("auto_suspension", "🚫 Automatic suspension"),  # a format's own penalty ladder (FIELD-PEN-3/10)
    NoticeKind("discipline_flag", "🚩 Discipline flag", _flags),
    NoticeKind("tie_awaiting_playoff", "🎯 Tie awaiting its playoff", _tie),  # ladder and field nights
    NoticeKind("override", "✏️ Override", changes_and_reason),
    NoticeKind("warn", "⚠️ Warning"),
    NoticeKind("suspend", "⛔ Suspension"),
    NoticeKind("lift", "✅ Suspension lifted"),
    NoticeKind("expel", "⛔ Expulsion"),
    NoticeKind("incident_opened", "📝 Conduct incident opened"),
    NoticeKind("incident_dismissed", "📝 Conduct incident dismissed"),
    NoticeKind("incident_decided", "📝 Conduct incident decided"),
)
