"""Commissioner notices (COMMON-NOTIFY-1): which audit entries the league must be told about, and what the
notice says. Pure: audit facts and the names the service resolved in, text out; `now` is a parameter.

The audit trail is the outbox: each notable entry is one notice, keyed by the entry's id so it is claimed once.
(Entries are not merged per command: nothing in an entry says which command run wrote it, and under a frozen
clock, as in the local chat, two runs of one command look alike; a merged notice could swallow the second.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

# action → what the notice calls it. The catalog's list: moved or rescheduled matches, major machine failures,
# challenges/disputes, automatic discipline, No-Shows, unresolved ties (COMMON-NOTIFY-1); corrections and the
# other discipline decisions are the commissioners' own record of what changed (issue 7).
NOTABLE: dict[str, str] = {
    "match_rescheduled": "📅 Match rescheduled",
    "match_moved": "📍 Match moved",
    "machine_major_failure": "🛠️ Major machine failure",
    "field_malfunction_major": "🛠️ Major machine malfunction",
    "dispute_opened": "⚖️ Dispute opened",
    "both_ways": "⚖️ Disputed game played both ways",
    "agreement_proposed": "🤝 Captains' agreement proposed",
    "agreement_accepted": "🤝 Captains' agreement accepted",
    "ruling": "⚖️ Ruling",
    "auto_suspend": "🚫 Automatic suspension",
    "auto_suspension": "🚫 Automatic suspension",  # a format's own penalty ladder (FIELD-PEN-3/10)
    "discipline_flag": "🚩 Discipline flag",
    "no_shows": "🚷 No-Shows",
    "tie_awaiting_playoff": "🎯 Tie awaiting its playoff",
    "payout_tie": "💰 Payout tie shared",
    "field_penalty": "🟨 Penalty",
    "override": "✏️ Override",
    "warn": "⚠️ Warning",
    "suspend": "⛔ Suspension",
    "lift": "✅ Suspension lifted",
    "expel": "⛔ Expulsion",
    "incident_opened": "📝 Conduct incident opened",
    "incident_dismissed": "📝 Conduct incident dismissed",
    "incident_decided": "📝 Conduct incident decided",
}
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
    title = NOTABLE[entry.action]
    about = f" — {subject}" if subject else ""
    detail = _detail(entry)
    return f"**{title}**{about}" + (f": {detail}" if detail else "")


def _detail(entry: AuditFact) -> str:
    after = entry.after or {}
    action = entry.action
    if action == "dispute_opened":
        return f"{after.get('reason', '')} (kind {after.get('kind', 'score')})"
    if action in ("agreement_proposed", "agreement_accepted"):
        return str(after.get("terms", ""))
    if action == "discipline_flag":
        return "; ".join(f"{value} ({rule})" for rule, value in after.items())
    if action == "no_shows":
        dropped = after.get("dropped") or []
        text = ", ".join(after.get("no_shows") or [])
        return text + (f"; dropped for the season: {', '.join(dropped)}" if dropped else "")
    if action == "tie_awaiting_playoff":
        players = " and ".join(after.get("players") or [])
        return f"{players} on {after.get('where', '')}; the night cannot close until the playoff is entered"
    if action == "payout_tie":
        players = " and ".join(after.get("players") or [])
        cents = after.get("cents") or []
        each = " / ".join(f"${c / 100:,.2f}" for c in cents)
        return f"week {after.get('week', '')}: {players} are level on week TLP and TNS and share {each}"
    if action == "machine_major_failure":
        return f"{after.get('description', '')} ({after.get('action_taken', '')})"
    if action == "field_malfunction_major":
        return f"{after.get('incident', '')}" + (f" ({entry.reason})" if entry.reason else "")
    if action == "field_penalty":
        return f"{after.get('offence', '')}" + (f" ({entry.reason})" if entry.reason else "")
    if action in ("override", "match_rescheduled", "match_moved"):
        changes = _changes(entry)
        return "; ".join(filter(None, (changes, entry.reason)))
    return entry.reason or ""


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
