"""Replies of the commissioner tools: discipline records, the audit trail and the machine-issue log (text and
CSV). Pure: data in, text, embeds or file bytes out."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any
from zoneinfo import ZoneInfo

import discord

from bot.exchange.uploads import fitting
from bot.render.setup import LEAGUE_COLOUR
from bot.services.audit_log import SHOWN, AuditTrail
from bot.services.discipline import History, Recorded
from bot.services.machine_log import MachineLog
from storage.discipline import DisciplineEntry, Precedent
from storage.models import AuditEntry

FIELD_MAX = 1024


def recorded(done: Recorded, verb: str) -> str:
    entry = done.entry
    lines = [f"📒 {done.subject} {verb} (ruling #{entry.id}, {entry.rule_id}): {entry.reason}"]
    if done.automatic is not None:
        lines.append(
            f"⛔ Second warning this season: {done.subject} is suspended for the rest of the season "
            f"(ruling #{done.automatic.id}, TEAM-DISC-2)."
        )
    lines += [f"🚩 {text.rstrip('.')} ({rule})" for rule, text in done.flags]
    return "\n".join(lines)


def history_embed(history: History) -> discord.Embed:
    embed = discord.Embed(title=f"📒 Discipline record: {history.subject}", colour=LEAGUE_COLOUR)
    lines = [_entry_line(entry) for entry in history.entries] or ["No warnings, suspensions or expulsions."]
    lines += [
        f"Incident #{i.id} {i.reported_at:%Y-%m-%d} {i.category.replace('_', ' ')} ({i.status.value}): {i.description}"
        for i in history.incidents
    ]
    embed.description = "\n".join(lines)[:4000]
    if history.flags:
        embed.add_field(
            name="Needs attention",
            value="\n".join(f"🚩 {text.rstrip('.')} ({rule})" for rule, text in history.flags)[:FIELD_MAX],
        )
    if history.slam_tilts:
        embed.set_footer(text=f"Slam tilts this season: {history.slam_tilts}")
    return embed


def _entry_line(entry: DisciplineEntry) -> str:
    span = ""
    if entry.kind.value == "suspension":
        span = f" through {entry.ends_on.isoformat()}" if entry.ends_on else " to the end of the season"
    auto = " (automatic)" if entry.automatic else ""
    lifted = f" — lifted {entry.lifted_at:%Y-%m-%d}: {entry.lift_reason}" if entry.lifted_at else ""
    head = f"#{entry.id} {entry.starts_on.isoformat()} {entry.kind.value}{span}{auto}"
    return f"{head} [{entry.rule_id}]: {entry.reason}{lifted}"


def precedent_lines(precedents: Sequence[Precedent], heading: str = "📚 Similar disputes were ruled before:") -> str:
    """COMMON-RULING-1: earlier rulings on similar disputes (or situations), for consistency."""
    if not precedents:
        return ""
    lines = [heading]
    for p in precedents:
        tags = ", ".join(t for t in (p.kind, p.rule_id, p.machine_family) if t)
        lines.append(f"• Precedent #{p.id} ({tags}), {p.ruled_at:%Y-%m-%d}: “{p.situation[:120]}” → {p.ruling[:200]}")
    return "\n".join(lines)


def audit_text(trail: AuditTrail) -> str:
    if not trail.entries:
        return "No audit entries match."
    zone = trail.zone
    lines = [f"🧾 {len(trail.entries)} audit entries, newest first:"]
    for entry in trail.entries[:SHOWN]:
        lines.append(_audit_line(entry, zone))
    if len(trail.entries) > SHOWN:
        lines.append(f"… and {len(trail.entries) - SHOWN} more: add `export:True` for all of them as CSV.")
    return "\n".join(lines)[:1900]


def _audit_line(entry: AuditEntry, zone: ZoneInfo) -> str:
    change = _change(entry.before, entry.after)
    why = f" — {entry.reason}" if entry.reason else ""
    return (
        f"#{entry.id} {entry.at.astimezone(zone):%m-%d %H:%M} <@{entry.actor_id}> `{entry.command}` "
        f"{entry.action} {entry.entity} #{entry.entity_id}{': ' + change if change else ''}{why}"
    )


def _change(before: dict[str, Any] | None, after: dict[str, Any] | None) -> str:
    """The fields an update changed, old → new (creations and deletions show nothing here; the CSV has them)."""
    if not before or not after:
        return ""
    changed = [key for key in after if before.get(key) != after.get(key) and not key.endswith("_at")]
    return ", ".join(f"{key} {_short(before.get(key))} → {_short(after.get(key))}" for key in changed[:4])


def _short(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10_000:
        return f"{value:,}"
    text = json.dumps(value) if isinstance(value, (list, dict)) else str(value)
    return text if len(text) <= 60 else text[:57] + "…"


def audit_csv(trail: AuditTrail) -> discord.File:
    """Every entry as CSV, zipped when a plain CSV would not fit in one Discord upload."""
    rows = [
        [
            e.id, e.at.astimezone(trail.zone).isoformat(timespec="seconds"), e.actor_id, e.command, e.action,
            e.entity, e.entity_id, e.reason or "",
            json.dumps(e.before) if e.before else "", json.dumps(e.after) if e.after else "",
        ]
        for e in trail.entries
    ]  # fmt: skip
    header = ["id", "at", "actor_id", "command", "action", "entity", "entity_id", "reason", "before", "after"]
    name = f"audit-{trail.league.name_key.replace(' ', '-')}.csv"
    return _csv_file(name, header, rows, narrow_with="`since:`, `until:`, `team:`, `match:` or `member:`")


def machine_log_text(log: MachineLog) -> str:
    lines, zone = log.lines, log.zone
    if not lines:
        return "🔧 The machine-issue log is empty."
    shown = [
        f"{line.issue.reported_at.astimezone(zone):%Y-%m-%d %H:%M} {line.machine} @ {line.venue}: "
        f"{line.issue.severity.value} {line.issue.kind.value} — {line.issue.description} ({line.issue.action_taken})"
        for line in lines[:10]
    ]
    return f"🔧 {len(lines)} machine issues (CSV attached for the venue operators):\n" + "\n".join(shown)[:1700]


def machine_log_csv(log: MachineLog) -> discord.File:
    lines, zone = log.lines, log.zone
    header = ["reported_at", "venue", "machine", "kind", "severity", "description", "action_taken", "reported_by"]
    rows = [
        [
            line.issue.reported_at.astimezone(zone).isoformat(timespec="minutes"), line.venue, line.machine,
            line.issue.kind.value, line.issue.severity.value, line.issue.description, line.issue.action_taken,
            line.issue.reported_by,
        ]
        for line in lines
    ]  # fmt: skip
    return _csv_file("machine-issues.csv", header, rows, narrow_with="`venue:`")


def _csv_file(name: str, header: list[str], rows: list[list[Any]], *, narrow_with: str) -> discord.File:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(header)
    writer.writerows(rows)
    filename, content = fitting(name, buffer.getvalue().encode(), narrow_with=narrow_with)
    return discord.File(io.BytesIO(content), filename=filename)
